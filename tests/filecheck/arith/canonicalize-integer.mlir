// arith's integer folds and patterns on the shifts, the extrema, the rounding and the
// exact divisions and the extended ops: constants fold as MLIR folds them (with
// wrap-around; never where the result is poison or undefined), identities give an
// operand, and an unused carry or high half turns the op into addi or muli.
// The CHECK lines, written from mlir-opt-22's output, hold for it too; MLC lines are
// where mlc differs on purpose.
// RUN: mlc-opt %s --canonicalize | filecheck %s --check-prefixes=CHECK,MLC
// A second run changes nothing:
// RUN: mlc-opt %s --canonicalize | mlc-opt --canonicalize | filecheck %s --check-prefixes=CHECK,MLC
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// Shifts of constants: wrap-around, the sign copied by shrsi; shifts by the bit
// width or more (8, and 255 read as unsigned; 1 for i1) are poison and stay. The
// exact and nsw flags do not change what folds.
// CHECK-LABEL: func.func @shifts(
// CHECK-DAG: %[[CM32768_I16:.*]] = arith.constant -32768 : i16
// CHECK-DAG: %[[C3_I8:.*]] = arith.constant 3 : i8
// CHECK-DAG: %[[C8_I8:.*]] = arith.constant 8 : i8
// CHECK-DAG: %[[CM1_I8:.*]] = arith.constant -1 : i8
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[CM128_I8:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[C16_I8:.*]] = arith.constant 16 : i8
// CHECK: %[[SHLI:.*]] = arith.shli %[[C3_I8]], %[[C8_I8]] : i8
// CHECK: %[[SHRSI:.*]] = arith.shrsi %[[C3_I8]], %[[CM1_I8]] : i8
// CHECK: %[[SHLI2:.*]] = arith.shli %[[TRUE]], %[[TRUE]] : i1
// CHECK: return %[[CM128_I8]], %[[C16_I8]], %[[CM1_I8]], %[[SHLI]], %[[SHRSI]], %[[C16_I8]], %[[CM32768_I16]], %[[SHLI2]] : i8, i8, i8, i8, i8, i8, i16, i1
func.func @shifts() -> (i8, i8, i8, i8, i8, i8, i16, i1) {
  %c-128_i8 = arith.constant -128 : i8
  %c3_i8 = arith.constant 3 : i8
  %c7_i8 = arith.constant 7 : i8
  %c8_i8 = arith.constant 8 : i8
  %c-1_i8 = arith.constant -1 : i8
  %c1_i16 = arith.constant 1 : i16
  %c15_i16 = arith.constant 15 : i16
  %true = arith.constant true
  %0 = arith.shli %c3_i8, %c7_i8 : i8
  %1 = arith.shrui %c-128_i8, %c3_i8 : i8
  %2 = arith.shrsi %c-128_i8, %c7_i8 : i8
  %3 = arith.shli %c3_i8, %c8_i8 : i8
  %4 = arith.shrsi %c3_i8, %c-1_i8 : i8
  %5 = arith.shrui %c-128_i8, %c3_i8 exact : i8
  %6 = arith.shli %c1_i16, %c15_i16 overflow<nsw> : i16
  %7 = arith.shli %true, %true : i1
  return %0, %1, %2, %3, %4, %5, %6, %7 : i8, i8, i8, i8, i8, i8, i16, i1
}

// Dense shift amounts: one element by the bit width or more makes that element
// poison, and the shift is not folded. (mlir-opt-22's folder looks at the last
// element's amount only: it folds [40, 1] << [40, 1] to [0, 2], and leaves
// [1, 40] << [1, 40].)
// MLC-LABEL: func.func @dense_shift_out_of_range(
// MLC: %[[CST:.*]] = arith.constant dense<[40, 1]> : vector<2xi32>
// MLC: %[[SHLI:.*]] = arith.shli %[[CST]], %[[CST]] : vector<2xi32>
// MLC: return %[[SHLI]] : vector<2xi32>
func.func @dense_shift_out_of_range() -> vector<2xi32> {
  %cst = arith.constant dense<[40, 1]> : vector<2xi32>
  %0 = arith.shli %cst, %cst : vector<2xi32>
  return %0 : vector<2xi32>
}

