// int-range-optimizations: the integer range analysis bounds every integer value;
// values whose range holds one value become constants (so a cmpi the ranges decide
// becomes true or false, and what only fed it dies), and a remainder whose dividend
// already lies in [0, modulus) is its dividend. test.with_bounds gives a value the
// bounds its attributes say; test.reflect_bounds writes what the analysis knows of
// its operand into its attributes. Loops and ifs are test.for and test.if (scf's).
// RUN: mlc-opt %s --int-range-optimizations --split-input-file | filecheck %s --check-prefixes=CHECK,MLC
//
//
// The CHECK lines hold for mlir-opt-22's pass too, on the program renamed to scf and
// memref (Inputs/test-to-mlir.sed); MLC lines are where mlc differs on purpose. (MLIR
// puts the constants it hoists before the others; mlc after them.)
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file --print-op-generic | sed -f %S/Inputs/test-to-mlir.sed | %mlir_opt --split-input-file --int-range-optimizations | filecheck %s --check-prefixes=CHECK,MLIR %}

// Clamped to [1, 3] and [2, 5]: the sum is in [3, 8], so both comparisons are true.
// CHECK-LABEL: func.func @clamped_sum
// CHECK-NEXT:    %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:    return %[[TRUE]], %[[TRUE]] : i1, i1
func.func @clamped_sum(%a: i32, %b: i32) -> (i1, i1) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c9 = arith.constant 9 : i32
  %0 = arith.maxsi %a, %c1 : i32
  %1 = arith.minsi %0, %c3 : i32
  %2 = arith.maxui %b, %c2 : i32
  %3 = arith.minui %2, %c5 : i32
  %sum = arith.addi %1, %3 : i32
  %lt = arith.cmpi slt, %sum, %c9 : i32
  %ge = arith.cmpi uge, %sum, %c3 : i32
  return %lt, %ge : i1, i1
}

// -----

// [0, 7] unsigned: `ne 8` holds in both readings; `slt 4` depends on the value.
// CHECK-LABEL: func.func @masked
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i8
// CHECK:         %[[M:.*]] = arith.andi
// CHECK-NEXT:    %[[MAYBE:.*]] = arith.cmpi slt, %[[M]], %[[C4]] : i8
// CHECK-NEXT:    return %[[TRUE]], %[[MAYBE]] : i1, i1
func.func @masked(%a: i8) -> (i1, i1) {
  %c4 = arith.constant 4 : i8
  %c7 = arith.constant 7 : i8
  %c8 = arith.constant 8 : i8
  %m = arith.andi %a, %c7 : i8
  %ne = arith.cmpi ne, %m, %c8 : i8
  %maybe = arith.cmpi slt, %m, %c4 : i8
  return %ne, %maybe : i1, i1
}

// -----

// A value the analysis proves constant becomes that constant.
// The constant comes from the dialect of the op defining the value: test's for a
// test op (as in MLIR), arith's for an arith op.
// CHECK-LABEL: func.func @constant_range
// CHECK-DAG:     %[[C3:.*]] = "test.constant"() <{value = 3 : index}> : () -> index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:    return %[[C6]], %[[C3]] : index, index
func.func @constant_range() -> (index, index) {
  %c2 = arith.constant 2 : index
  %b = test.with_bounds {umin = 3 : index, umax = 3 : index, smin = 3 : index, smax = 3 : index} : index
  %r = arith.muli %b, %c2 : index
  return %r, %b : index, index
}

// -----

// remsi/remui by a positive constant go when the dividend is already in [0, c).
// CHECK-LABEL: func.func @trivial_remainders
// CHECK:         %[[SMALL:.*]] = test.with_bounds
// CHECK-NEXT:    %[[WIDE:.*]] = test.with_bounds
// CHECK-NEXT:    %[[KEPT:.*]] = arith.remui %[[WIDE]], %{{.*}} : i16
// CHECK-NEXT:    return %[[SMALL]], %[[SMALL]], %[[KEPT]] : i16, i16, i16
func.func @trivial_remainders() -> (i16, i16, i16) {
  %c10 = arith.constant 10 : i16
  %small = test.with_bounds {umin = 0 : i16, umax = 9 : i16, smin = 0 : i16, smax = 9 : i16} : i16
  %wide = test.with_bounds {umin = 5 : i16, umax = 10 : i16, smin = 5 : i16, smax = 10 : i16} : i16
  %s = arith.remsi %small, %c10 : i16
  %u = arith.remui %small, %c10 : i16
  %kept = arith.remui %wide, %c10 : i16
  return %s, %u, %kept : i16, i16, i16
}

