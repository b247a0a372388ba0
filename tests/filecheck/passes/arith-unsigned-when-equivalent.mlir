// arith-unsigned-when-equivalent: divsi, ceildivsi, floordivsi, remsi, minsi, maxsi and
// extsi become divui, ceildivui, divui, remui, minui, maxui and extui, and a signed
// cmpi the unsigned one, when the range analysis proves every operand and result
// non-negative (both readings then agree).
// RUN: mlc-opt %s --arith-unsigned-when-equivalent --split-input-file | filecheck %s
// The CHECK lines hold for mlir-opt-22's pass too (loops renamed to scf):
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file --print-op-generic | sed -f %S/Inputs/test-to-mlir.sed | %mlir_opt --split-input-file --arith-unsigned-when-equivalent | filecheck %s %}

// x in [0, 2**31 - 2], so x + 1 is positive.
// CHECK-LABEL: func.func @non_negative
// CHECK:         arith.divui
// CHECK-NEXT:    arith.ceildivui
// CHECK-NEXT:    arith.divui
// CHECK-NEXT:    arith.remui
// CHECK-NEXT:    arith.minui
// CHECK-NEXT:    arith.maxui
// CHECK-NEXT:    arith.extui
// CHECK-NEXT:    arith.cmpi ule
// CHECK-NEXT:    arith.cmpi ugt
// CHECK-NEXT:    arith.cmpi eq
func.func @non_negative(%a: i32) -> (i32, i32, i32, i32, i32, i32, i64, i1, i1, i1) {
  %below_max = arith.constant 2147483646 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %x = arith.minui %a, %below_max : i32
  %y = arith.addi %x, %c1 : i32
  %0 = arith.divsi %y, %c3 : i32
  %1 = arith.ceildivsi %y, %c3 : i32
  %2 = arith.floordivsi %y, %c3 : i32
  %3 = arith.remsi %y, %c3 : i32
  %4 = arith.minsi %y, %c3 : i32
  %5 = arith.maxsi %y, %c3 : i32
  %6 = arith.extsi %y : i32 to i64
  %7 = arith.cmpi sle, %y, %c3 : i32
  %8 = arith.cmpi sgt, %y, %c3 : i32
  %9 = arith.cmpi eq, %y, %c3 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i32, i64, i1, i1, i1
}

// -----

// x in [0, 2**31 - 1]: x + 1 may wrap to MIN. Nothing changes.
// CHECK-LABEL: func.func @may_be_negative
// CHECK:         arith.divsi
// CHECK-NEXT:    arith.minsi
// CHECK-NEXT:    arith.extsi
// CHECK-NEXT:    arith.cmpi slt
func.func @may_be_negative(%a: i32) -> (i32, i32, i64, i1) {
  %max = arith.constant 2147483647 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %x = arith.minui %a, %max : i32
  %y = arith.addi %x, %c1 : i32
  %0 = arith.divsi %y, %c3 : i32
  %1 = arith.minsi %y, %c3 : i32
  %2 = arith.extsi %y : i32 to i64
  %3 = arith.cmpi slt, %y, %c3 : i32
  return %0, %1, %2, %3 : i32, i32, i64, i1
}

// -----

// Inside a loop from 0: the induction variable is non-negative, and so is its
// remainder. The remui replacing the remsi is new: as in MLIR, the analysis is not
// run again, so the comparison of its result stays signed. A function's argument
// may be anything.
// CHECK-LABEL: func.func @in_a_loop
// CHECK:         arith.remui
// CHECK-NEXT:    arith.cmpi slt
// CHECK-NEXT:    arith.cmpi ugt
// CHECK:         arith.divsi %{{.*}}, %{{.*}} : index
func.func @in_a_loop(%n: index, %m: memref<?xi1>, %z: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  test.for %c0 to %n step %c1 {
  ^bb0(%i: index):
    %r = arith.remsi %i, %c4 : index
    %small = arith.cmpi slt, %r, %c1 : index
    %past = arith.cmpi sgt, %i, %c4 : index
    test.store %small, %m[%i] : i1, memref<?xi1>
    test.store %past, %m[%i] : i1, memref<?xi1>
    test.yield
  }
  %q = arith.divsi %z, %c4 : index
  return %q : index
}
