// conv2d whose result reaches its post-dominator through an injective branch: TVM's
// rules keep conv2d alone (--fusion-remarks says why); the branches fuse with the add.
func.func @main(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.relu %0 : tensor<1x8x6x6xf32>
  %2 = graph.transpose %0 {axes = array<i64: 0, 1, 3, 2>} : tensor<1x8x6x6xf32> -> tensor<1x8x6x6xf32>
  %3 = graph.add %1, %2 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %3 : tensor<1x8x6x6xf32>
}
