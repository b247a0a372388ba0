// The whole path from graph to MLIR's standard dialects on a small MLP: fusion,
// graph-lower-to-loop, memory planning, loop-lower and canonicalize, with the
// interpreter checking after every pass that @main computes the same (no warning:
// every stage ran). mlir-opt-22 reads the result.
// RUN: mlc-opt %s -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower,canonicalize' --check-semantics 2>&1 | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s -p 'graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower,canonicalize' | %mlir_opt -o /dev/null %}

func.func @main(%x: tensor<1x8xf32>) -> tensor<1x4xf32> {
  %w1 = graph.constant dense<0.25> : tensor<6x8xf32>
  %b1 = graph.constant dense<[0.5, -0.5, 1.0, -1.0, 0.0, 2.0]> : tensor<6xf32>
  %w2 = graph.constant dense<-0.125> : tensor<4x6xf32>
  %b2 = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = graph.dense %x, %w1 : (tensor<1x8xf32>, tensor<6x8xf32>) -> tensor<1x6xf32>
  %1 = graph.bias_add %0, %b1 : (tensor<1x6xf32>, tensor<6xf32>) -> tensor<1x6xf32>
  %2 = graph.relu %1 : tensor<1x6xf32>
  %3 = graph.dense %2, %w2 : (tensor<1x6xf32>, tensor<4x6xf32>) -> tensor<1x4xf32>
  %4 = graph.bias_add %3, %b2 : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %4 : tensor<1x4xf32>
}

// CHECK-NOT: warning
// CHECK-NOT: error
// CHECK: memref.global "private" constant
// CHECK-LABEL: func.func @main(%x: memref<1x8xf32>, %out: memref<1x4xf32>)
// CHECK: memref.get_global
// CHECK: call @fused_dense_bias_add_relu(
// CHECK: call @fused_dense_bias_add(
// CHECK-NOT: loop.
