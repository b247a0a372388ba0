// The program of TVM's pass-infrastructure tutorial (fusion-examples.md §1) under
// each pipeline and opt level the tutorial shows.
// RUN: mlc-opt %s --graph-fold-constant | filecheck %s --check-prefix=FOLD
// RUN: mlc-opt %s -p 'graph-fold-constant,graph-fuse-ops{opt-level=0}' | filecheck %s --check-prefix=ALONE
// RUN: mlc-opt %s --opt-level 2 -p 'graph-fold-constant,cse,graph-fuse-ops' | filecheck %s --check-prefix=LEVEL2
// RUN: mlc-opt %s --opt-level 2 -p 'graph-fold-constant,cse,graph-fuse-ops' --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP
// RUN: mlc-opt %s --opt-level 3 -p 'graph-fold-constant,cse,graph-fuse-ops' | filecheck %s --check-prefix=LEVEL3
// RUN: mlc-opt %s --opt-level 3 --disable-pass cse -p 'graph-fold-constant,cse,graph-fuse-ops' | filecheck %s --check-prefix=LEVEL2
// RUN: mlc-opt %s -p 'graph-alter-op-layout,graph-optimize' | filecheck %s --check-prefix=BLOCKED

// fold-constant: add(c, c) and multiply(..., 2) become one constant c1.
// FOLD-LABEL: func.func @main(
// FOLD-DAG:     %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<1x64x54x54xf32>
// FOLD-DAG:     %[[C1:.*]] = graph.constant dense<4.000000e+00> : tensor<1x64x54x54xf32>
// FOLD-DAG:     %[[CONV:.*]] = graph.conv2d %x, %weight
// FOLD:         %[[Y:.*]] = graph.add %[[CONV]], %[[C1]]
// FOLD-NEXT:    %[[Z:.*]] = graph.add %[[Y]], %[[C]]
// FOLD-NEXT:    %[[Z1:.*]] = graph.add %[[Y]], %[[C]]
// FOLD-NEXT:    %[[Z2:.*]] = graph.add %[[Z]], %[[Z1]]
// FOLD-NEXT:    return %[[Z2]]
// FOLD-NOT:     graph.multiply

// fuse_opt_level=0: every remaining op alone in a primitive function.
// ALONE-LABEL: func.func @main(
// ALONE:         call @fused_conv2d(%x, %weight)
// ALONE-NEXT:    call @fused_add(
// ALONE-NEXT:    call @fused_add_1(
// ALONE-NEXT:    call @fused_add_2(
// ALONE-NEXT:    call @fused_add_3(
// ALONE-NEXT:    return
// ALONE-COUNT-5: attributes {graph.primitive}

// Opt level 2: cse (level 3) is skipped, so one kernel holds conv2d and four adds,
// with four parameters (x, weight, the folded constant, c).
// LEVEL2-LABEL: func.func @main(
// LEVEL2:         %[[R:.*]] = call @fused_conv2d_add_add_add_add(%x, %weight, %{{.*}}, %{{.*}})
// LEVEL2-NEXT:    return %[[R]]
// LEVEL2:       func.func private @fused_conv2d_add_add_add_add(%p0: {{.*}}, %p1: {{.*}}, %p2: {{.*}}, %p3: {{.*}}) -> tensor<1x64x54x54xf32> attributes {graph.primitive}
// LEVEL2-NEXT:    %[[CONV:.*]] = graph.conv2d %p0, %p1
// LEVEL2-NEXT:    %[[Y:.*]] = graph.add %[[CONV]], %p2
// LEVEL2-NEXT:    %[[Z:.*]] = graph.add %[[Y]], %p3
// LEVEL2-NEXT:    %[[Z1:.*]] = graph.add %[[Y]], %p3
// LEVEL2-NEXT:    %[[Z2:.*]] = graph.add %[[Z]], %[[Z1]]
// LEVEL2-NEXT:    return %[[Z2]]

// SKIP: cse{{.*}}opt level 3 > 2

// Opt level 3: cse merges the two add(y, c); three adds, the last add(%z, %z).
// LEVEL3-LABEL: func.func @main(
// LEVEL3:         call @fused_conv2d_add_add_add(%x, %weight, %{{.*}}, %{{.*}})
// LEVEL3:       func.func private @fused_conv2d_add_add_add(%p0: {{.*}}, %p1: {{.*}}, %p2: {{.*}}, %p3: {{.*}})
// LEVEL3-NEXT:    %[[CONV:.*]] = graph.conv2d %p0, %p1
// LEVEL3-NEXT:    %[[Y:.*]] = graph.add %[[CONV]], %p2
// LEVEL3-NEXT:    %[[Z:.*]] = graph.add %[[Y]], %p3
// LEVEL3-NEXT:    %[[Z2:.*]] = graph.add %[[Z]], %[[Z]]
// LEVEL3-NEXT:    return %[[Z2]]
// alter-op-layout then the whole graph pipeline: the blocked conv2d and its adds are
// one kernel, the layout changes at the boundaries kernels of their own.
// BLOCKED-LABEL: func.func @main(
// BLOCKED:         %[[X:.*]] = call @fused_layout_transform(%x) : (tensor<1x64x56x56xf32>) -> tensor<1x4x56x56x16xf32>
// BLOCKED-NEXT:    %[[W:.*]] = call @fused_layout_transform_1(%weight)
// BLOCKED-NEXT:    %[[Y:.*]] = call @fused_conv2d_add_add_add(%[[X]], %[[W]], %{{.*}}, %{{.*}}) : {{.*}} -> tensor<1x4x54x54x16xf32>
// BLOCKED-NEXT:    %[[R:.*]] = call @fused_layout_transform_2(%[[Y]]) : (tensor<1x4x54x54x16xf32>) -> tensor<1x64x54x54xf32>
// BLOCKED-NEXT:    return %[[R]]
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
