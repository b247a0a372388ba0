// graph-fuse-ops on a function of several blocks fuses within each block, as Relax
// fuses each dataflow block: a kernel is straight-line code. A value a block reads
// from another is a parameter of its kernels; a value another block reads leaves its
// own block, so it does not fuse into its consumers there (a remark says why).
// RUN: mlc-opt %s --allow-unregistered-dialect --graph-fuse-ops | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --graph-fuse-ops --fusion-remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @two_blocks(
// CHECK-NEXT:    %[[R:.*]] = call @fused_relu(%x)
// CHECK-NEXT:    %[[E:.*]] = call @fused_exp_tanh(%[[R]])
// CHECK-NEXT:    cf.br ^bb1(%[[E]] : tensor<4xf32>)
// CHECK-NEXT:  ^bb1(%a: tensor<4xf32>):
// CHECK-NEXT:    %[[S:.*]] = call @fused_exp_add(%a, %[[R]])
// CHECK-NEXT:    return %[[S]]
// The kernels follow the function, in block order.
// CHECK:       func.func private @fused_relu(
// CHECK:       func.func private @fused_exp_tanh(
// CHECK:       func.func private @fused_exp_add(
// REMARK: fuse-ops-blocks.mlir:[[# @LINE + 2]]:{{[0-9]+}}: remark: graph-fuse-ops: phase 0: 'graph.relu' not fused: it has no post-dominator: its result is also used outside its block (returned, or read by another block or inside a region)
func.func @two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : tensor<4xf32>
  %1 = graph.exp %0 : tensor<4xf32>
  %2 = graph.tanh %1 : tensor<4xf32>
  cf.br ^bb1(%2 : tensor<4xf32>)
^bb1(%a: tensor<4xf32>):
  %3 = graph.exp %a : tensor<4xf32>
  %4 = graph.add %3, %0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// A conditional branch to two blocks, each with its own chain; the condition's
// producer stays in the entry block. (The branch is an unregistered op: cf.cond_br
// branches on an i1, not on a tensor.)
// CHECK-LABEL: func.func @diamond(
// CHECK-NEXT:    %[[C:.*]] = call @fused_greater(%x, %y)
// CHECK-NEXT:    "test.tensor_cond_br"(%[[C]], %x, %y)[^bb1, ^bb2]
// CHECK-NEXT:  ^bb1(%p: tensor<4xf32>):
// CHECK-NEXT:    %[[A:.*]] = call @fused_exp_relu(%p)
// CHECK-NEXT:    return %[[A]]
// CHECK-NEXT:  ^bb2(%q: tensor<4xf32>):
// CHECK-NEXT:    %[[B:.*]] = call @fused_neg_sigmoid(%q)
// CHECK-NEXT:    return %[[B]]
func.func @diamond(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.greater %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  "test.tensor_cond_br"(%c, %x, %y)[^bb1, ^bb2] : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> ()
^bb1(%p: tensor<4xf32>):
  %0 = graph.exp %p : tensor<4xf32>
  %1 = graph.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
^bb2(%q: tensor<4xf32>):
  %2 = graph.neg %q : tensor<4xf32>
  %3 = graph.sigmoid %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
