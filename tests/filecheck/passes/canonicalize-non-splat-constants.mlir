// Regression (fixed): canonicalize folds binary ops on scalar and splat constants only: an op on
// two non-splat dense constants stays, e.g.
//   %2 = arith.muli %a, %b : vector<2xi32>   (dense<[1, 2]> * dense<[3, 4]>)
// mlir-opt-22 --canonicalize folds elementwise, to dense<[3, 8]> and
// dense<[2, 4]>, leaving no arith op but the two constants.
// RUN: mlc-opt %s --canonicalize | filecheck %s

// CHECK-LABEL: func.func @non_splat()
// CHECK-DAG:     %[[V:.*]] = arith.constant dense<[3, 8]> : vector<2xi32>
// CHECK-DAG:     %[[T:.*]] = arith.constant dense<[2, 4]> : tensor<2xi32>
// CHECK-NOT:     arith.muli
// CHECK-NOT:     arith.addi
// CHECK:         return %[[V]], %[[T]] : vector<2xi32>, tensor<2xi32>
func.func @non_splat() -> (vector<2xi32>, tensor<2xi32>) {
  %a = arith.constant dense<[1, 2]> : vector<2xi32>
  %b = arith.constant dense<[3, 4]> : vector<2xi32>
  %0 = arith.muli %a, %b : vector<2xi32>
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  %1 = arith.addi %c, %c : tensor<2xi32>
  return %0, %1 : vector<2xi32>, tensor<2xi32>
}
