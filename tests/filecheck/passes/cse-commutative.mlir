// Regression (fixed): cse does not treat the operands of a commutative op as unordered:
// `arith.addi %arg0, %arg1` and `arith.addi %arg1, %arg0` are both kept.
// mlir-opt-22 --cse merges them (OperationEquivalence hashes and compares the
// operands of an op with the Commutative trait in sorted order), returning %0, %0.
// RUN: mlc-opt %s --cse | filecheck %s

// CHECK-LABEL: func.func @commutative(%arg0: i32, %arg1: i32)
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    return %[[A]], %[[A]] : i32, i32
func.func @commutative(%arg0: i32, %arg1: i32) -> (i32, i32) {
  %0 = arith.addi %arg0, %arg1 : i32
  %1 = arith.addi %arg1, %arg0 : i32
  return %0, %1 : i32, i32
}
