// A comparison's i1 result has its operands' shape, scalable dims and unranked
// tensors included (both were rejected as mismatched types); as mlir-opt-22 reads it.
// RUN: mlc-opt %s | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}

// CHECK-LABEL: func.func @shapes(
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : vector<[8]xi64>
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<4x[2]xf32>
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : tensor<*xi64>
func.func @shapes(%a: vector<[8]xi64>, %f: vector<4x[2]xf32>, %t: tensor<*xi64>) -> (vector<[8]xi1>, vector<4x[2]xi1>, tensor<*xi1>) {
  %0 = arith.cmpi ult, %a, %a : vector<[8]xi64>
  %1 = arith.cmpf olt, %f, %f : vector<4x[2]xf32>
  %2 = arith.cmpi eq, %t, %t : tensor<*xi64>
  return %0, %1, %2 : vector<[8]xi1>, vector<4x[2]xi1>, tensor<*xi1>
}
