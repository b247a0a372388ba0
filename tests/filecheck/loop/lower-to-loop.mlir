// graph-lower-to-loop after graph-optimize: each fused function a kernel (the
// convolution's padding inlined as padded loads, its reduction into an intermediate
// buffer, the bias add and relu after it as one block), the two structurally
// identical fused functions one kernel, @main buffers and calls in
// destination-passing style. The output reads back in both forms.
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop' | filecheck %s
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop' --print-op-generic | mlc-opt | filecheck %s
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop' --pass-statistics -o /dev/null 2>&1 | filecheck %s --check-prefix=STATS
// The interpreter computes the same before the pipeline and after each pass.
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop' --check-semantics -o /dev/null
// The MLP of the MLC course, as mlc-model writes it.
// RUN: mlc-model mlp --param in_features=8 --param hidden=4 --param num_classes=2 -p '' --emit %t.mlir
// RUN: mlc-opt %t.mlir -p 'graph-optimize,graph-lower-to-loop' | filecheck %s --check-prefix=MLP

// CHECK-LABEL: func.func @main(%x: memref<1x2x4x4xf32>, %out: memref<1x2x4x4xf32>) {
// CHECK-NEXT:    %w = loop.constant dense<5.000000e-01> : tensor<2x2x3x3xf32> -> memref<2x2x3x3xf32>
// CHECK-NEXT:    %b = loop.constant dense<{{.*}}> : tensor<2x1x1xf32> -> memref<2x1x1xf32>
// CHECK-NEXT:    %0 = loop.alloc_buffer : memref<1x2x4x4xf32>
// CHECK-NEXT:    call @fused_conv2d_add_relu(%x, %w, %b, %0) : (memref<1x2x4x4xf32>, memref<2x2x3x3xf32>, memref<2x1x1xf32>, memref<1x2x4x4xf32>) -> ()
// CHECK-NEXT:    call @fused_conv2d_add_relu(%0, %w, %b, %out) : (memref<1x2x4x4xf32>, memref<2x2x3x3xf32>, memref<2x1x1xf32>, memref<1x2x4x4xf32>) -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @fused_conv2d_add_relu(%p0: memref<1x2x4x4xf32>, %p1: memref<2x2x3x3xf32>, %p2: memref<2x1x1xf32>, %T_relu: memref<1x2x4x4xf32>) {
// The padding is a stage of its own before the convolution (its bounds checks run once
// per element, not once per tap); the convolution accumulates in its element type, f32.
// CHECK-NEXT:    %pad_temp = loop.alloc_buffer : memref<1x2x6x6xf32>
// CHECK-NEXT:    %conv2d_nchw = loop.alloc_buffer : memref<1x2x4x4xf32>
// CHECK:           loop.block "pad_temp"(%vi0 = spatial(1, %i0), %vi1 = spatial(2, %i1), %vi2 = spatial(6, %i2), %vi3 = spatial(6, %i3)) reads(%p0[%vi0, %vi1, %vi2 - 1, %vi3 - 1]) writes(%pad_temp[%vi0, %vi1, %vi2, %vi3]) {
// CHECK-NEXT:        loop.load %p0[%vi0, %vi1, %vi2 - 1, %vi3 - 1] padding(0.000000e+00 : f32) : memref<1x2x4x4xf32>
// CHECK:           loop.block "conv2d_nchw"(%vn = spatial(1, %n), %voc = spatial(2, %oc), %vy = spatial(4, %y), %vx = spatial(4, %x), %vrc = reduce(2, %rc), %vry = reduce(3, %ry), %vrx = reduce(3, %rx)) reads(%pad_temp[%vn, %vrc, %vy + %vry, %vx + %vrx], %p1[%voc, %vrc, %vry, %vrx]) writes(%conv2d_nchw[%vn, %voc, %vy, %vx]) {
// CHECK-NEXT:        loop.init {
// CHECK:             loop.load %pad_temp[%vn, %vrc, %vy + %vry, %vx + %vrx] : memref<1x2x6x6xf32>
// CHECK:           loop.block "T_relu"(%vi0 = spatial(1, %i0), %vi1 = spatial(2, %i1), %vi2 = spatial(4, %i2), %vi3 = spatial(4, %i3)) reads(%conv2d_nchw[%vi0, %vi1, %vi2, %vi3], %p2[%vi1, 0, 0]) writes(%T_relu[%vi0, %vi1, %vi2, %vi3]) {
// CHECK-NEXT:        %0 = loop.load %conv2d_nchw[%vi0, %vi1, %vi2, %vi3] : memref<1x2x4x4xf32>
// CHECK-NEXT:        %1 = loop.load %p2[%vi1, 0, 0] : memref<2x1x1xf32>
// CHECK-NEXT:        %2 = arith.addf %0, %1 : f32
// CHECK-NEXT:        %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        %3 = arith.maximumf %2, %cst : f32
// CHECK-NEXT:        loop.store %3, %T_relu[%vi0, %vi1, %vi2, %vi3] : memref<1x2x4x4xf32>
// CHECK-NOT:   graph.
// CHECK-NOT:   func.func

// STATS:      graph-lower-to-loop
// STATS-NEXT:   (2) num-calls - kernel calls in the lowered functions
// STATS-NEXT:   (1) num-kernels - distinct kernels
// STATS-NEXT:   (2) num-primitives - graph.primitive functions lowered

// MLP-LABEL: func.func @main(%x: memref<1x8xf32>, %out: memref<1x2xf32>) {
// MLP:         %fc1.weight = loop.constant dense_resource<fc1.weight> : tensor<4x8xf32> -> memref<4x8xf32>
// MLP:         %0 = loop.alloc_buffer : memref<1x4xf32>
// MLP-NEXT:    call @fused_dense_bias_add_relu(%x, %fc1.weight, %fc1.bias, %0)
// MLP-NEXT:    call @fused_dense_bias_add(%0, %fc2.weight, %fc2.bias, %out)
// MLP:       func.func private @fused_dense_bias_add_relu(
// MLP:         loop.block "T_dense"
// MLP:         loop.block "T_relu"
// MLP:       func.func private @fused_dense_bias_add(
// MLP:         loop.block "T_dense"
// MLP:         loop.block "T_bias_add"
// MLP:       dialect_resources

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
