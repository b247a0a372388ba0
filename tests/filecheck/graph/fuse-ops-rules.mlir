// graph-fuse-ops, TVM's fusion rules one by one (fusion-examples.md §2-3): for each
// rule a case where the fusion happens and one where it is refused, with the remark
// that says which phase refused it and which node or edge did.
// RUN: mlc-opt %s --graph-fuse-ops --split-input-file | filecheck %s
// RUN: mlc-opt %s --graph-fuse-ops --split-input-file --fusion-remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// The diamond: conv2d's post-dominator is the last add; every path between them is
// elementwise, so conv2d, the three branches and both adds are one kernel.
// CHECK-LABEL: func.func @diamond(
// CHECK-NEXT:    %[[R:.*]] = call @fused_conv2d_relu_exp_sigmoid_add_add(%{{.*}}, %{{.*}})
// CHECK-NEXT:    return %[[R]]
// CHECK:       func.func private @fused_conv2d_relu_exp_sigmoid_add_add({{.*}} attributes {graph.primitive}
func.func @diamond(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.relu %0 : tensor<1x8x6x6xf32>
  %2 = graph.exp %0 : tensor<1x8x6x6xf32>
  %3 = graph.sigmoid %0 : tensor<1x8x6x6xf32>
  %4 = graph.add %1, %2 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %5 = graph.add %4, %3 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %5 : tensor<1x8x6x6xf32>
}

// -----

// The diamond with an injective branch: conv2d stays alone (its relation to the add
// is injective); the branches still group with the add.
// CHECK-LABEL: func.func @diamond_injective_branch(
// CHECK-NEXT:    %[[C:.*]] = call @fused_conv2d(
// CHECK-NEXT:    %[[R:.*]] = call @fused_relu_reshape_add(%[[C]])
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.conv2d' not fused into its post-dominator 'graph.add': the relation to the post-dominator is injective (set by the edge into 'graph.reshape'); an out-elemwise-fusable op needs elemwise
// REMARK: note: post-dominator 'graph.add'
// REMARK: note: refused by 'graph.reshape'
func.func @diamond_injective_branch(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.relu %0 : tensor<1x8x6x6xf32>
  %2 = graph.reshape %0 {shape = array<i64: 1, 8, 6, 6>} : tensor<1x8x6x6xf32> -> tensor<1x8x6x6xf32>
  %3 = graph.add %1, %2 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %3 : tensor<1x8x6x6xf32>
}

// -----

// The diamond with a reduction branch: the relation is comm-reduce, so conv2d stays
// alone; the reduction never starts a fusion; relu joins the add.
// CHECK-LABEL: func.func @diamond_reduce_branch(
// CHECK-NEXT:    %[[C:.*]] = call @fused_conv2d(
// CHECK-NEXT:    %[[S:.*]] = call @fused_sum(%[[C]])
// CHECK-NEXT:    call @fused_relu_add(%[[C]], %[[S]])
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.conv2d' not fused into its post-dominator 'graph.add': the relation to the post-dominator is comm-reduce (set by the edge into 'graph.sum'); an out-elemwise-fusable op needs elemwise
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.add': comm-reduce ops never start a fusion
func.func @diamond_reduce_branch(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.relu %0 : tensor<1x8x6x6xf32>
  %2 = graph.sum %0 {axes = array<i64: 2, 3>, keepdims = true} : tensor<1x8x6x6xf32> -> tensor<1x8x1x1xf32>
  %3 = graph.add %1, %2 : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  return %3 : tensor<1x8x6x6xf32>
}

// -----

