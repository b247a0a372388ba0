// canonicalize folds vector.extract as MLIR does: of a splat constant to its value,
// and through a chain of inserts to the value inserted at its position (or past
// inserts at other positions to the first dest). The CHECK lines, written from
// mlir-opt-22's output, hold for it too.
// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// CHECK-LABEL: func.func @extract_folds(
// CHECK-SAME:      %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32, %[[V:[^:]*]]: vector<3xi32>)
// CHECK:         %[[C:.*]] = arith.constant 7 : i32
// CHECK:         %[[E:.*]] = vector.extract %[[V]][2] : i32 from vector<3xi32>
// CHECK:         return %[[C]], %[[Y]], %[[X]], %[[E]] : i32, i32, i32, i32
func.func @extract_folds(%x: i32, %y: i32, %v: vector<3xi32>) -> (i32, i32, i32, i32) {
  %splat = arith.constant dense<7> : vector<3xi32>
  %0 = vector.extract %splat[1] : i32 from vector<3xi32>
  %1 = vector.insert %x, %v [0] : i32 into vector<3xi32>
  %2 = vector.insert %y, %1 [1] : i32 into vector<3xi32>
  %3 = vector.extract %2[1] : i32 from vector<3xi32>
  %4 = vector.extract %2[0] : i32 from vector<3xi32>
  %5 = vector.extract %2[2] : i32 from vector<3xi32>
  return %0, %3, %4, %5 : i32, i32, i32, i32
}
