// The graph dialect through mlir-opt and back: mlir-opt reads mlc's generic form of
// graph ops and of fused kernels (as unregistered ops), and mlc optimises what
// mlir-opt prints.
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt --allow-unregistered-dialect --mlir-print-op-generic | mlc-opt -p graph-optimize | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s -p graph-optimize --print-op-generic | %mlir_opt --allow-unregistered-dialect | mlc-opt | filecheck %s %}

// CHECK-LABEL: func.func @main(
// CHECK:         call @fused_conv2d_relu_add(
// CHECK:       func.func private @fused_conv2d_relu_add({{.*}} attributes {graph.primitive}
func.func @main(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %b = graph.constant dense<0.5> : tensor<8x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.relu %0 : tensor<1x8x6x6xf32>
  %2 = graph.add %1, %b : (tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %2 : tensor<1x8x6x6xf32>
}