// A shift by zero is its lhs, splats too.
// CHECK-LABEL: func.func @shift_identities(
// CHECK: return %arg0, %arg0, %arg0, %arg1 : i32, i32, i32, vector<4xi32>
func.func @shift_identities(%arg0: i32, %arg1: vector<4xi32>) -> (i32, i32, i32, vector<4xi32>) {
  %c0_i32 = arith.constant 0 : i32
  %cst = arith.constant dense<0> : vector<4xi32>
  %0 = arith.shli %arg0, %c0_i32 : i32
  %1 = arith.shrui %arg0, %c0_i32 exact : i32
  %2 = arith.shrsi %arg0, %c0_i32 : i32
  %3 = arith.shrsi %arg1, %cst : vector<4xi32>
  return %0, %1, %2, %3 : i32, i32, i32, vector<4xi32>
}

// Signed and unsigned extrema of constants; i1's true is -1 signed.
// CHECK-LABEL: func.func @extrema(
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[C1_I8:.*]] = arith.constant 1 : i8
// CHECK-DAG: %[[CM1_I8:.*]] = arith.constant -1 : i8
// CHECK: return %[[C1_I8]], %[[CM1_I8]], %[[CM1_I8]], %[[C1_I8]], %[[FALSE]], %[[TRUE]], %[[TRUE]], %[[FALSE]] : i8, i8, i8, i8, i1, i1, i1, i1
func.func @extrema() -> (i8, i8, i8, i8, i1, i1, i1, i1) {
  %c-1_i8 = arith.constant -1 : i8
  %c1_i8 = arith.constant 1 : i8
  %true = arith.constant true
  %false = arith.constant false
  %0 = arith.maxsi %c-1_i8, %c1_i8 : i8
  %1 = arith.maxui %c-1_i8, %c1_i8 : i8
  %2 = arith.minsi %c-1_i8, %c1_i8 : i8
  %3 = arith.minui %c-1_i8, %c1_i8 : i8
  %4 = arith.maxsi %true, %false : i1
  %5 = arith.maxui %true, %false : i1
  %6 = arith.minsi %true, %false : i1
  %7 = arith.minui %true, %false : i1
  return %0, %1, %2, %3, %4, %5, %6, %7 : i8, i8, i8, i8, i1, i1, i1, i1
}

// With the extreme value of the comparison, max/min give it or the other operand,
// whichever side it is on; of an operand and itself, the operand.
// CHECK-LABEL: func.func @extrema_identities(
// CHECK-DAG: %[[C32767_I16:.*]] = arith.constant 32767 : i16
// CHECK-DAG: %[[CM32768_I16:.*]] = arith.constant -32768 : i16
// CHECK-DAG: %[[C0_I16:.*]] = arith.constant 0 : i16
// CHECK-DAG: %[[CM1_I16:.*]] = arith.constant -1 : i16
// CHECK: return %[[C32767_I16]], %arg0, %[[CM32768_I16]], %arg0, %[[CM1_I16]], %arg0, %[[C0_I16]], %arg0, %arg0 : i16, i16, i16, i16, i16, i16, i16, i16, i16
func.func @extrema_identities(%arg0: i16, %arg1: i16) -> (i16, i16, i16, i16, i16, i16, i16, i16, i16) {
  %c32767_i16 = arith.constant 32767 : i16
  %c-32768_i16 = arith.constant -32768 : i16
  %c0_i16 = arith.constant 0 : i16
  %c-1_i16 = arith.constant -1 : i16
  %0 = arith.maxsi %arg0, %c32767_i16 : i16
  %1 = arith.maxsi %arg0, %c-32768_i16 : i16
  %2 = arith.minsi %arg0, %c-32768_i16 : i16
  %3 = arith.minsi %c32767_i16, %arg0 : i16
  %4 = arith.maxui %arg0, %c-1_i16 : i16
  %5 = arith.maxui %arg0, %c0_i16 : i16
  %6 = arith.minui %c0_i16, %arg0 : i16
  %7 = arith.minui %arg0, %c-1_i16 : i16
  %8 = arith.maxsi %arg0, %arg0 : i16
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i16, i16, i16, i16, i16, i16, i16, i16, i16
}

