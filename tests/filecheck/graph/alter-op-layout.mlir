// graph-alter-op-layout: conv2d goes to NCHW{n}c (TVM's AlterOpLayout), the blocked
// layout flows through elementwise and broadcast ops, and layout_transform ops stand
// only where the layouts meet.
// RUN: mlc-opt %s --split-input-file --graph-alter-op-layout | filecheck %s
// RUN: mlc-opt %s --split-input-file -p 'graph-alter-op-layout{block=8}' | filecheck %s --check-prefix=BLOCK8
// RUN: mlc-opt %s --split-input-file --graph-alter-op-layout --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file --graph-alter-op-layout | mlc-opt --split-input-file --graph-alter-op-layout | filecheck %s

// The program of TVM's pass-infrastructure tutorial (fusion-examples.md §1): x and the
// weight are transformed before conv2d, the operands of the adds that take conv2d's
// result are transformed too (the constant c re-laid, add(c, c) * 2 through a
// transform), and one transform back stands before the return.
// CHECK-LABEL: func.func @tutorial(
// CHECK-DAG:     %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<1x64x54x54xf32>
// CHECK-DAG:     %[[X:.*]] = graph.layout_transform %x {dst_layout = "NCHW16c", src_layout = "NCHW"} : tensor<1x64x56x56xf32> -> tensor<1x4x56x56x16xf32>
// CHECK-DAG:     %[[W:.*]] = graph.layout_transform %weight {dst_layout = "OIHW16i16o", src_layout = "OIHW"} : tensor<64x64x3x3xf32> -> tensor<4x4x3x3x16x16xf32>
// CHECK:         %[[CONV:.*]] = graph.conv2d %[[X]], %[[W]] {data_layout = "NCHW16c", kernel_layout = "OIHW16i16o"} : (tensor<1x4x56x56x16xf32>, tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x54x54x16xf32>
// CHECK:         %[[Y:.*]] = graph.add %[[C]], %[[C]] : (tensor<1x64x54x54xf32>, tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
// CHECK:         %[[Y2:.*]] = graph.multiply %[[Y]], %{{.*}} : (tensor<1x64x54x54xf32>, tensor<f32>) -> tensor<1x64x54x54xf32>
// CHECK:         %[[Y2B:.*]] = graph.layout_transform %[[Y2]] {dst_layout = "NCHW16c", src_layout = "NCHW"}
// CHECK:         %[[Y3:.*]] = graph.add %[[CONV]], %[[Y2B]] : (tensor<1x4x54x54x16xf32>, tensor<1x4x54x54x16xf32>) -> tensor<1x4x54x54x16xf32>
// CHECK:         %[[CB:.*]] = graph.constant dense<1.000000e+00> : tensor<1x4x54x54x16xf32>
// CHECK:         %[[Z:.*]] = graph.add %[[Y3]], %[[CB]] : (tensor<1x4x54x54x16xf32>
// CHECK:         %[[Z1:.*]] = graph.add %[[Y3]], %[[CB]] : (tensor<1x4x54x54x16xf32>
// CHECK:         %[[Z2:.*]] = graph.add %[[Z]], %[[Z1]] : (tensor<1x4x54x54x16xf32>
// CHECK-NEXT:    %[[OUT:.*]] = graph.layout_transform %[[Z2]] {dst_layout = "NCHW", src_layout = "NCHW16c"} : tensor<1x4x54x54x16xf32> -> tensor<1x64x54x54xf32>
// CHECK-NEXT:    return %[[OUT]] : tensor<1x64x54x54xf32>
// CHECK-NOT:     graph.layout_transform

// BLOCK8-LABEL: func.func @tutorial(
// BLOCK8:         graph.conv2d {{.*}} {data_layout = "NCHW8c", kernel_layout = "OIHW8i8o"} : (tensor<1x8x56x56x8xf32>, tensor<8x8x3x3x8x8xf32>) -> tensor<1x8x54x54x8xf32>
// BLOCK8:         graph.layout_transform {{.*}} {dst_layout = "NCHW", src_layout = "NCHW8c"}
// BLOCK8-NEXT:    return

// Over the whole file:
// STATS:      (7) num-conv2d - conv2d ops converted
// STATS-NEXT: (0) num-dense - dense and matmul ops given a packed constant weight
// STATS-NEXT: (7) num-followers - layout-agnostic ops converted
// STATS-NEXT: (16) num-transforms - layout_transform ops inserted
// STATS-NEXT: (2) num-constants - constants re-laid
func.func @tutorial(%x: tensor<1x64x56x56xf32>, %weight: tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32> {
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

// -----

// Channels that do not divide by 16 (8 in, 24 out) take blocks of 8, and the depthwise
// conv2d keeps them (TOPI's depthwise_conv2d_NCHWc: kernel OIHW1i8o).
// CHECK-LABEL: func.func @not_divisible(
// CHECK:         %[[A:.*]] = graph.conv2d {{.*}} {data_layout = "NCHW8c", kernel_layout = "OIHW8i8o"}
// CHECK:         graph.conv2d %[[A]], {{.*}} {data_layout = "NCHW8c", groups = 24 : i64, kernel_layout = "OIHW1i8o"}
// CHECK-NEXT:    graph.layout_transform {{.*}} {dst_layout = "NCHW", src_layout = "NCHW8c"}

// With block 8 too.
// BLOCK8-LABEL: func.func @not_divisible(
// BLOCK8:         %[[A:.*]] = graph.conv2d {{.*}} {data_layout = "NCHW8c", kernel_layout = "OIHW8i8o"}
// BLOCK8:         graph.conv2d %[[A]], {{.*}} {data_layout = "NCHW8c", groups = 24 : i64, kernel_layout = "OIHW1i8o"}
func.func @not_divisible(%x: tensor<1x8x8x8xf32>, %w: tensor<24x8x3x3xf32>, %dw: tensor<24x1x3x3xf32>) -> tensor<1x24x4x4xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<24x8x3x3xf32>) -> tensor<1x24x6x6xf32>
  %1 = graph.conv2d %0, %dw {groups = 24} : (tensor<1x24x6x6xf32>, tensor<24x1x3x3xf32>) -> tensor<1x24x4x4xf32>
  return %1 : tensor<1x24x4x4xf32>
}

