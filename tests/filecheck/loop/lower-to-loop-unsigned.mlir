// Unsigned tensors live in buffers of the signless integers of their width, and their
// kernels use arith's unsigned ops: comparisons, division, remainder, logical right
// shifts, max/min, casts from and to floats, zero extension; a constant keeps its bits.
// Checked by the interpreter after every pass, and read by mlir-opt-22.
// RUN: mlc-opt %s -p 'graph-lower-to-loop' | filecheck %s
// RUN: mlc-opt %s -p 'graph-lower-to-loop,loop-lower,canonicalize' --check-semantics -o /dev/null
// RUN: %if mlir-opt %{ mlc-opt %s -p 'graph-lower-to-loop,loop-lower,canonicalize' | %mlir_opt -o /dev/null %}

// CHECK-LABEL: func.func private @less(
// CHECK-SAME: memref<4xi8>
// CHECK: arith.cmpi ult
// CHECK-LABEL: func.func private @divide(
// CHECK-NOT: arith.select
// CHECK: arith.divui
// CHECK-LABEL: func.func private @mod(
// CHECK: arith.remui
// CHECK-LABEL: func.func private @right_shift(
// CHECK: arith.shrui
// CHECK-LABEL: func.func private @maximum(
// CHECK: arith.maxui
// CHECK-LABEL: func.func private @cast(
// CHECK: arith.uitofp {{.*}} : i8 to f32
// CHECK-LABEL: func.func private @cast_1(
// CHECK: arith.fptoui {{.*}} : f32 to i8
// CHECK-LABEL: func.func private @cast_2(
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK-LABEL: func.func @main(
// CHECK: loop.constant dense<[-1, 0, 127, -128]> : tensor<4xi8> -> memref<4xi8>
func.func @main(%x: tensor<4xui8>, %y: tensor<4xui8>, %f: tensor<4xf32>)
    -> (tensor<4xi1>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>,
        tensor<4xf32>, tensor<4xui8>, tensor<4xi32>, tensor<4xui8>) {
  %0 = graph.less %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %1 = graph.divide %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = graph.mod %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %3 = graph.right_shift %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %4 = graph.maximum %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %5 = graph.cast %x : tensor<4xui8> to f32
  %6 = graph.cast %f : tensor<4xf32> to ui8
  %7 = graph.cast %x : tensor<4xui8> to i32
  %c = graph.constant dense<[255, 0, 127, 128]> : tensor<4xui8>
  return %0, %1, %2, %3, %4, %5, %6, %7, %c : tensor<4xi1>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xui8>, tensor<4xf32>, tensor<4xui8>, tensor<4xi32>, tensor<4xui8>
}
