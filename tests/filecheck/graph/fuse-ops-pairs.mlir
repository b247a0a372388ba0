// graph-fuse-ops, one case per (producer kind, consumer kind) of TVM's OpPatternKind:
// a producer read by one consumer, which the function returns. What fuses follows
// TVM's FuseOps (RunFuse's three phases):
//   producer elemwise/broadcast -> consumer elemwise, broadcast, injective or
//     comm-reduce: fused in phase 0; into a tuple (concat's operands): phase 2;
//     out-elemwise-fusable or opaque: refused (the relation must be <= injective or
//     comm-reduce).
//   injective -> elemwise, broadcast, injective: fused in phase 1; into a tuple: phase 2;
//     comm-reduce, out-elemwise-fusable, opaque: refused (everything up to the sink
//     must be <= injective: an injective op never joins a reduction's kernel).
//   comm-reduce -> anything: refused (a reduction never starts a fusion).
//   out-elemwise-fusable -> elemwise, or broadcast reading its own shape: fused in
//     phase 0; anything else: refused (the relation must be elemwise).
//   opaque -> anything: refused.
// Every refusal is reported as a remark; the last RUN line checks there are no others.
// RUN: mlc-opt %s --graph-fuse-ops --split-input-file | filecheck %s
// RUN: mlc-opt %s --graph-fuse-ops --split-input-file --fusion-remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: mlc-opt %s --graph-fuse-ops --split-input-file --fusion-remarks 2>&1 >/dev/null | grep -c "remark: graph-fuse-ops" | filecheck %s --check-prefix=COUNT
// COUNT: {{^}}39{{$}}

// elemwise -> elemwise: fused (phase 0).
// CHECK-LABEL: func.func @elemwise_to_elemwise(
// CHECK-NEXT:    %[[R:.*]] = call @fused_exp_relu(
// CHECK-NEXT:    return %[[R]]
func.func @elemwise_to_elemwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.relu %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// elemwise -> broadcast: fused (phase 0).
// CHECK-LABEL: func.func @elemwise_to_broadcast(
// CHECK-NEXT:    %[[R:.*]] = call @fused_exp_add(
// CHECK-NEXT:    return %[[R]]
func.func @elemwise_to_broadcast(%x: tensor<4x8xf32>, %z: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.add %p, %z : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %c : tensor<3x4x8xf32>
}

// -----

