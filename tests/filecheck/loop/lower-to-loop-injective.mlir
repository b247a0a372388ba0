// graph-lower-to-loop of injective ops: an embedding lookup (gather, then add and
// relu) becomes one block whose table read is at an index loaded from %ids
// (`%p0[?, %vi2]` in its regions); attention's head split (reshape, transpose) one
// copy block with the composed indices. The output reads back in both forms.
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop' | filecheck %s
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop' --print-op-generic | mlc-opt | filecheck %s

func.func @main(%ids: tensor<2x3xi64>, %table: tensor<7x4xf32>, %pos: tensor<3x4xf32>, %h: tensor<1x4x8xf32>) -> (tensor<2x3x4xf32>, tensor<1x2x4x4xf32>) {
  %e = graph.gather %table, %ids {axis = 0 : i64} : (tensor<7x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %s = graph.add %e, %pos : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %r = graph.relu %s : tensor<2x3x4xf32>
  %split = graph.reshape %h {shape = array<i64: 1, 4, 2, 4>} : tensor<1x4x8xf32> -> tensor<1x4x2x4xf32>
  %heads = graph.transpose %split {axes = array<i64: 0, 2, 1, 3>} : tensor<1x4x2x4xf32> -> tensor<1x2x4x4xf32>
  return %r, %heads : tensor<2x3x4xf32>, tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func private @fused_gather_add_relu(%p0: memref<7x4xf32>, %p1: memref<2x3xi64>, %p2: memref<3x4xf32>, %T_relu: memref<2x3x4xf32>) {
// CHECK-NOT:     loop.alloc_buffer
// CHECK:           loop.block "T_relu"(%vi0 = spatial(2, %i0), %vi1 = spatial(3, %i1), %vi2 = spatial(4, %i2)) reads(%p1[%vi0, %vi1], %p0[?, %vi2], %p2[%vi1, %vi2]) writes(%T_relu[%vi0, %vi1, %vi2]) {
// CHECK-NEXT:        %[[ID:.*]] = loop.load %p1[%vi0, %vi1] : memref<2x3xi64>
// CHECK:             %[[ROW:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ID]] : i64
// CHECK-NEXT:        %[[INDEX:.*]] = arith.index_cast %[[ROW]] : i64 to index
// CHECK-NEXT:        loop.load %p0[%[[INDEX]], %vi2] : memref<7x4xf32>
// CHECK:             arith.maximumf
// CHECK-LABEL: func.func private @fused_reshape_transpose(%p0: memref<1x4x8xf32>, %T_transpose: memref<1x2x4x4xf32>) {
// CHECK-NOT:     loop.alloc_buffer
// CHECK:           loop.block "T_transpose"(%vi0 = spatial(1, %i0), %vi1 = spatial(2, %i1), %vi2 = spatial(4, %i2), %vi3 = spatial(4, %i3)) reads(%p0[%vi0, %vi2, %vi1 * 4 + %vi3]) writes(%T_transpose[%vi0, %vi1, %vi2, %vi3]) {
// CHECK-NEXT:        %0 = loop.load %p0[%vi0, %vi2, %vi1 * 4 + %vi3] : memref<1x4x8xf32>
// CHECK-NEXT:        loop.store %0, %T_transpose[%vi0, %vi1, %vi2, %vi3] : memref<1x2x4x4xf32>
