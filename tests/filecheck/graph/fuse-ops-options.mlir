// graph-fuse-ops options: opt-level 0 keeps every op in a kernel of its own;
// max-depth caps the ops per kernel. An option given in the pipeline beats the
// PassContext (config keys graph.fuse-ops.max-depth and graph.fuse-ops.remarks, the
// opt level), which beats the default.
// RUN: mlc-opt %s -p 'graph-fuse-ops{opt-level=0}' | filecheck %s --check-prefix=LEVEL0
// RUN: mlc-opt %s -p 'graph-fuse-ops{max-depth=2}' | filecheck %s --check-prefix=DEPTH
// RUN: mlc-opt %s --graph-fuse-ops --pass-config graph.fuse-ops.max-depth=2 | filecheck %s --check-prefix=DEPTH
// RUN: mlc-opt %s --graph-fuse-ops | filecheck %s --check-prefix=DEFAULT
// Given explicitly, the default value beats the config key:
// RUN: mlc-opt %s -p 'graph-fuse-ops{max-depth=256}' --pass-config graph.fuse-ops.max-depth=2 | filecheck %s --check-prefix=DEFAULT
// RUN: mlc-opt %s -p 'graph-fuse-ops{max-depth=2}' --fusion-remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: mlc-opt %s -p 'graph-fuse-ops{max-depth=2}' --pass-config graph.fuse-ops.remarks=true 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: mlc-opt %s -p 'graph-fuse-ops{max-depth=2 remarks=false}' --fusion-remarks 2>&1 >/dev/null | filecheck %s --check-prefix=NO-REMARK --allow-empty
// --dump-pass-pipeline spells out the values the run uses, wherever they come from:
// RUN: mlc-opt %s -p graph-fuse-ops --opt-level 2 --pass-config graph.fuse-ops.max-depth=2 --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP-CONFIG
// RUN: mlc-opt %s -p 'graph-fuse-ops{max-depth=7 opt-level=1}' --opt-level 2 --pass-config graph.fuse-ops.max-depth=2 --fusion-remarks --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP-GIVEN
// RUN: mlc-opt %s -p graph-fuse-ops --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP-DEFAULT
// DUMP-CONFIG:  builtin.module(graph-fuse-ops{max-depth=2 opt-level=2 remarks=false})
// DUMP-GIVEN:   builtin.module(graph-fuse-ops{max-depth=7 opt-level=1 remarks=true})
// DUMP-DEFAULT: builtin.module(graph-fuse-ops{max-depth=256 opt-level=3 remarks=false})
// RUN: mlc-opt %s --graph-fuse-ops --opt-level 0 --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP

// LEVEL0:      call @fused_exp(
// LEVEL0-NEXT: call @fused_relu(
// LEVEL0-NEXT: call @fused_neg(
// LEVEL0-NEXT: call @fused_exp_1(

// DEPTH:      call @fused_exp_relu(
// DEPTH-NEXT: call @fused_neg_exp(

// DEFAULT:      call @fused_exp_relu_neg_exp(
// DEFAULT-NOT:  call

// REMARK: remark: graph-fuse-ops: phase 0: 'graph.relu' not fused into its post-dominator 'graph.neg': the group would exceed max-depth 2
// NO-REMARK-NOT: remark

// graph-fuse-ops has opt level 1: at --opt-level 0 it is skipped, and says so.
// SKIP: graph-fuse-ops{{.*}}opt level 1 > 0
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : tensor<4xf32>
  %1 = graph.relu %0 : tensor<4xf32>
  %2 = graph.neg %1 : tensor<4xf32>
  %3 = graph.exp %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
