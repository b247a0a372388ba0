// Values with no name of their own print as mlir-opt-22 names them: arith.constant's
// results as %true/%false, %c42 (index), %c0_i32, %cst; a name taken already gets the
// next suffix of one counter shared by all names (%c0_i32_0, then %cst_1), restarting
// in each function. Names the input gave are kept.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR %}

// CHECK-LABEL: func.func @f(
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c-1_i32 = arith.constant -1 : i32
// CHECK-NEXT:    %c0_i32_0 = arith.constant 0 : i32
// CHECK-NEXT:    %c42 = arith.constant 42 : index
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %cst_1 = arith.constant dense<1> : tensor<2xi32>
// CHECK-NEXT:    %0 = "foo.op"() ({
// CHECK-NEXT:      %c0_i32_2 = arith.constant 0 : i32
// CHECK-NEXT:      %mine = arith.constant 0 : i32
// CHECK:         return %c0_i32, %c-1_i32, %c0_i32_0, %c42, %true, %false, %cst, %cst_1, %0
// CHECK-LABEL: func.func @g(
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// MLIR: %c0_i32_2 = arith.constant 0 : i32
func.func @f() -> (i32, i32, i32, index, i1, i1, f32, tensor<2xi32>, i32) {
  %0 = arith.constant 0 : i32
  %1 = arith.constant -1 : i32
  %2 = arith.constant 0 : i32
  %3 = arith.constant 42 : index
  %4 = arith.constant true
  %5 = arith.constant false
  %6 = arith.constant 1.0 : f32
  %7 = arith.constant dense<1> : tensor<2xi32>
  %8 = "foo.op"() ({
    %9 = arith.constant 0 : i32
    %mine = arith.constant 0 : i32
    "foo.yield"() : () -> ()
  }) : () -> i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, index, i1, i1, f32, tensor<2xi32>, i32
}
func.func @g() -> i32 {
  %0 = arith.constant 0 : i32
  return %0 : i32
}