// Rounding divisions of constants (-7 / 2 and 7 / -2 both ways); by zero, MIN / -1,
// and a ceildivsi of MIN (which MLIR's folder leaves) stay. exact does not stop a
// fold.
// CHECK-LABEL: func.func @divisions(
// CHECK-DAG: %[[C124_I8:.*]] = arith.constant 124 : i8
// CHECK-DAG: %[[C3_I8:.*]] = arith.constant 3 : i8
// CHECK-DAG: %[[C7_I8:.*]] = arith.constant 7 : i8
// CHECK-DAG: %[[C2_I8:.*]] = arith.constant 2 : i8
// CHECK-DAG: %[[C0_I8:.*]] = arith.constant 0 : i8
// CHECK-DAG: %[[CM1_I8:.*]] = arith.constant -1 : i8
// CHECK-DAG: %[[CM128_I8:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[CM3_I8:.*]] = arith.constant -3 : i8
// CHECK-DAG: %[[C4_I8:.*]] = arith.constant 4 : i8
// CHECK-DAG: %[[C125_I8:.*]] = arith.constant 125 : i8
// CHECK-DAG: %[[CM4_I8:.*]] = arith.constant -4 : i8
// CHECK: %[[CEILDIVSI:.*]] = arith.ceildivsi %[[C7_I8]], %[[C0_I8]] : i8
// CHECK: %[[FLOORDIVSI:.*]] = arith.floordivsi %[[CM128_I8]], %[[CM1_I8]] : i8
// CHECK: %[[CEILDIVSI2:.*]] = arith.ceildivsi %[[CM128_I8]], %[[C2_I8]] : i8
// CHECK: %[[CEILDIVUI:.*]] = arith.ceildivui %[[C7_I8]], %[[C0_I8]] : i8
// CHECK: return %[[CM3_I8]], %[[C4_I8]], %[[C125_I8]], %[[CM4_I8]], %[[CM4_I8]], %[[CEILDIVSI]], %[[FLOORDIVSI]], %[[CEILDIVSI2]], %[[CEILDIVUI]], %[[C3_I8]], %[[C124_I8]] : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8
func.func @divisions() -> (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8) {
  %c7_i8 = arith.constant 7 : i8
  %c-7_i8 = arith.constant -7 : i8
  %c2_i8 = arith.constant 2 : i8
  %c-2_i8 = arith.constant -2 : i8
  %c0_i8 = arith.constant 0 : i8
  %c-1_i8 = arith.constant -1 : i8
  %c-128_i8 = arith.constant -128 : i8
  %0 = arith.ceildivsi %c7_i8, %c-2_i8 : i8
  %1 = arith.ceildivsi %c-7_i8, %c-2_i8 : i8
  %2 = arith.ceildivui %c-7_i8, %c2_i8 : i8
  %3 = arith.floordivsi %c7_i8, %c-2_i8 : i8
  %4 = arith.floordivsi %c-7_i8, %c2_i8 : i8
  %5 = arith.ceildivsi %c7_i8, %c0_i8 : i8
  %6 = arith.floordivsi %c-128_i8, %c-1_i8 : i8
  %7 = arith.ceildivsi %c-128_i8, %c2_i8 : i8
  %8 = arith.ceildivui %c7_i8, %c0_i8 : i8
  %9 = arith.divsi %c7_i8, %c2_i8 exact : i8
  %10 = arith.divui %c-7_i8, %c2_i8 exact : i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8
}

// By one, the dividend; (a * b) / b is a when the product has the division's flag
// (nsw for divsi, nuw for divui), and not otherwise.
// CHECK-LABEL: func.func @division_identities(
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg1 : i32, i32, i32, i32, i32
func.func @division_identities(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i32, i32) {
  %c1_i32 = arith.constant 1 : i32
  %0 = arith.ceildivsi %arg0, %c1_i32 : i32
  %1 = arith.ceildivui %arg0, %c1_i32 : i32
  %2 = arith.floordivsi %arg0, %c1_i32 : i32
  %3 = arith.muli %arg0, %arg1 overflow<nsw> : i32
  %4 = arith.divsi %3, %arg1 : i32
  %5 = arith.muli %arg0, %arg1 overflow<nuw> : i32
  %6 = arith.divui %5, %arg0 exact : i32
  %7 = arith.divui %3, %arg1 : i32
  return %0, %1, %2, %4, %6 : i32, i32, i32, i32, i32
}