// elemwise -> injective: fused (phase 0).
// CHECK-LABEL: func.func @elemwise_to_injective(
// CHECK-NEXT:    %[[R:.*]] = call @fused_exp_reshape(
// CHECK-NEXT:    return %[[R]]
func.func @elemwise_to_injective(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.reshape %p {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// elemwise -> comm-reduce: fused (phase 0).
// CHECK-LABEL: func.func @elemwise_to_comm_reduce(
// CHECK-NEXT:    %[[R:.*]] = call @fused_exp_sum(
// CHECK-NEXT:    return %[[R]]
func.func @elemwise_to_comm_reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.sum %p {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// elemwise -> out-elemwise-fusable: refused: its relation to dense is out-elemwise-
// fusable; an elemwise op fuses only into injective or reduction relations.
// CHECK-LABEL: func.func @elemwise_to_out_elemwise_fusable(
// CHECK-NEXT:    %[[P:.*]] = call @fused_exp(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.exp' not fused into its post-dominator 'graph.dense': the relation to the post-dominator is out-elemwise-fusable (set by the edge into 'graph.dense'); an elemwise/broadcast op needs <= injective or comm-reduce
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.exp' not fused into its post-dominator 'graph.dense': the relation to the post-dominator is out-elemwise-fusable (set by the edge into 'graph.dense'); an elemwise/broadcast op needs <= injective or comm-reduce
func.func @elemwise_to_out_elemwise_fusable(%x: tensor<4x8xf32>, %v: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.dense %p, %v : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// elemwise -> opaque: refused: softmax is opaque.
// CHECK-LABEL: func.func @elemwise_to_opaque(
// CHECK-NEXT:    %[[P:.*]] = call @fused_exp(
// CHECK-NEXT:    %[[R:.*]] = call @fused_softmax(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.exp' not fused into its post-dominator 'graph.softmax': the relation to the post-dominator is opaque (set by the edge into 'graph.softmax'); an elemwise/broadcast op needs <= injective or comm-reduce
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.exp' not fused into its post-dominator 'graph.softmax': the relation to the post-dominator is opaque (set by the edge into 'graph.softmax'); an elemwise/broadcast op needs <= injective or comm-reduce
func.func @elemwise_to_opaque(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.softmax %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// elemwise -> tuple: fused (phase 2).
// CHECK-LABEL: func.func @elemwise_to_tuple(
// CHECK-NEXT:    %[[R:.*]] = call @fused_exp_concat(
// CHECK-NEXT:    return %[[R]]
func.func @elemwise_to_tuple(%x: tensor<4x8xf32>, %u: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %p = graph.exp %x : tensor<4x8xf32>
  %c = graph.concat %p, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// broadcast -> elemwise: fused (phase 0).
// CHECK-LABEL: func.func @broadcast_to_elemwise(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add_relu(
// CHECK-NEXT:    return %[[R]]
func.func @broadcast_to_elemwise(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.relu %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// broadcast -> broadcast: fused (phase 0).
// CHECK-LABEL: func.func @broadcast_to_broadcast(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add_add(
// CHECK-NEXT:    return %[[R]]
func.func @broadcast_to_broadcast(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %z: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.add %p, %z : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %c : tensor<3x4x8xf32>
}

// -----

// broadcast -> injective: fused (phase 0).
// CHECK-LABEL: func.func @broadcast_to_injective(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add_reshape(
// CHECK-NEXT:    return %[[R]]
func.func @broadcast_to_injective(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<32xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.reshape %p {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// broadcast -> comm-reduce: fused (phase 0).
// CHECK-LABEL: func.func @broadcast_to_comm_reduce(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add_sum(
// CHECK-NEXT:    return %[[R]]
func.func @broadcast_to_comm_reduce(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.sum %p {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// broadcast -> out-elemwise-fusable: refused: its relation to dense is out-elemwise-
// fusable; a broadcast op fuses only into injective or reduction relations.
// CHECK-LABEL: func.func @broadcast_to_out_elemwise_fusable(
// CHECK-NEXT:    %[[P:.*]] = call @fused_add(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.add' not fused into its post-dominator 'graph.dense': the relation to the post-dominator is out-elemwise-fusable (set by the edge into 'graph.dense'); an elemwise/broadcast op needs <= injective or comm-reduce
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.add' not fused into its post-dominator 'graph.dense': the relation to the post-dominator is out-elemwise-fusable (set by the edge into 'graph.dense'); an elemwise/broadcast op needs <= injective or comm-reduce
func.func @broadcast_to_out_elemwise_fusable(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %v: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.dense %p, %v : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// broadcast -> opaque: refused: softmax is opaque.
// CHECK-LABEL: func.func @broadcast_to_opaque(
// CHECK-NEXT:    %[[P:.*]] = call @fused_add(
// CHECK-NEXT:    %[[R:.*]] = call @fused_softmax(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.add' not fused into its post-dominator 'graph.softmax': the relation to the post-dominator is opaque (set by the edge into 'graph.softmax'); an elemwise/broadcast op needs <= injective or comm-reduce
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.add' not fused into its post-dominator 'graph.softmax': the relation to the post-dominator is opaque (set by the edge into 'graph.softmax'); an elemwise/broadcast op needs <= injective or comm-reduce
func.func @broadcast_to_opaque(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.softmax %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// broadcast -> tuple: fused (phase 2).
// CHECK-LABEL: func.func @broadcast_to_tuple(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add_concat(
// CHECK-NEXT:    return %[[R]]
func.func @broadcast_to_tuple(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %u: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %p = graph.add %x, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.concat %p, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// injective -> elemwise: fused (phase 1).
// CHECK-LABEL: func.func @injective_to_elemwise(
// CHECK-NEXT:    %[[R:.*]] = call @fused_transpose_relu(
// CHECK-NEXT:    return %[[R]]
func.func @injective_to_elemwise(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.relu %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// injective -> broadcast: fused (phase 1).
// CHECK-LABEL: func.func @injective_to_broadcast(
// CHECK-NEXT:    %[[R:.*]] = call @fused_transpose_add(
// CHECK-NEXT:    return %[[R]]
func.func @injective_to_broadcast(%x: tensor<8x4xf32>, %z: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.add %p, %z : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %c : tensor<3x4x8xf32>
}

// -----

// injective -> injective: fused (phase 1).
// CHECK-LABEL: func.func @injective_to_injective(
// CHECK-NEXT:    %[[R:.*]] = call @fused_transpose_reshape(
// CHECK-NEXT:    return %[[R]]
func.func @injective_to_injective(%x: tensor<8x4xf32>) -> tensor<32xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.reshape %p {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// injective -> comm-reduce: refused: an injective op fuses (phase 1) only when every
// node up to and including the sink is at most injective: TVM never puts it in a
// reduction's kernel.
// CHECK-LABEL: func.func @injective_to_comm_reduce(
// CHECK-NEXT:    %[[P:.*]] = call @fused_transpose(
// CHECK-NEXT:    %[[R:.*]] = call @fused_sum(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.transpose' not fused into its post-dominator 'graph.sum': the post-dominator 'graph.sum' is in a comm-reduce group; needs <= injective (path 'graph.transpose' -> 'graph.sum')
func.func @injective_to_comm_reduce(%x: tensor<8x4xf32>) -> tensor<4xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.sum %p {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// injective -> out-elemwise-fusable: refused: the sink, dense, is out-elemwise-
// fusable: more than injective.
// CHECK-LABEL: func.func @injective_to_out_elemwise_fusable(
// CHECK-NEXT:    %[[P:.*]] = call @fused_transpose(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.transpose' not fused into its post-dominator 'graph.dense': the post-dominator 'graph.dense' is in an out-elemwise-fusable group; needs <= injective (path 'graph.transpose' -> 'graph.dense')
func.func @injective_to_out_elemwise_fusable(%x: tensor<8x4xf32>, %v: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.dense %p, %v : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// injective -> opaque: refused: the sink is opaque.
// CHECK-LABEL: func.func @injective_to_opaque(
// CHECK-NEXT:    %[[P:.*]] = call @fused_transpose(
// CHECK-NEXT:    %[[R:.*]] = call @fused_softmax(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 4]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.transpose' not fused into its post-dominator 'graph.softmax': the post-dominator 'graph.softmax' is in an opaque group; needs <= injective (path 'graph.transpose' -> 'graph.softmax')
func.func @injective_to_opaque(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.softmax %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// injective -> tuple: fused (phase 2).
// CHECK-LABEL: func.func @injective_to_tuple(
// CHECK-NEXT:    %[[R:.*]] = call @fused_transpose_concat(
// CHECK-NEXT:    return %[[R]]
func.func @injective_to_tuple(%x: tensor<8x4xf32>, %u: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %p = graph.transpose %x {axes = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %c = graph.concat %p, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// comm-reduce -> elemwise: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_elemwise(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_relu(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.relu': comm-reduce ops never start a fusion
func.func @comm_reduce_to_elemwise(%x: tensor<4x8x2xf32>) -> tensor<4x8xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.relu %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// comm-reduce -> broadcast: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_broadcast(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.add': comm-reduce ops never start a fusion
func.func @comm_reduce_to_broadcast(%x: tensor<4x8x2xf32>, %z: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.add %p, %z : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %c : tensor<3x4x8xf32>
}

// -----

// comm-reduce -> injective: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_injective(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_reshape(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.reshape': comm-reduce ops never start a fusion
func.func @comm_reduce_to_injective(%x: tensor<4x8x2xf32>) -> tensor<32xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.reshape %p {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// comm-reduce -> comm-reduce: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_comm_reduce(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_sum_1(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.sum': comm-reduce ops never start a fusion
func.func @comm_reduce_to_comm_reduce(%x: tensor<4x8x2xf32>) -> tensor<4xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.sum %p {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// comm-reduce -> out-elemwise-fusable: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_out_elemwise_fusable(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.dense': comm-reduce ops never start a fusion
func.func @comm_reduce_to_out_elemwise_fusable(%x: tensor<4x8x2xf32>, %v: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.dense %p, %v : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// comm-reduce -> opaque: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_opaque(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_softmax(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator 'graph.softmax': comm-reduce ops never start a fusion
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @comm_reduce_to_opaque(%x: tensor<4x8x2xf32>) -> tensor<4x8xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.softmax %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// comm-reduce -> tuple: refused: comm-reduce ops never start a fusion.
// CHECK-LABEL: func.func @comm_reduce_to_tuple(
// CHECK-NEXT:    %[[P:.*]] = call @fused_sum(
// CHECK-NEXT:    %[[R:.*]] = call @fused_concat(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.sum' not fused into its post-dominator the operand tuple of 'graph.concat': nodes do not fuse into a tuple in phases 0 and 1
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.sum' not fused into its post-dominator the operand tuple of 'graph.concat': nodes do not fuse into a tuple in phases 0 and 1
func.func @comm_reduce_to_tuple(%x: tensor<4x8x2xf32>, %u: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %p = graph.sum %x {axes = array<i64: 2>} : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %c = graph.concat %p, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// out-elemwise-fusable -> elemwise: fused (phase 0).
// CHECK-LABEL: func.func @out_elemwise_fusable_to_elemwise(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense_relu(
// CHECK-NEXT:    return %[[R]]
func.func @out_elemwise_fusable_to_elemwise(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.relu %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// out-elemwise-fusable -> broadcast: refused: the add reads dense's result broadcast
// (to 3x4x8): the relation must be elemwise.
// CHECK-LABEL: func.func @out_elemwise_fusable_to_broadcast(
// CHECK-NEXT:    %[[P:.*]] = call @fused_dense(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.dense' not fused into its post-dominator 'graph.add': the relation to the post-dominator is broadcast (set by the edge into 'graph.add'); an out-elemwise-fusable op needs elemwise
func.func @out_elemwise_fusable_to_broadcast(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %z: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.add %p, %z : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %c : tensor<3x4x8xf32>
}

// -----

// out-elemwise-fusable -> broadcast read at its own shape (an elemwise edge): fused
// (phase 0).
// CHECK-LABEL: func.func @out_elemwise_fusable_to_broadcast_same_shape(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense_add(
// CHECK-NEXT:    return %[[R]]
func.func @out_elemwise_fusable_to_broadcast_same_shape(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.add %p, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// out-elemwise-fusable -> injective: refused: the relation is injective; dense fuses
// only into an elemwise relation.
// CHECK-LABEL: func.func @out_elemwise_fusable_to_injective(
// CHECK-NEXT:    %[[P:.*]] = call @fused_dense(
// CHECK-NEXT:    %[[R:.*]] = call @fused_reshape(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.dense' not fused into its post-dominator 'graph.reshape': the relation to the post-dominator is injective (set by the edge into 'graph.reshape'); an out-elemwise-fusable op needs elemwise
func.func @out_elemwise_fusable_to_injective(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<32xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.reshape %p {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// out-elemwise-fusable -> comm-reduce: refused: the relation is comm-reduce; dense
// fuses only into an elemwise relation.
// CHECK-LABEL: func.func @out_elemwise_fusable_to_comm_reduce(
// CHECK-NEXT:    %[[P:.*]] = call @fused_dense(
// CHECK-NEXT:    %[[R:.*]] = call @fused_sum(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.dense' not fused into its post-dominator 'graph.sum': the relation to the post-dominator is comm-reduce (set by the edge into 'graph.sum'); an out-elemwise-fusable op needs elemwise
func.func @out_elemwise_fusable_to_comm_reduce(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.sum %p {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// out-elemwise-fusable -> out-elemwise-fusable: refused: two anchors never share a
// kernel: the relation is out-elemwise-fusable.
// CHECK-LABEL: func.func @out_elemwise_fusable_to_out_elemwise_fusable(
// CHECK-NEXT:    %[[P:.*]] = call @fused_dense(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense_1(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.dense' not fused into its post-dominator 'graph.dense': the relation to the post-dominator is out-elemwise-fusable (set by the edge into 'graph.dense'); an out-elemwise-fusable op needs elemwise
func.func @out_elemwise_fusable_to_out_elemwise_fusable(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %v: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.dense %p, %v : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// out-elemwise-fusable -> opaque: refused: the relation is opaque.
// CHECK-LABEL: func.func @out_elemwise_fusable_to_opaque(
// CHECK-NEXT:    %[[P:.*]] = call @fused_dense(
// CHECK-NEXT:    %[[R:.*]] = call @fused_softmax(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.dense' not fused into its post-dominator 'graph.softmax': the relation to the post-dominator is opaque (set by the edge into 'graph.softmax'); an out-elemwise-fusable op needs elemwise
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @out_elemwise_fusable_to_opaque(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.softmax %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// out-elemwise-fusable -> tuple: refused: nothing fuses into a tuple in phases 0-1,
// and in phase 2 only injective-or-lower fields join.
// CHECK-LABEL: func.func @out_elemwise_fusable_to_tuple(
// CHECK-NEXT:    %[[P:.*]] = call @fused_dense(
// CHECK-NEXT:    %[[R:.*]] = call @fused_concat(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.dense' not fused into its post-dominator the operand tuple of 'graph.concat': nodes do not fuse into a tuple in phases 0 and 1
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 1: 'graph.dense' not fused into its post-dominator the operand tuple of 'graph.concat': nodes do not fuse into a tuple in phases 0 and 1
func.func @out_elemwise_fusable_to_tuple(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %u: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %p = graph.dense %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %c = graph.concat %p, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// opaque -> elemwise: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_elemwise(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_relu(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_elemwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.relu %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// opaque -> broadcast: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_broadcast(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_add(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_broadcast(%x: tensor<4x8xf32>, %z: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.add %p, %z : (tensor<4x8xf32>, tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  return %c : tensor<3x4x8xf32>
}

// -----

// opaque -> injective: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_injective(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_reshape(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_injective(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.reshape %p {shape = array<i64: 32>} : tensor<4x8xf32> -> tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// opaque -> comm-reduce: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_comm_reduce(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_sum(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_comm_reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.sum %p {axes = array<i64: 1>} : tensor<4x8xf32> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// opaque -> out-elemwise-fusable: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_out_elemwise_fusable(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_dense(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_out_elemwise_fusable(%x: tensor<4x8xf32>, %v: tensor<3x8xf32>) -> tensor<4x3xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.dense %p, %v : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// opaque -> opaque: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_opaque(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_softmax_1(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 3]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_opaque(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.softmax %p : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// opaque -> tuple: refused: softmax is opaque: it never fuses.
// CHECK-LABEL: func.func @opaque_to_tuple(
// CHECK-NEXT:    %[[P:.*]] = call @fused_softmax(
// CHECK-NEXT:    %[[R:.*]] = call @fused_concat(%[[P]]
// CHECK-NEXT:    return %[[R]]
// REMARK: fuse-ops-pairs.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.softmax' not fused: it is opaque: opaque ops are never fused
func.func @opaque_to_tuple(%x: tensor<4x8xf32>, %u: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %p = graph.softmax %x : tensor<4x8xf32>
  %c = graph.concat %p, %u : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
