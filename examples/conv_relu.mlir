// Two convolution + bias + relu blocks of the same shapes, for graph-lower-to-loop
// (README: "From graph to loops").
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<2x2x3x3xf32>
  %b = graph.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %1 = graph.add %0, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %2 = graph.relu %1 : tensor<1x2x4x4xf32>
  %3 = graph.conv2d %2, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %4 = graph.add %3, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %5 = graph.relu %4 : tensor<1x2x4x4xf32>
  return %5 : tensor<1x2x4x4xf32>
}
