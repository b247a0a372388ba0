// loop-invariant-code-motion hoists, out of any LoopLike op (here test.for), the ops
// whose operands are all defined outside the loop, that have no memory effects and
// that are speculatable. Loads, stores, ops of unknown effects and ops that may trap
// (a division or remainder by a divisor that may be 0, or -1 if signed) stay;
// licm-speculation.mlir has the cases of every dialect; nests are emptied from the inside.
// RUN: mlc-opt %s --loop-invariant-code-motion --allow-unregistered-dialect --split-input-file | filecheck %s
// RUN: mlc-opt %s --loop-invariant-code-motion --allow-unregistered-dialect --split-input-file --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
//
// Interop: renamed to scf/memref (Inputs/test-to-mlir.sed), the program mlc leaves is
// the one mlir-opt-22's pass leaves, op for op.
// RUN: %if mlir-opt %{ mlc-opt %s --allow-unregistered-dialect --split-input-file --print-op-generic | sed -f %S/Inputs/test-to-mlir.sed | %mlir_opt --allow-unregistered-dialect --split-input-file --loop-invariant-code-motion --mlir-print-op-generic > %t.mlir %}
// RUN: %if mlir-opt %{ mlc-opt %s --allow-unregistered-dialect --split-input-file --loop-invariant-code-motion --print-op-generic | sed -f %S/Inputs/test-to-mlir.sed | %mlir_opt --allow-unregistered-dialect --split-input-file --mlir-print-op-generic > %t.mlc %}
// RUN: %if mlir-opt %{ diff %t.mlc %t.mlir %}

// Summed over the chunks: 5 in @invariants, 3 + 1 in @nest (%sq moves twice), 2 in
// @regions, 1 in @unknown_and_carried.
// STATS: loop-invariant-code-motion
// STATS-NEXT: (12) num-moved - ops hoisted out of loops

// CHECK-LABEL: func.func @invariants
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : i32
// CHECK-NEXT:    %e = arith.divsi %a, %c3 : i32
// CHECK-NEXT:    %r = arith.remsi %a, %c3 : i32
// CHECK-NEXT:    %s = arith.addi %a, %b : i32
// CHECK-NEXT:    %t = arith.muli %s, %s : i32
// CHECK-NEXT:    test.for %lb to %ub step %c1 {
// CHECK-NEXT:    ^bb0(%i: index):
// CHECK-NEXT:      %d = arith.divsi %a, %b : i32
// CHECK-NEXT:      %l = test.load %m[%lb] : memref<?xi32>
// CHECK-NEXT:      %u = arith.addi %t, %l : i32
// CHECK-NEXT:      %x = arith.index_cast %i : index to i32
// CHECK-NEXT:      test.store %u, %m[%i]
// CHECK-NEXT:      test.store %d, %m[%i]
// CHECK-NEXT:      test.store %e, %m[%i]
// CHECK-NEXT:      test.store %x, %m[%i]
// CHECK-NEXT:      test.store %r, %m[%i]
// CHECK-NEXT:      test.yield
// CHECK-NEXT:    }
func.func @invariants(%lb: index, %ub: index, %a: i32, %b: i32, %m: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  test.for %lb to %ub step %c1 {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : i32
    // May trap (division by zero, or MIN / -1): stays.
    %d = arith.divsi %a, %b : i32
    // Cannot trap: moves.
    %e = arith.divsi %a, %c3 : i32
    // A remainder by a constant that is neither 0 nor -1 cannot trap: moves.
    %r = arith.remsi %a, %c3 : i32
    %s = arith.addi %a, %b : i32
    // Reads memory: stays, and so does what uses it.
    %l = test.load %m[%lb] : memref<?xi32>
    // Its operand moved first: follows.
    %t = arith.muli %s, %s : i32
    %u = arith.addi %t, %l : i32
    // Uses the induction variable: stays.
    %x = arith.index_cast %i : index to i32
    test.store %u, %m[%i] : i32, memref<?xi32>
    test.store %d, %m[%i] : i32, memref<?xi32>
    test.store %e, %m[%i] : i32, memref<?xi32>
    test.store %x, %m[%i] : i32, memref<?xi32>
    test.store %r, %m[%i] : i32, memref<?xi32>
    test.yield
  }
  return
}

// -----

