// The acceptance networks at their full sizes through the whole loop pipeline,
// graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower, as mlc-model writes
// them: kernel calls, distinct kernels (the structural cache: ResNet-18's 24 fused
// functions need 19 kernels) and the bytes loop-plan-memory plans, before and after
// sharing (every function's top-level buffers: @main's activations and each kernel's
// accumulation and padding buffers), from the passes' statistics. Nothing of the loop dialect is
// left, and mlir-opt-22 reads every result. The interpreter is too slow for these
// widths; the small transformer runs under --check-semantics, pass by pass.
//
// RUN: mlc-model resnet18 -p '' --emit - 2>/dev/null | mlc-opt -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower' --pass-statistics -o %t.resnet18.mlir 2>&1 | filecheck %s --check-prefix=RESNET
// RUN: not grep -E "(^|= )loop\." %t.resnet18.mlir
// RUN: %if mlir-opt %{ %mlir_opt %t.resnet18.mlir -o /dev/null %}
// RUN: rm %t.resnet18.mlir
//
// RUN: mlc-model mobilenet_v2 -p '' --emit - 2>/dev/null | mlc-opt -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower' --pass-statistics -o %t.mobilenet.mlir 2>&1 | filecheck %s --check-prefix=MOBILENET
// RUN: not grep -E "(^|= )loop\." %t.mobilenet.mlir
// RUN: %if mlir-opt %{ %mlir_opt %t.mobilenet.mlir -o /dev/null %}
// RUN: rm %t.mobilenet.mlir
//
// RUN: mlc-model transformer -p '' --emit - 2>/dev/null | mlc-opt -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower' --pass-statistics -o %t.transformer.mlir 2>&1 | filecheck %s --check-prefix=TRANSFORMER
// RUN: not grep -E "(^|= )loop\." %t.transformer.mlir
// RUN: %if mlir-opt %{ %mlir_opt %t.transformer.mlir -o /dev/null %}
// RUN: rm %t.transformer.mlir
//
// RUN: mlc-model mlp -p '' --emit - 2>/dev/null | mlc-opt -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower' --pass-statistics -o %t.mlp.mlir 2>&1 | filecheck %s --check-prefix=MLP
// RUN: not grep -E "(^|= )loop\." %t.mlp.mlir
// RUN: %if mlir-opt %{ %mlir_opt %t.mlp.mlir -o /dev/null %}
//
// RUN: mlc-model transformer --param seq=4 --param hidden=8 --param heads=2 --param ffn=8 -p '' --emit - 2>/dev/null | mlc-opt -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower' --check-semantics -o /dev/null 2>&1 | filecheck %s --check-prefix=SEMANTICS --allow-empty

// RESNET:      graph-fuse-ops
// RESNET-NEXT:   (24) num-kernels - kernels (primitive functions) created
// RESNET:      graph-lower-to-loop
// RESNET-NEXT:   (24) num-calls - kernel calls in the lowered functions
// RESNET-NEXT:   (19) num-kernels - distinct kernels
// RESNET-NEXT:   (24) num-primitives - graph.primitive functions lowered
// RESNET-NEXT: loop-plan-memory
// RESNET-NEXT:   (27420496) num-bytes-before - bytes of the planned buffers, each apart
// RESNET-NEXT:   (21495632) num-bytes-after - bytes of the storages they share
// RESNET-NEXT:   (53) num-buffers - buffers planned
// RESNET-NEXT:   (33) num-storages - storages they share

// MOBILENET:      graph-fuse-ops
// MOBILENET-NEXT:   (34) num-kernels - kernels (primitive functions) created
// MOBILENET:      graph-lower-to-loop
// MOBILENET-NEXT:   (34) num-calls - kernel calls in the lowered functions
// MOBILENET-NEXT:   (23) num-kernels - distinct kernels
// MOBILENET-NEXT:   (34) num-primitives - graph.primitive functions lowered
// MOBILENET-NEXT: loop-plan-memory
// MOBILENET-NEXT:   (53880784) num-bytes-before - bytes of the planned buffers, each apart
// MOBILENET-NEXT:   (39319504) num-bytes-after - bytes of the storages they share
// MOBILENET-NEXT:   (63) num-buffers - buffers planned
// MOBILENET-NEXT:   (33) num-storages - storages they share

// TRANSFORMER:      graph-fuse-ops
// TRANSFORMER-NEXT:   (15) num-kernels - kernels (primitive functions) created
// TRANSFORMER:      graph-lower-to-loop
// TRANSFORMER-NEXT:   (15) num-calls - kernel calls in the lowered functions
// TRANSFORMER-NEXT:   (10) num-kernels - distinct kernels
// TRANSFORMER-NEXT:   (15) num-primitives - graph.primitive functions lowered
// TRANSFORMER-NEXT: loop-plan-memory
// TRANSFORMER-NEXT:   (3675136) num-bytes-before - bytes of the planned buffers, each apart
// TRANSFORMER-NEXT:   (2233344) num-bytes-after - bytes of the storages they share
// TRANSFORMER-NEXT:   (23) num-buffers - buffers planned
// TRANSFORMER-NEXT:   (13) num-storages - storages they share

// The MLP's one intermediate (1x128 f32) and its kernels' two accumulation buffers
// (1x128 and 1x10 f32) live at the same time in their own functions: nothing shared.
// MLP:      graph-lower-to-loop
// MLP-NEXT:   (2) num-calls - kernel calls in the lowered functions
// MLP-NEXT:   (2) num-kernels - distinct kernels
// MLP-NEXT:   (2) num-primitives - graph.primitive functions lowered
// MLP-NEXT: loop-plan-memory
// MLP-NEXT:   (1064) num-bytes-before - bytes of the planned buffers, each apart
// MLP-NEXT:   (1064) num-bytes-after - bytes of the storages they share
// MLP-NEXT:   (3) num-buffers - buffers planned
// MLP-NEXT:   (3) num-storages - storages they share

// SEMANTICS-NOT: warning
// SEMANTICS-NOT: error
