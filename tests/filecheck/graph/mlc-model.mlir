// mlc-model: the acceptance networks through graph-optimize, as a user runs them.
// RUN: mlc-model resnet18 | filecheck %s --check-prefix=RESNET
// RUN: mlc-model mlp --check | filecheck %s --check-prefix=MLP
// RUN: mlc-model mobilenet_v2 | filecheck %s --check-prefix=MOBILENET
// RUN: mlc-model transformer | filecheck %s --check-prefix=TRANSFORMER
// RUN: mlc-model --list | filecheck %s --check-prefix=LIST
// The emitted text (weights as dense_resource blobs) reads back into mlc-opt and
// optimises to the same kernels.
// RUN: mlc-model mlp -p '' --emit %t.mlir
// RUN: mlc-opt %t.mlir -p graph-optimize | filecheck %s --check-prefix=EMITTED
// On stdout (the report on stderr), for a pipe.
// RUN: mlc-model mlp -p '' --emit - 2>%t.report | mlc-opt -p graph-optimize | filecheck %s --check-prefix=EMITTED
// RUN: filecheck %s --check-prefix=REPORT < %t.report
// RUN: not mlc-model nosuch 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not mlc-model mlp -p nonsense 2>&1 | filecheck %s --check-prefix=BADPIPE
// RUN: not mlc-model mlp -p '' --emit %t.missing/x.mlir 2>&1 | filecheck %s --check-prefix=BADOUT

// RESNET: resnet18: {{.*}} graph.conv2d 20, graph.relu 17, graph.add 8
// RESNET: 24 kernels:
// RESNET-NEXT:      9  fused_conv2d_add_relu
// RESNET-NEXT:      8  fused_conv2d_add_add_relu
// RESNET-NEXT:      3  fused_conv2d_add

// REPORT: mlp: 9 ops in @main (graph.constant 4, graph.bias_add 2, graph.dense 2, graph.relu 1)

// MLP: 2 kernels:
// MLP-NEXT: 1  fused_dense_bias_add
// MLP-NEXT: 1  fused_dense_bias_add_relu
// MLP: check passed: outputs equal the unoptimised program's within rtol=1e-4, atol=1e-5

// MOBILENET: 34 kernels:
// MOBILENET-NEXT: 21  fused_conv2d_add_clip
// TRANSFORMER: 15 kernels:

// LIST: tutorial
// LIST: resnet18

// EMITTED-COUNT-2: attributes {graph.primitive}
// EMITTED-NOT: attributes {graph.primitive}

// UNKNOWN: mlc-model: error: no example network 'nosuch'; known: tutorial, mlp, resnet18
// BADPIPE:      <pipeline>:1:1: error: 'nonsense' does not refer to a registered pass or pass pipeline
// BADPIPE-NEXT: nonsense
// BADPIPE-NEXT: {{^\^$}}
// BADOUT: mlc-model: error: cannot write
