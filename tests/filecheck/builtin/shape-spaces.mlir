// MLIR allows whitespace (newlines too) around each `x` of a shape: `vector<4 x i32>`,
// `tensor<2 x\n 3xf32>`, `vector<[4] x 2 x i8>`, `memref<? x 4 x f32>`, `tensor<* x f32>`;
// mlc reads them and prints them as mlir-opt-22 does.
// RUN: mlc-opt %s | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}

// CHECK-LABEL: func.func @spaces(
// CHECK-SAME: vector<4xi32>, %{{.*}}: tensor<2x3xf32>, %{{.*}}: vector<[4]x2xi8>, %{{.*}}: memref<?x4xf32>, %{{.*}}: tensor<?x3x?xi1>, %{{.*}}: tensor<*xf32>)
func.func @spaces(%a: vector<4 x i32>, %b: tensor<2 x
    3xf32>, %c: vector<[4] x 2 x i8>, %d: memref<? x 4 x f32>, %e: tensor<?	x 3 x? x i1>, %f: tensor<* x f32>) {
  return
}
