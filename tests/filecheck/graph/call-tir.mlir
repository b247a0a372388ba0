// graph.call_tir calls a primitive function of the module on buffers in
// destination-passing style (Relax's call_tir); graph-fuse-ops leaves it alone (an
// opaque kernel) and fuses around it; graph-lower-to-loop keeps the callee as the
// kernel and calls it on the operands' buffers and a buffer per result.
// RUN: mlc-opt %s | mlc-opt | filecheck %s --check-prefix=ROUNDTRIP
// RUN: mlc-opt %s -p 'graph-fuse-ops' | filecheck %s --check-prefix=FUSE
// RUN: mlc-opt %s -p 'graph-fuse-ops,graph-lower-to-loop' | filecheck %s --check-prefix=LOWER
// RUN: mlc-opt %s -p 'graph-fuse-ops,graph-lower-to-loop' --check-semantics -o /dev/null

func.func @relu0(%x: memref<1x4xf32>, %out: memref<1x4xf32>) {
  loop.for %i = 0 to 1 {
    loop.for %j = 0 to 4 {
      loop.block "relu"(%vi = spatial(1, %i), %vj = spatial(4, %j)) reads(%x[%vi, %vj]) writes(%out[%vi, %vj]) {
        %0 = loop.load %x[%vi, %vj] : memref<1x4xf32>
        %cst = arith.constant 0.000000e+00 : f32
        %1 = arith.maximumf %0, %cst : f32
        loop.store %1, %out[%vi, %vj] : memref<1x4xf32>
      }
    }
  }
  return
}

func.func @main(%x: tensor<1x4xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = graph.bias_add %x, %b : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %1 = graph.call_tir @relu0(%0) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = graph.exp %1 : tensor<1x4xf32>
  %3 = graph.neg %2 : tensor<1x4xf32>
  return %3 : tensor<1x4xf32>
}

// ROUNDTRIP: %1 = graph.call_tir @relu0(%0) : (tensor<1x4xf32>) -> tensor<1x4xf32>

// FUSE-LABEL: func.func @main
// FUSE-NEXT: %0 = call @fused_bias_add(%x, %b)
// FUSE-NEXT: %1 = graph.call_tir @relu0(%0) : (tensor<1x4xf32>) -> tensor<1x4xf32>
// FUSE-NEXT: %2 = call @fused_exp_neg(%1)

// LOWER-LABEL: func.func @relu0(%x: memref<1x4xf32>, %out: memref<1x4xf32>)
// LOWER: loop.block "relu"
// LOWER-LABEL: func.func @main(%x: memref<1x4xf32>, %b: memref<4xf32>, %out: memref<1x4xf32>)
// LOWER-NEXT: %0 = loop.alloc_buffer : memref<1x4xf32>
// LOWER-NEXT: call @fused_bias_add(%x, %b, %0)
// LOWER-NEXT: %1 = loop.alloc_buffer : memref<1x4xf32>
// LOWER-NEXT: call @relu0(%0, %1) : (memref<1x4xf32>, memref<1x4xf32>) -> ()
// LOWER-NEXT: call @fused_exp_neg(%1, %out)
// LOWER-NEXT: return
