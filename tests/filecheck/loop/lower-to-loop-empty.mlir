// Tensors without elements: an op or fused function whose results are all empty
// has nothing to compute, so it gets no kernel and no call; its buffers stay (a
// memref of zero elements). The rest lowers as usual, the interpreter agrees after
// every pass, and mlir-opt-22 reads the result. (An empty tensor feeding a non-empty
// result is refused: see lower-to-loop-invalid.mlir.)
// RUN: mlc-opt %s -p 'graph-lower-to-loop' | filecheck %s --check-prefix=LOOSE
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower,canonicalize' --check-semantics 2>&1 | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower,canonicalize' | %mlir_opt -o /dev/null %}

func.func @main(%x: tensor<0x3xf32>, %y: tensor<2x3xf32>) -> (tensor<0x3xf32>, tensor<2x3xf32>, tensor<0x3xf32>) {
  %0 = graph.exp %x : tensor<0x3xf32>
  %1 = graph.relu %0 : tensor<0x3xf32>
  %2 = graph.tanh %y : tensor<2x3xf32>
  return %1, %2, %x : tensor<0x3xf32>, tensor<2x3xf32>, tensor<0x3xf32>
}

// LOOSE-NOT:   func.func private @exp
// LOOSE-NOT:   func.func private @relu
// LOOSE-LABEL: func.func @main(%x: memref<0x3xf32>, %y: memref<2x3xf32>, %out0: memref<0x3xf32>, %out1: memref<2x3xf32>, %out2: memref<0x3xf32>) {
// LOOSE-NEXT:    %0 = loop.alloc_buffer : memref<0x3xf32>
// LOOSE-NEXT:    call @tanh(%y, %out1)
// LOOSE-NEXT:    return

// CHECK-NOT:   warning
// CHECK-NOT:   error
// CHECK-LABEL: func.func @main(%x: memref<0x3xf32>, %y: memref<2x3xf32>, %out0: memref<0x3xf32>, %out1: memref<2x3xf32>, %out2: memref<0x3xf32>) {
// CHECK-NEXT:    call @fused_tanh(%y, %out1)
// CHECK-NEXT:    return
