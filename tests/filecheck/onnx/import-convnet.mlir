// mlc-import on examples/onnx_convnet.py's model: one graph op (or two: Conv with a
// bias is conv2d + bias_add) per ONNX node, each located at its node; the weights of
// more than 16 elements as dense_resource blobs, which mlc-opt reads and prints back.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: python %S/../../../examples/onnx_convnet.py %t.d/convnet.onnx
// RUN: mlc-import %t.d/convnet.onnx --input-shape image=2,3,32,32 --print-debuginfo -o %t.d/convnet.mlir
// RUN: filecheck %s --input-file %t.d/convnet.mlir
// RUN: mlc-opt %t.d/convnet.mlir --print-debuginfo | diff %t.d/convnet.mlir -

// CHECK-LABEL: func.func @main(%image: tensor<2x3x32x32xf32>{{.*}}) -> tensor<2x10xf32> {
// CHECK: %conv1.weight = graph.constant dense_resource<conv1.weight> : tensor<8x3x3x3xf32> loc("conv1.weight")
// CHECK: %conv1.bias = graph.constant dense<[{{.*}}]> : tensor<8xf32> loc("conv1.bias")
// CHECK: %conv2.weight = graph.constant dense_resource<conv2.weight> : tensor<16x8x3x3xf32>
// CHECK: %fc.weight = graph.constant dense_resource<fc.weight> : tensor<10x16xf32>
// CHECK: %0 = graph.conv2d %image, %conv1.weight {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x32x32xf32> loc("conv1")
// CHECK-NEXT: %1 = graph.bias_add %0, %conv1.bias : {{.*}} loc("conv1")
// CHECK-NEXT: %2 = graph.batch_norm %1, %bn1.scale, %bn1.bias, %bn1.mean, %bn1.var : {{.*}} loc("bn1")
// CHECK-NEXT: %3 = graph.relu %2 : tensor<2x8x32x32xf32> loc("relu1")
// CHECK-NEXT: %4 = graph.max_pool2d %3 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x8x32x32xf32> -> tensor<2x8x16x16xf32> loc("pool1")
// CHECK-NEXT: %5 = graph.conv2d %4, %conv2.weight {{.*}} -> tensor<2x16x16x16xf32> loc("conv2")
// CHECK-NEXT: %6 = graph.relu %5 : tensor<2x16x16x16xf32> loc("relu2")
// CHECK-NEXT: %7 = graph.global_avg_pool2d %6 : tensor<2x16x16x16xf32> -> tensor<2x16x1x1xf32> loc("gap")
// CHECK-NEXT: %8 = graph.flatten %7 : tensor<2x16x1x1xf32> -> tensor<2x16xf32> loc("flatten")
// CHECK-NEXT: %9 = graph.dense %8, %fc.weight : (tensor<2x16xf32>, tensor<10x16xf32>) -> tensor<2x10xf32> loc("fc")
// CHECK-NEXT: %10 = graph.bias_add %9, %fc.bias : {{.*}} loc("fc")
// CHECK-NEXT: %11 = graph.softmax %10 {axis = 1 : i64} : tensor<2x10xf32> loc("softmax")
// CHECK-NEXT: return %11 : tensor<2x10xf32>
// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: conv1.weight: "0x10000000
// CHECK-NEXT: conv2.weight: "0x10000000
// CHECK-NEXT: fc.weight: "0x10000000