// -----

// An op that needs NCHW (reshape) gets one transform back; relu follows conv2d.
// CHECK-LABEL: func.func @reshape_after_conv(
// CHECK:         %[[CONV:.*]] = graph.conv2d {{.*}} -> tensor<1x1x8x8x16xf32>
// CHECK-NEXT:    %[[RELU:.*]] = graph.relu %[[CONV]] : tensor<1x1x8x8x16xf32>
// CHECK-NEXT:    %[[BACK:.*]] = graph.layout_transform %[[RELU]] {dst_layout = "NCHW", src_layout = "NCHW16c"}
// CHECK-NEXT:    %[[FLAT:.*]] = graph.reshape %[[BACK]] {shape = array<i64: 1, -1>} : tensor<1x16x8x8xf32> -> tensor<1x1024xf32>
// CHECK-NEXT:    return %[[FLAT]]
func.func @reshape_after_conv(%x: tensor<1x16x8x8xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x1024xf32> {
  %0 = graph.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %1 = graph.relu %0 : tensor<1x16x8x8xf32>
  %2 = graph.reshape %1 {shape = array<i64: 1, -1>} : tensor<1x16x8x8xf32> -> tensor<1x1024xf32>
  return %2 : tensor<1x1024xf32>
}

// -----

// Two convs in a row: blocked between them, no transform; a per-channel constant
// (a bias) is re-laid to (1, C/16, 1, 1, 16), a scalar is kept.
// CHECK-LABEL: func.func @two_convs(
// CHECK:         %[[A:.*]] = graph.conv2d {{.*}} -> tensor<1x2x8x8x16xf32>
// CHECK-NEXT:    %[[BIAS:.*]] = graph.constant dense<5.000000e-01> : tensor<1x2x1x1x16xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.add %[[A]], %[[BIAS]] : (tensor<1x2x8x8x16xf32>, tensor<1x2x1x1x16xf32>) -> tensor<1x2x8x8x16xf32>
// CHECK-NEXT:    %[[C:.*]] = graph.maximum %[[B]], %zero : (tensor<1x2x8x8x16xf32>, tensor<f32>) -> tensor<1x2x8x8x16xf32>
// CHECK-NEXT:    %[[W2:.*]] = graph.layout_transform %w2 {dst_layout = "OIHW16i16o", src_layout = "OIHW"}
// CHECK-NEXT:    %[[D:.*]] = graph.conv2d %[[C]], %[[W2]] {data_layout = "NCHW16c", kernel_layout = "OIHW16i16o"} : (tensor<1x2x8x8x16xf32>, tensor<1x2x1x1x16x16xf32>) -> tensor<1x1x8x8x16xf32>
// CHECK-NEXT:    %[[OUT:.*]] = graph.layout_transform %[[D]] {dst_layout = "NCHW", src_layout = "NCHW16c"}
// CHECK-NEXT:    return %[[OUT]]
func.func @two_convs(%x: tensor<1x16x8x8xf32>, %w1: tensor<32x16x1x1xf32>, %w2: tensor<16x32x1x1xf32>) -> tensor<1x16x8x8xf32> {
  %bias = graph.constant dense<0.5> : tensor<32x1x1xf32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %0 = graph.conv2d %x, %w1 : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x8x8xf32>
  %1 = graph.add %0, %bias : (tensor<1x32x8x8xf32>, tensor<32x1x1xf32>) -> tensor<1x32x8x8xf32>
  %2 = graph.maximum %1, %zero : (tensor<1x32x8x8xf32>, tensor<f32>) -> tensor<1x32x8x8xf32>
  %3 = graph.conv2d %2, %w2 : (tensor<1x32x8x8xf32>, tensor<16x32x1x1xf32>) -> tensor<1x16x8x8xf32>
  return %3 : tensor<1x16x8x8xf32>
}

// -----

// Transforms the input already had: conv2d reads through the one out of NCHW16c,
// and the weight's transform to OIHW cancels with the one conv2d needs.
// CHECK-LABEL: func.func @existing_transforms(
// CHECK-NEXT:    %[[CONV:.*]] = graph.conv2d %xb, %wb {data_layout = "NCHW16c", kernel_layout = "OIHW16i16o"}
// CHECK-NEXT:    %[[OUT:.*]] = graph.layout_transform %[[CONV]] {dst_layout = "NCHW", src_layout = "NCHW16c"}
// CHECK-NEXT:    return %[[OUT]]
func.func @existing_transforms(%xb: tensor<1x1x4x4x16xf32>, %wb: tensor<1x1x1x1x16x16xf32>) -> tensor<1x16x4x4xf32> {
  %x = graph.layout_transform %xb {src_layout = "NCHW16c", dst_layout = "NCHW"} : tensor<1x1x4x4x16xf32> -> tensor<1x16x4x4xf32>
  %w = graph.layout_transform %wb {src_layout = "OIHW16i16o", dst_layout = "OIHW"} : tensor<1x1x1x1x16x16xf32> -> tensor<16x16x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x4x4xf32>
  return %0 : tensor<1x16x4x4xf32>
}
