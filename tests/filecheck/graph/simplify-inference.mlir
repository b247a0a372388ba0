// graph-simplify-inference: batch_norm becomes data * scale + shift with
// scale = gamma / sqrt(var + eps) and shift = beta - mean * scale, as graph ops on its
// operands reshaped to broadcast along its axis; dropout is its operand; layer_norm
// stays. With graph-fold-constant after it, constant statistics fold to two constants.
// RUN: mlc-opt %s --split-input-file --graph-simplify-inference | filecheck %s
// RUN: mlc-opt %s --split-input-file -p 'graph-simplify-inference,graph-fold-constant' | filecheck %s --check-prefix=FOLD
// RUN: mlc-opt %s --split-input-file --graph-simplify-inference --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// CHECK-LABEL: func.func @nchw(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2x3x3xf32>, %[[G:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[M:.*]]: tensor<2xf32>, %[[V:.*]]: tensor<2xf32>)
// CHECK-NEXT:    %[[EPS:.*]] = graph.constant dense<1.000000e-03> : tensor<f32>
// CHECK-NEXT:    %[[VE:.*]] = graph.add %[[V]], %[[EPS]] : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[SD:.*]] = graph.sqrt %[[VE]]
// CHECK-NEXT:    %[[SCALE:.*]] = graph.divide %[[G]], %[[SD]]
// CHECK-NEXT:    %[[MS:.*]] = graph.multiply %[[M]], %[[SCALE]]
// CHECK-NEXT:    %[[SHIFT:.*]] = graph.subtract %[[B]], %[[MS]]
// CHECK-NEXT:    %[[S3:.*]] = graph.reshape %[[SCALE]] {shape = array<i64: 2, 1, 1>} : tensor<2xf32> -> tensor<2x1x1xf32>
// CHECK-NEXT:    %[[B3:.*]] = graph.reshape %[[SHIFT]] {shape = array<i64: 2, 1, 1>} : tensor<2xf32> -> tensor<2x1x1xf32>
// CHECK-NEXT:    %[[XS:.*]] = graph.multiply %[[X]], %[[S3]] : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:    %bn = graph.add %[[XS]], %[[B3]] : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:    return %bn
func.func @nchw(%x: tensor<1x2x3x3xf32>, %gamma: tensor<2xf32>, %beta: tensor<2xf32>, %mean: tensor<2xf32>, %var: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %bn = graph.batch_norm %x, %gamma, %beta, %mean, %var {epsilon = 1.0e-3 : f32} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %bn : tensor<1x2x3x3xf32>
}

// -----

// Constant statistics on the last axis: no reshape, and fold-constant leaves one
// multiply and one add by constants. Dropout disappears.
// CHECK-LABEL: func.func @last_axis(
// CHECK-NOT:     graph.reshape
// CHECK-NOT:     graph.dropout
// CHECK:         return
// FOLD-LABEL:  func.func @last_axis(
// FOLD-NEXT:     %[[SCALE:.*]] = graph.constant dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>
// FOLD-NEXT:     %[[SHIFT:.*]] = graph.constant dense<[1.000000e+00, -4.000000e+00]> : tensor<2xf32>
// FOLD-NEXT:     %[[XS:.*]] = graph.multiply %x, %[[SCALE]]
// FOLD-NEXT:     %[[Y:.*]] = graph.add %[[XS]], %[[SHIFT]]
// FOLD-NEXT:     return %[[Y]]
func.func @last_axis(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %gamma = graph.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %beta = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.0, 2.0]> : tensor<2xf32>
  %var = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.dropout %x {rate = 0.2 : f32} : tensor<4x2xf32>
  %1 = graph.batch_norm %0, %gamma, %beta, %mean, %var {axis = -1 : i64, epsilon = 0.0 : f32} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// -----

// Negative: layer_norm is kept whole.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-NEXT:    %[[Y:.*]] = graph.layer_norm %x, %g, %b
// CHECK-NEXT:    return %[[Y]]
func.func @layer_norm(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = graph.layer_norm %x, %g, %b : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// STATS:      graph-simplify-inference
// STATS-NEXT:   (2) num-batch-norms - batch_norm ops rewritten
// STATS-NEXT:   (1) num-dropouts - dropout ops removed
