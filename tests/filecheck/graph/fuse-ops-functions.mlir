// graph-fuse-ops on several functions: kernel names are unique in the module, also
// when the pass is nested on each function; kernels are never fused again.
// RUN: mlc-opt %s --graph-fuse-ops | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-fuse-ops))' | filecheck %s
// RUN: mlc-opt %s --graph-fuse-ops | mlc-opt --graph-fuse-ops | filecheck %s

// CHECK-LABEL: func.func @a(
// CHECK-NEXT:    call @fused_relu(%x)
// CHECK:       func.func private @fused_relu(
// CHECK-LABEL: func.func @b(
// CHECK-NEXT:    call @fused_relu_1(%x)
// CHECK:       func.func private @fused_relu_1(
// CHECK-NOT:   func.func
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