// Out-elemwise-fusable, phase 0: conv2d takes its per-channel bias add (a broadcast
// op reading conv2d's full shape: an elementwise edge) and relu.
// CHECK-LABEL: func.func @conv_bias_relu(
// CHECK-NEXT:    %[[B:.*]] = graph.constant
// CHECK-NEXT:    call @fused_conv2d_add_relu(%{{.*}}, %{{.*}}, %[[B]])
func.func @conv_bias_relu(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %b = graph.constant dense<0.5> : tensor<8x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.add %0, %b : (tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %2 = graph.relu %1 : tensor<1x8x6x6xf32>
  return %2 : tensor<1x8x6x6xf32>
}

// -----

// Out-elemwise-fusable, refused on the path: two conv2d feed one add. The first
// operand's conv2d is visited first and takes the add; then the add's group holds an
// anchor, so the second conv2d (the residual shortcut) keeps only its own kernel.
// CHECK-LABEL: func.func @two_convs_one_add(
// CHECK-NEXT:    %[[S:.*]] = call @fused_conv2d(
// CHECK-NEXT:    call @fused_conv2d_add(%{{.*}}, %{{.*}}, %[[S]])
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.conv2d' not fused into its post-dominator 'graph.add': the post-dominator 'graph.add' is in an out-elemwise-fusable group; needs <= broadcast (path 'graph.conv2d' -> 'graph.add')
// REMARK: note: post-dominator 'graph.add'
func.func @two_convs_one_add(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>, %w2: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = graph.conv2d %x, %w2 : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  %2 = graph.add %0, %1 : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %2 : tensor<1x8x6x6xf32>
}

// -----

// Elemwise/broadcast: fuses forward into a reduction sink.
// CHECK-LABEL: func.func @elemwise_into_reduce(
// CHECK-NEXT:    call @fused_exp_add_sum(
func.func @elemwise_into_reduce(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : tensor<4x8xf32>
  %1 = graph.add %0, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = graph.sum %1 {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Elemwise/broadcast, refused: the relation to an opaque op.
// CHECK-LABEL: func.func @elemwise_into_opaque(
// CHECK-NEXT:    call @fused_exp(
// CHECK-NEXT:    call @fused_softmax(
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.exp' not fused into its post-dominator 'graph.softmax': the relation to the post-dominator is opaque (set by the edge into 'graph.softmax'); an elemwise/broadcast op needs <= injective or comm-reduce
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.exp' not fused
func.func @elemwise_into_opaque(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.exp %x : tensor<4x8xf32>
  %1 = graph.softmax %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Injective, phase 1: a reshape joins the elementwise op after it.
// CHECK-LABEL: func.func @injective_into_elemwise(
// CHECK-NEXT:    call @fused_reshape_exp(
func.func @injective_into_elemwise(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = graph.reshape %x {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  %1 = graph.exp %0 : tensor<32xf32>
  return %1 : tensor<32xf32>
}

// -----

// Injective, refused: a flatten feeding dense stays alone (the sink is
// out-elemwise-fusable), as in ResNet's head.
// CHECK-LABEL: func.func @injective_into_dense(
// CHECK-NEXT:    %[[F:.*]] = call @fused_flatten(
// CHECK-NEXT:    call @fused_dense(%[[F]],
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.flatten' not fused into its post-dominator 'graph.dense': the post-dominator 'graph.dense' is in an out-elemwise-fusable group; needs <= injective (path 'graph.flatten' -> 'graph.dense')
func.func @injective_into_dense(%x: tensor<1x8x2x2xf32>, %w: tensor<10x32xf32>) -> tensor<1x10xf32> {
  %0 = graph.flatten %x : tensor<1x8x2x2xf32> -> tensor<1x32xf32>
  %1 = graph.dense %0, %w : (tensor<1x32xf32>, tensor<10x32xf32>) -> tensor<1x10xf32>
  return %1 : tensor<1x10xf32>
}

// -----

// Comm-reduce never starts a fusion: the exp after a sum gets its own kernel.
// CHECK-LABEL: func.func @reduce_then_elemwise(
// CHECK-NEXT:    %[[S:.*]] = call @fused_sum(
// CHECK-NEXT:    call @fused_exp(%[[S]])
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.exp': comm-reduce ops never start a fusion
func.func @reduce_then_elemwise(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = graph.sum %x {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  %1 = graph.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Tuples (concat's operands): fields never fuse into the tuple in phases 0-1; the
// tuple joins the concat in phase 1, and in phase 2 the fields join it too because
// the tuple's group went on into injective ops. The refusals of phases 0-1 did not
// stand, so no remark reports them.
// CHECK-LABEL: func.func @concat_fields(
// CHECK-NEXT:    call @fused_exp_exp_concat_relu(
// REMARK-NOT: the operand tuple of 'graph.concat'
func.func @concat_fields(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %0 = graph.exp %x : tensor<2x4xf32>
  %1 = graph.exp %y : tensor<2x4xf32>
  %2 = graph.concat %0, %1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %3 = graph.relu %2 : tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

// Tuples, refused: a concat feeding dense; the fields still join the concat (phase 2).
// CHECK-LABEL: func.func @concat_into_dense(
// CHECK-NEXT:    %[[C:.*]] = call @fused_exp_exp_concat(
// CHECK-NEXT:    call @fused_dense(%[[C]],
func.func @concat_into_dense(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>, %w: tensor<3x8xf32>) -> tensor<1x3xf32> {
  %0 = graph.exp %x : tensor<1x4xf32>
  %1 = graph.exp %y : tensor<1x4xf32>
  %2 = graph.concat %0, %1 {axis = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
  %3 = graph.dense %2, %w : (tensor<1x8xf32>, tensor<3x8xf32>) -> tensor<1x3xf32>
  return %3 : tensor<1x3xf32>
}

// -----

// Several results (split): read through get-item nodes, which are injective, so the
// split and the add of its pieces are one kernel.
// CHECK-LABEL: func.func @split_pieces(
// CHECK-NEXT:    call @fused_split_add(
func.func @split_pieces(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %0:2 = graph.split %x {sections = array<i64: 2, 2>} : (tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>)
  %1 = graph.add %0#0, %0#1 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

// Injective into a reduction's group: phase 0 fuses the exp into the sum (an
// elemwise op into a comm-reduce sink), so in phase 1 the transpose's post-dominator,
// the exp, belongs to a comm-reduce group and the transpose stays out, as in TVM:
// an injective op never joins a reduction's kernel, not even through an elemwise op.
// CHECK-LABEL: func.func @injective_into_reduction_group(
// CHECK-NEXT:    %[[T:.*]] = call @fused_transpose(%x)
// CHECK-NEXT:    %[[R:.*]] = call @fused_exp_sum(%[[T]])
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.transpose' not fused into its post-dominator 'graph.exp': the post-dominator 'graph.exp' is in a comm-reduce group; needs <= injective (path 'graph.transpose' -> 'graph.exp')
// REMARK: note: post-dominator 'graph.exp'
func.func @injective_into_reduction_group(%x: tensor<8x4xf32>) -> tensor<4xf32> {
  %0 = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %1 = graph.exp %0 : tensor<4x8xf32>
  %2 = graph.sum %1 {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Elemwise, then injective, then a reduction: the exp's post-dominator is the
// transpose (an injective sink: fused in phase 0); the transpose then refuses the sum
// in phase 1. Two kernels, the reduction alone.
// CHECK-LABEL: func.func @elemwise_injective_reduce(
// CHECK-NEXT:    %[[T:.*]] = call @fused_exp_transpose(%x)
// CHECK-NEXT:    %[[R:.*]] = call @fused_sum(%[[T]])
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.transpose' not fused into its post-dominator 'graph.sum': the post-dominator 'graph.sum' is in a comm-reduce group; needs <= injective (path 'graph.transpose' -> 'graph.sum')
func.func @elemwise_injective_reduce(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = graph.exp %x : tensor<4x8xf32>
  %1 = graph.transpose %0 {axes = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %2 = graph.sum %1 {axes = array<i64: 1>} : tensor<8x4xf32> -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// Several results whose uses never meet: the split has no post-dominator, and each
// piece goes to its own consumer's kernel (get-item nodes are injective, but the
// split cannot follow both).
// CHECK-LABEL: func.func @split_pieces_apart(
// CHECK-NEXT:    %[[S:.*]]:2 = call @fused_split(%x)
// CHECK-NEXT:    %[[E:.*]] = call @fused_exp(%[[S]]#0)
// CHECK-NEXT:    %[[R:.*]] = call @fused_sum(%[[S]]#1)
// REMARK: fuse-ops-rules.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.split' not fused: it has no post-dominator: its uses never meet at one op
func.func @split_pieces_apart(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %0:2 = graph.split %x {axis = 1 : i64, sections = array<i64: 4, 4>} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %1 = graph.exp %0#0 : tensor<4x4xf32>
  %2 = graph.sum %0#1 {axes = array<i64: 1>} : tensor<4x4xf32> -> tensor<4xf32>
  return %1, %2 : tensor<4x4xf32>, tensor<4xf32>
}

// -----

// The activations of ONNX models follow the same rules: prelu with a per-channel
// slope is broadcast and the others elementwise, so conv2d takes them all; a
// gather_elements (injective) after them cannot join an out-elemwise-fusable group.
// graph.range reads nothing and is injective: in phase 2 it joins the injective
// group of the gather, with the elementwise ops between them.
// CHECK-LABEL: func.func @onnx_activations(
// CHECK-NEXT:    %[[C:.*]] = call @fused_conv2d_prelu_hard_swish_mish(%x, %w, %slope)
// CHECK-NEXT:    %[[G:.*]] = call @fused_gather_elements_softplus_range_swish_add(%[[C]], %i)
// CHECK-NEXT:    return %[[G]]
func.func @onnx_activations(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>, %slope: tensor<4x1x1xf32>, %i: tensor<1x4x4x4xi64>) -> tensor<1x4x4x4xf32> {
  %0 = graph.conv2d %x, %w : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %1 = graph.prelu %0, %slope : (tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %2 = graph.hard_swish %1 : tensor<1x4x4x4xf32>
  %3 = graph.mish %2 : tensor<1x4x4x4xf32>
  %4 = graph.gather_elements %3, %i {axis = 3 : i64} : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xi64>) -> tensor<1x4x4x4xf32>
  %5 = graph.softplus %4 : tensor<1x4x4x4xf32>
  %r = graph.range {start = 0.0 : f32, limit = 4.0 : f32, delta = 1.0 : f32} : tensor<4xf32>
  %6 = graph.swish %r : tensor<4xf32>
  %7 = graph.add %5, %6 : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %7 : tensor<1x4x4x4xf32>
}
