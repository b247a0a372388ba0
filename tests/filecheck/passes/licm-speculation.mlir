// loop-invariant-code-motion never hoists a division that may trap out of a loop that
// may run zero times: an integer division by a divisor that may be 0 (or, signed, -1:
// MIN / -1 overflows), of arith and of llvm alike, stays in the loop; one whose divisor
// is known (a constant of either dialect, a known range) moves. Issue 28: llvm.udiv and
// llvm.sdiv by 0 and by -1 used to move.
// RUN: mlc-opt %s --loop-invariant-code-motion --allow-unregistered-dialect | filecheck %s
//
// Interop: mlir-opt-22 leaves the same program, op for op.
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect --loop-invariant-code-motion --mlir-print-op-generic > %t.mlir %}
// RUN: %if mlir-opt %{ mlc-opt %s --allow-unregistered-dialect --loop-invariant-code-motion --print-op-generic | %mlir_opt --allow-unregistered-dialect --mlir-print-op-generic > %t.mlc %}
// RUN: %if mlir-opt %{ diff %t.mlc %t.mlir %}

// CHECK-LABEL: func.func @llvm_divisions
// CHECK:         %q7 = llvm.sdiv %x, %c7 : i32
// CHECK-NEXT:    %u7 = llvm.udiv %x, %c7 : i32
// CHECK-NEXT:    %um1 = llvm.udiv %x, %cm1 : i32
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %u0 = llvm.udiv %x, %c0 : i32
// CHECK-NEXT:      %s0 = llvm.sdiv %x, %c0 : i32
// CHECK-NEXT:      %sm1 = llvm.sdiv %x, %cm1 : i32
// CHECK-NEXT:      %uy = llvm.udiv exact %x, %y : i32
// CHECK-NEXT:      %sy = llvm.sdiv %x, %y : i32
// CHECK-NEXT:      "test.use"
func.func @llvm_divisions(%lb: index, %ub: index, %x: i32, %y: i32) {
  %c1 = arith.constant 1 : index
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %cm1 = llvm.mlir.constant(-1 : i32) : i32
  %c7 = llvm.mlir.constant(7 : i32) : i32
  scf.for %i = %lb to %ub step %c1 {
    %u0 = llvm.udiv %x, %c0 : i32
    %s0 = llvm.sdiv %x, %c0 : i32
    %sm1 = llvm.sdiv %x, %cm1 : i32
    %uy = llvm.udiv exact %x, %y : i32
    %sy = llvm.sdiv %x, %y : i32
    %q7 = llvm.sdiv %x, %c7 : i32
    %u7 = llvm.udiv %x, %c7 : i32
    // -1 is 2**32 - 1 unsigned: no trap.
    %um1 = llvm.udiv %x, %cm1 : i32
    "test.use"(%u0, %s0, %sm1, %uy, %sy, %q7, %u7, %um1) : (i32, i32, i32, i32, i32, i32, i32, i32) -> ()
  }
  return
}

// Vectors: a splat divisor is known; any other is not.
// CHECK-LABEL: func.func @vector_divisions
// CHECK:         %q = llvm.sdiv %x, %c3 : vector<2xi32>
// CHECK-NEXT:    %a = arith.divui %x, %c3 : vector<2xi32>
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %z = llvm.udiv %x, %c0 : vector<2xi32>
// CHECK-NEXT:      %b = arith.divsi %x, %cm1 : vector<2xi32>
func.func @vector_divisions(%lb: index, %ub: index, %x: vector<2xi32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant dense<0> : vector<2xi32>
  %c3 = arith.constant dense<3> : vector<2xi32>
  %cm1 = llvm.mlir.constant(dense<-1> : vector<2xi32>) : vector<2xi32>
  scf.for %i = %lb to %ub step %c1 {
    %z = llvm.udiv %x, %c0 : vector<2xi32>
    %q = llvm.sdiv %x, %c3 : vector<2xi32>
    %a = arith.divui %x, %c3 : vector<2xi32>
    %b = arith.divsi %x, %cm1 : vector<2xi32>
    "test.use"(%z, %q, %a, %b) : (vector<2xi32>, vector<2xi32>, vector<2xi32>, vector<2xi32>) -> ()
  }
  return
}

// A loop that may not run holding a division that may trap holding loop: neither moves
// (the inner scf.for is speculatable only if its body is).
// CHECK-LABEL: func.func @nested
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        llvm.udiv
func.func @nested(%lb: index, %ub: index, %x: i32, %y: i32) {
  %c1 = arith.constant 1 : index
  scf.for %i = %lb to %ub step %c1 {
    scf.for %j = %lb to %ub step %c1 {
      %d = llvm.udiv %x, %y : i32
      "test.use"(%d) : (i32) -> ()
    }
  }
  return
}

// What the divisor's defining op says of its range counts (MLIR's m_IntRange matchers).
// CHECK-LABEL: func.func @ranges
// CHECK:         %n = test.with_bounds
// CHECK-NEXT:    %p = test.with_bounds
// CHECK-NEXT:    %u = llvm.udiv %x, %n : i8
// CHECK-NEXT:    %s = arith.divsi %x, %n : i8
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %t = llvm.sdiv %x, %p : i8
func.func @ranges(%lb: index, %ub: index, %x: i8) {
  %c1 = arith.constant 1 : index
  %n = test.with_bounds {smax = -2 : i8, smin = -128 : i8, umax = 254 : i8, umin = 128 : i8} : i8
  %p = test.with_bounds {smax = -1 : i8, smin = -128 : i8, umax = 255 : i8, umin = 128 : i8} : i8
  scf.for %i = %lb to %ub step %c1 {
    %u = llvm.udiv %x, %n : i8
    %s = arith.divsi %x, %n : i8
    // May be -1.
    %t = llvm.sdiv %x, %p : i8
    "test.use"(%u, %s, %t) : (i8, i8, i8) -> ()
  }
  return
}