// -----

// What the analysis knows, written out: [10, 20] * 10 wraps in i8's signed reading
// without flags, stays in [100, 127] under nsw (an overflow would be poison); [10, 20]
// shifted left by 2 is [40, 80] both ways.
// CHECK-LABEL: func.func @reflected
// CHECK:         test.reflect_bounds {smax = 127 : si8, smin = -128 : si8, umax = 200 : ui8, umin = 100 : ui8}
// CHECK:         test.reflect_bounds {smax = 127 : si8, smin = 100 : si8, umax = 127 : ui8, umin = 100 : ui8}
// CHECK:         test.reflect_bounds {smax = 80 : si8, smin = 40 : si8, umax = 80 : ui8, umin = 40 : ui8}
// CHECK:         test.reflect_bounds {smax = 2 : si8, smin = -2 : si8, umax = 255 : ui8, umin = 0 : ui8}
func.func @reflected(%x: i8) -> (i8, i8, i8, i8) {
  %c2 = arith.constant 2 : i8
  %c3 = arith.constant 3 : i8
  %c10 = arith.constant 10 : i8
  %a = test.with_bounds {umin = 10 : i8, umax = 20 : i8, smin = 10 : i8, smax = 20 : i8} : i8
  %wrap = arith.muli %a, %c10 : i8
  %nsw = arith.muli %a, %c10 overflow<nsw> : i8
  %shl = arith.shli %a, %c2 : i8
  %rem = arith.remsi %x, %c3 : i8
  %0 = test.reflect_bounds %wrap : i8
  %1 = test.reflect_bounds %nsw : i8
  %2 = test.reflect_bounds %shl : i8
  %3 = test.reflect_bounds %rem : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----

// A loop's induction variable lies in [lower, upper - 1]: the comparison inside is
// true. The sum carried around the loop grows at each trip, so the analysis gives up
// on it: the comparison after the loop stays.
// CHECK-LABEL: func.func @loop
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         %[[SUM:.*]] = {{test|scf}}.for
// CHECK-NOT:       arith.cmpi
// CHECK:           {{test|memref}}.store %[[TRUE]]
// CHECK:         }
// CHECK-NEXT:    %[[SMALL:.*]] = arith.cmpi ult, %[[SUM]], %{{.*}} : index
// CHECK-NEXT:    return %[[SMALL]]
func.func @loop(%m: memref<?xi1>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c100 = arith.constant 100 : index
  %sum = test.for %c0 to %c8 step %c1 iter_args(%c0 : index) {
  ^bb0(%i: index, %acc: index):
    %in = arith.cmpi ult, %i, %c8 : index
    test.store %in, %m[%i] : i1, memref<?xi1>
    %next = arith.addi %acc, %i : index
    test.yield %next : index
  } -> index
  %small = arith.cmpi ult, %sum, %c100 : index
  return %small : i1
}

// -----

// A value carried unchanged around a loop keeps its range: the block argument
// becomes a constant (made by the loop's dialect: test.constant for test.for), and so
// does the loop's result.
// CHECK-LABEL: func.func @loop_invariant_carry
// CHECK:         {{test|scf}}.for
// CHECK:           {{test|memref}}.store %[[K:[^,]*]],
// CHECK-NEXT:      {{test|scf}}.yield %[[K]] : index
// CHECK:         return %[[K]] : index
func.func @loop_invariant_carry(%n: index, %m: memref<?xindex>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = test.for %c0 to %n step %c1 iter_args(%c5 : index) {
  ^bb0(%i: index, %carried: index):
    test.store %carried, %m[%i] : index, memref<?xindex>
    test.yield %carried : index
  } -> index
  return %r : index
}

// -----

// The result of an if joins its branches: [0, 16] or [-4, 0] is [-4, 16].
// CHECK-LABEL: func.func @if_join
// CHECK-NEXT:    %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:    return %[[TRUE]] : i1
func.func @if_join(%a: index, %c: i1) -> i1 {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %cm1 = arith.constant -1 : index
  %cm4 = arith.constant -4 : index
  %0 = arith.minui %a, %c4 : index
  %1 = test.if %c {
    %sq = arith.muli %0, %0 : index
    test.yield %sq : index
  } else {
    %neg = arith.muli %0, %cm1 : index
    test.yield %neg : index
  } -> index
  %le = arith.cmpi sle, %1, %c16 : index
  %ge = arith.cmpi sge, %1, %cm4 : index
  %both = arith.andi %le, %ge : i1
  return %both : i1
}

// -----

// Vectors: a range holds for every element; a constant range becomes a splat. The
// maximum with [1, 2] is at least 1 everywhere; whether it is 2 depends on the element.
// CHECK-LABEL: func.func @vectors
// CHECK:         %[[TRUE:.*]] = arith.constant dense<true> : vector<2xi1>
// CHECK:         %[[MAYBE:.*]] = arith.cmpi eq
// CHECK-NEXT:    return %[[TRUE]], %[[MAYBE]] : vector<2xi1>, vector<2xi1>
func.func @vectors(%v: vector<2xi32>) -> (vector<2xi1>, vector<2xi1>) {
  %lo = arith.constant dense<[1, 2]> : vector<2xi32>
  %one = arith.constant dense<1> : vector<2xi32>
  %two = arith.constant dense<2> : vector<2xi32>
  %0 = arith.maxsi %v, %lo : vector<2xi32>
  %1 = arith.cmpi sge, %0, %one : vector<2xi32>
  %2 = arith.cmpi eq, %0, %two : vector<2xi32>
  return %1, %2 : vector<2xi1>, vector<2xi1>
}

// -----

// A call may return anything; floats have no range.
// CHECK-LABEL: func.func @unknowns
// CHECK:         %[[R:.*]] = call @external() : () -> i32
// CHECK-NEXT:    %[[POS:.*]] = arith.cmpi sgt, %[[R]], %{{.*}} : i32
// CHECK-NEXT:    %[[F:.*]] = arith.cmpf
// CHECK-NEXT:    return %[[POS]], %[[F]]
func.func private @external() -> i32

func.func @unknowns(%x: f32, %y: f32) -> (i1, i1) {
  %c0 = arith.constant 0 : i32
  %r = call @external() : () -> i32
  %pos = arith.cmpi sgt, %r, %c0 : i32
  %f = arith.cmpf olt, %x, %y : f32
  return %pos, %f : i1, i1
}

// -----

// Block arguments join what the branches to them pass: [0, 16] or [-4, 0].
// CHECK-LABEL: func.func @branch_join
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK-NOT:     arith.cmpi
// CHECK:         return %[[TRUE]] : i1
func.func @branch_join(%a: index, %c: i1) -> i1 {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %cm1 = arith.constant -1 : index
  %cm4 = arith.constant -4 : index
  %0 = arith.minui %a, %c4 : index
  cf.cond_br %c, ^square, ^negate
^square:
  %sq = arith.muli %0, %0 : index
  cf.br ^join(%sq : index)
^negate:
  %neg = arith.muli %0, %cm1 : index
  cf.br ^join(%neg : index)
^join(%j: index):
  %le = arith.cmpi sle, %j, %c16 : index
  %ge = arith.cmpi sge, %j, %cm4 : index
  %both = arith.andi %le, %ge : i1
  return %both : i1
}

// -----

// A loop made of branches: the counter's increment grows at each trip, so it is
// widened to anything at once, and the counter after the loop is not bounded.
// CHECK-LABEL: func.func @branch_loop
// CHECK:         cf.cond_br
// CHECK:         %[[GE:.*]] = arith.cmpi sge
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt
// CHECK-NEXT:    %[[BOTH:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT:    return %[[BOTH]] : i1
func.func @branch_loop() -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  cf.br ^head(%c0 : index)
^body(%i: index):
  %next = arith.addi %i, %c1 : index
  cf.br ^head(%next : index)
^head(%k: index):
  %more = arith.cmpi ult, %k, %c4 : index
  cf.cond_br %more, ^body(%k : index), ^exit(%k : index)
^exit(%e: index):
  %ge = arith.cmpi sge, %e, %c0 : index
  %lt = arith.cmpi slt, %e, %c4 : index
  %both = arith.andi %ge, %lt : i1
  return %both : i1
}

// -----

// Decided for every element of a tensor of dynamic shape: no constant has that type,
// so the comparison stays (MLIR makes `arith.constant dense<true> : tensor<?xi1>`,
// which its verifier rejects when read back).
// CHECK-LABEL: func.func @dynamic_shape
// MLC:           %[[LE:.*]] = arith.cmpi sle
// MLC-NEXT:      return %[[LE]]
// MLIR:          arith.constant dense<true> : tensor<?xi1>
func.func @dynamic_shape(%b: tensor<?xi1>) -> tensor<?xi1> {
  %m = arith.extsi %b : tensor<?xi1> to tensor<?xi8>
  %p = arith.extui %b : tensor<?xi1> to tensor<?xi8>
  %le = arith.cmpi sle, %m, %p : tensor<?xi8>
  return %le : tensor<?xi1>
}