// A nest: what only the outer induction variable feeds leaves the inner loop; what
// nothing in the nest feeds leaves both.
// CHECK-LABEL: func.func @nest
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %sq = arith.muli %a, %a : i32
// CHECK-NEXT:    test.for %lb to %ub step %c1 {
// CHECK-NEXT:    ^bb0(%i: index):
// CHECK-NEXT:      %x = arith.index_cast %i : index to i32
// CHECK-NEXT:      %y = arith.addi %sq, %x : i32
// CHECK-NEXT:      test.for %lb to %ub step %c1 {
// CHECK-NEXT:      ^bb0(%j: index):
// CHECK-NEXT:        test.store %y, %m[%j]
// CHECK-NEXT:        test.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      test.yield
// CHECK-NEXT:    }
func.func @nest(%lb: index, %ub: index, %a: i32, %m: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  test.for %lb to %ub step %c1 {
  ^bb0(%i: index):
    test.for %lb to %ub step %c1 {
    ^bb0(%j: index):
      %sq = arith.muli %a, %a : i32
      %x = arith.index_cast %i : index to i32
      %y = arith.addi %sq, %x : i32
      test.store %y, %m[%j] : i32, memref<?xi32>
      test.yield
    }
    test.yield
  }
  return
}

// -----

// Ops with regions move only if everything inside qualifies. A loop with step 1
// always ends, so a pure one moves; with another step it might not end, so it stays.
// An `if` moves with pure regions, not with a store or a trapping division inside.
// CHECK-LABEL: func.func @regions
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %sum = test.for %lb to %ub step %c1 iter_args(%a : i32) {
// CHECK:         } -> i32
// CHECK-NEXT:    %pure_if = test.if %c {
// CHECK:         } -> i32
// CHECK-NEXT:    test.for %lb to %ub step %c1 {
// CHECK-NEXT:    ^bb0(%i: index):
// CHECK-NEXT:      %step2 = test.for %lb to %ub step %c2 iter_args(%a : i32) {
// CHECK:           } -> i32
// CHECK-NEXT:      %trap_if = test.if %c {
// CHECK-NEXT:        arith.divsi
// CHECK:           } -> i32
// CHECK-NEXT:      test.if %c {
// CHECK-NEXT:        test.store
// CHECK:           }
// CHECK-NEXT:      "foo.use"(%sum, %step2, %pure_if, %trap_if)
func.func @regions(%lb: index, %ub: index, %a: i32, %b: i32, %c: i1, %m: memref<?xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  test.for %lb to %ub step %c1 {
  ^bb0(%i: index):
    %sum = test.for %lb to %ub step %c1 iter_args(%a : i32) {
    ^bb1(%j: index, %acc: i32):
      %next = arith.addi %acc, %a : i32
      test.yield %next : i32
    } -> i32
    %step2 = test.for %lb to %ub step %c2 iter_args(%a : i32) {
    ^bb1(%j: index, %acc: i32):
      %next = arith.addi %acc, %a : i32
      test.yield %next : i32
    } -> i32
    %pure_if = test.if %c {
      %p = arith.muli %a, %b : i32
      test.yield %p : i32
    } else {
      test.yield %a : i32
    } -> i32
    %trap_if = test.if %c {
      %q = arith.divsi %a, %b : i32
      test.yield %q : i32
    } else {
      test.yield %a : i32
    } -> i32
    test.if %c {
      test.store %a, %m[%lb] : i32, memref<?xi32>
      test.yield
    }
    "foo.use"(%sum, %step2, %pure_if, %trap_if) : (i32, i32, i32, i32) -> ()
    test.yield
  }
  return
}

// -----

// Unknown effects stay (the op, and what uses its results); so do ops that use the
// loop-carried values.
// CHECK-LABEL: func.func @unknown_and_carried
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %k = arith.addi %a, %a : i32
// CHECK-NEXT:    %r = test.for %lb to %ub step %c1 iter_args(%a : i32) {
// CHECK-NEXT:    ^bb0(%i: index, %acc: i32):
// CHECK-NEXT:      %o = test.opaque %a : (i32) -> i32
// CHECK-NEXT:      %p = arith.addi %o, %k : i32
// CHECK-NEXT:      %n = arith.addi %acc, %p : i32
// CHECK-NEXT:      test.yield %n : i32
func.func @unknown_and_carried(%lb: index, %ub: index, %a: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %r = test.for %lb to %ub step %c1 iter_args(%a : i32) {
  ^bb0(%i: index, %acc: i32):
    %o = test.opaque %a : (i32) -> i32
    %k = arith.addi %a, %a : i32
    %p = arith.addi %o, %k : i32
    %n = arith.addi %acc, %p : i32
    test.yield %n : i32
  } -> i32
  return %r : i32
}
