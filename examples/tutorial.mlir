// The program of TVM's pass-infrastructure tutorial, in the graph dialect.
func.func @main(%x: tensor<1x64x56x56xf32>, %weight: tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32> {
  %c = graph.constant dense<1.0> : tensor<1x64x54x54xf32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %conv = graph.conv2d %x, %weight : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32>
  %y = graph.add %c, %c : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %y2 = graph.multiply %y, %two : (tensor<1x64x54x54xf32>, tensor<f32>) -> tensor<1x64x54x54xf32>
  %y3 = graph.add %conv, %y2 : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %z = graph.add %y3, %c : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %z1 = graph.add %y3, %c : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %z2 = graph.add %z, %z1 : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  return %z2 : tensor<1x64x54x54xf32>
}