// The extended ops of constants: the wrapped sum and its carry, both halves of the
// signed and unsigned products, dense operands elementwise.
// CHECK-LABEL: func.func @extended(
// CHECK-DAG: %[[C99_I8:.*]] = arith.constant 99 : i8
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[CM16_I8:.*]] = arith.constant -16 : i8
// CHECK-DAG: %[[CM40_I8:.*]] = arith.constant -40 : i8
// CHECK-DAG: %[[C60_I8:.*]] = arith.constant 60 : i8
// CHECK-DAG: %[[CST:.*]] = arith.constant dense<[-2, 2]> : vector<2xi8>
// CHECK-DAG: %[[CST2:.*]] = arith.constant dense<[true, false]> : vector<2xi1>
// CHECK: return %[[C99_I8]], %[[TRUE]], %[[CM16_I8]], %[[CM40_I8]], %[[CM16_I8]], %[[C60_I8]], %[[CST]], %[[CST2]] : i8, i1, i8, i8, i8, i8, vector<2xi8>, vector<2xi1>
func.func @extended() -> (i8, i1, i8, i8, i8, i8, vector<2xi8>, vector<2xi1>) {
  %c-1_i8 = arith.constant -1 : i8
  %c100_i8 = arith.constant 100 : i8
  %c-100_i8 = arith.constant -100 : i8
  %cst = arith.constant dense<[-1, 1]> : vector<2xi8>
  %sum, %overflow = arith.addui_extended %c-1_i8, %c100_i8 : i8, i1
  %low, %high = arith.mulsi_extended %c100_i8, %c-100_i8 : i8
  %low_0, %high_1 = arith.mului_extended %c100_i8, %c-100_i8 : i8
  %sum_2, %overflow_3 = arith.addui_extended %cst, %cst : vector<2xi8>, vector<2xi1>
  return %sum, %overflow, %low, %high, %low_0, %high_1, %sum_2, %overflow_3 : i8, i1, i8, i8, i8, i8, vector<2xi8>, vector<2xi1>
}

// + 0 has no carry, * 0 is 0 in both halves, unsigned * 1 has a zero high half,
// signed * 1 has the sign of x as its high half (MulSIExtendedRHSOne).
// CHECK-LABEL: func.func @extended_identities(
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK: %[[CMPI:.*]] = arith.cmpi slt, %arg0, %[[C0_I32]] : i32
// CHECK: %[[EXTSI:.*]] = arith.extsi %[[CMPI]] : i1 to i32
// CHECK: return %arg0, %[[FALSE]], %[[C0_I32]], %[[C0_I32]], %arg0, %[[C0_I32]], %arg0, %[[EXTSI]] : i32, i1, i32, i32, i32, i32, i32, i32
func.func @extended_identities(%arg0: i32, %arg1: i32) -> (i32, i1, i32, i32, i32, i32, i32, i32) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %sum, %overflow = arith.addui_extended %arg0, %c0_i32 : i32, i1
  %low, %high = arith.mulsi_extended %arg0, %c0_i32 : i32
  %low_0, %high_1 = arith.mului_extended %arg0, %c1_i32 : i32
  %low_2, %high_3 = arith.mulsi_extended %arg0, %c1_i32 : i32
  return %sum, %overflow, %low, %high, %low_0, %high_1, %low_2, %high_3 : i32, i1, i32, i32, i32, i32, i32, i32
}

// An unused carry or high half: the op becomes addi or muli (AddUIExtendedToAddI,
// MulSIExtendedToMulI, MulUIExtendedToMulI); a used one stays.
// CHECK-LABEL: func.func @extended_halves(
// CHECK: %[[ADDI:.*]] = arith.addi %arg0, %arg1 : i32
// CHECK: %[[MULI:.*]] = arith.muli %arg0, %arg1 : i32
// CHECK: %[[MULI2:.*]] = arith.muli %arg0, %arg1 : i32
// CHECK: %[[SUM:.*]], %[[CARRY:.*]] = arith.addui_extended %arg1, %arg0 : i32, i1
// CHECK: return %[[ADDI]], %[[MULI]], %[[MULI2]], %[[CARRY]] : i32, i32, i32, i1
func.func @extended_halves(%arg0: i32, %arg1: i32) -> (i32, i32, i32, i1) {
  %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
  %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
  %low_0, %high_1 = arith.mului_extended %arg0, %arg1 : i32
  %sum_2, %overflow_3 = arith.addui_extended %arg1, %arg0 : i32, i1
  return %sum, %low, %low_0, %overflow_3 : i32, i32, i32, i1
}
