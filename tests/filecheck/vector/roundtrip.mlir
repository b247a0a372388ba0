// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}

// CHECK-LABEL: func.func @broadcasts
// CHECK: vector.broadcast %{{.*}} : f32 to vector<4xf32>
// CHECK: vector.broadcast %{{.*}} : vector<4xf32> to vector<2x4xf32>
// CHECK: vector.broadcast %{{.*}} : vector<1x4xf32> to vector<3x2x4xf32>
// CHECK: vector.broadcast %{{.*}} : vector<f32> to vector<3xf32>
// CHECK: vector.broadcast %{{.*}} : vector<4xf32> to vector<[2]x4xf32>
// CHECK: vector.broadcast %{{.*}} : vector<[4]xi8> to vector<2x[4]xi8>
func.func @broadcasts(%s: f32, %v: vector<4xf32>, %w: vector<1x4xf32>, %z: vector<f32>,
                      %k: vector<[4]xi8>) {
  %0 = vector.broadcast %s : f32 to vector<4xf32>
  %1 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %2 = vector.broadcast %w : vector<1x4xf32> to vector<3x2x4xf32>
  %3 = vector.broadcast %z : vector<f32> to vector<3xf32>
  %4 = vector.broadcast %v : vector<4xf32> to vector<[2]x4xf32>
  %5 = vector.broadcast %k : vector<[4]xi8> to vector<2x[4]xi8>
  return
}
