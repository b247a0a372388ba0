// graph-fold-scale-axis: a per-output-channel constant scale of a single-use conv2d
// (any groups) or dense moves into its weights, also through an add or bias_add of
// a bias (scaled too); and the cases it must refuse. Opt level 3.
// RUN: mlc-opt %s --split-input-file --graph-fold-scale-axis | filecheck %s
// RUN: mlc-opt %s --split-input-file --graph-fold-scale-axis --opt-level 2 --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=SKIP
// RUN: mlc-opt %s --split-input-file --graph-fold-scale-axis --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file -p 'graph-simplify-inference,graph-fold-constant,graph-fold-scale-axis' | filecheck %s --check-prefix=PIPE
// Folding again changes nothing:
// RUN: mlc-opt %s --split-input-file --graph-fold-scale-axis | mlc-opt --split-input-file --graph-fold-scale-axis | filecheck %s

// SKIP: skipped pass 'graph-fold-scale-axis' {{.*}}: opt level 3 > 2

// Output channel o of the weight is multiplied by s[o]; W and s are gone.
// CHECK-LABEL: func.func @conv2d(
// CHECK-NEXT:    %w = graph.constant dense<{{\[\[\[\[}}2.000000e+00]], {{\[\[}}4.000000e+00]]], {{\[\[\[}}-3.000000e+00]], {{\[\[}}-1.500000e+00]]]]> : tensor<2x2x1x1xf32>
// CHECK-NEXT:    %y = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:    return %y
func.func @conv2d(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant dense<[[[[1.0]], [[2.0]]], [[[6.0]], [[3.0]]]]> : tensor<2x2x1x1xf32>
  %s = graph.constant dense<[[[2.0]], [[-0.5]]]> : tensor<2x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.multiply %0, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// Depthwise (groups = channels), a (1, C, 1, 1) scale on the left, through an add
// whose constant bias is scaled as the product was.
// CHECK-LABEL: func.func @depthwise_through_add(
// CHECK-NEXT:    %w = graph.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT:    %[[C:.*]] = graph.conv2d %x, %w {groups = 2 : i64}
// CHECK-NEXT:    %b = graph.constant dense<{{\[\[\[\[}}3.000000e+00]], {{\[\[}}-1.000000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK-NEXT:    %y = graph.add %[[C]], %b
// CHECK-NEXT:    return %y
func.func @depthwise_through_add(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[[[1.0]], [[-2.0]]]> : tensor<2x1x1xf32>
  %s = graph.constant dense<[[[[3.0]], [[0.5]]]]> : tensor<1x2x1x1xf32>
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.add %0, %b : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.multiply %s, %1 : (tensor<1x2x1x1xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// dense with bias_add, scaled per output feature: row n of W and b[n] times s[n].
// CHECK-LABEL: func.func @dense(
// CHECK-NEXT:    %w = graph.constant dense<{{\[}}[2.000000e+00, 4.000000e+00], [-1.000000e+00, -1.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dense %x, %w
// CHECK-NEXT:    %b = graph.constant dense<[2.000000e+00, -1.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %y = graph.bias_add %[[D]], %b {axis = -1 : i64}
// CHECK-NEXT:    return %y
func.func @dense(%x: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %w = graph.constant dense<[[1.0, 2.0], [1.0, 1.0], [0.0, 1.0]]> : tensor<3x2xf32>
  %b = graph.constant dense<[1.0, 1.0, 1.0]> : tensor<3xf32>
  %s = graph.constant dense<[[2.0, -1.0, 1.0]]> : tensor<1x3xf32>
  %0 = graph.dense %x, %w : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  %1 = graph.bias_add %0, %b {axis = -1 : i64} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %y = graph.multiply %1, %s : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// A weight that is a parameter: the scaling is emitted as graph ops on it.
// CHECK-LABEL: func.func @weight_parameter(
// CHECK:         %[[S:.*]] = graph.reshape %s {shape = array<i64: 2, 1, 1, 1>} : tensor<2x1x1xf32> -> tensor<2x1x1x1xf32>
// CHECK-NEXT:    %[[W:.*]] = graph.multiply %w, %[[S]] : (tensor<2x2x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<2x2x3x3xf32>
// CHECK-NEXT:    %y = graph.conv2d %x, %[[W]]
// CHECK-NEXT:    return %y
func.func @weight_parameter(%x: tensor<1x2x5x5xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %s = graph.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.multiply %0, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// Negative: the conv2d's result has another use (the unscaled value is still
// needed), and a scale that varies along H and W is not per channel.
// CHECK-LABEL: func.func @refused(
// CHECK:         %[[C:.*]] = graph.conv2d %x, %w
// CHECK-NEXT:    %[[M:.*]] = graph.multiply %[[C]], %s
// CHECK-NEXT:    %[[C2:.*]] = graph.conv2d %x, %w
// CHECK-NEXT:    %[[M2:.*]] = graph.multiply %[[C2]], %hw
// CHECK-NEXT:    return %[[M]], %[[C]], %[[M2]]
func.func @refused(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %s = graph.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %hw = graph.constant dense<2.0> : tensor<3x3xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.multiply %0, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %3 = graph.multiply %2, %hw : (tensor<1x2x3x3xf32>, tensor<3x3xf32>) -> tensor<1x2x3x3xf32>
  return %1, %0, %3 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

// conv2d + batch_norm: simplify-inference and fold-constant leave a constant
// per-channel multiply and add; the multiply folds into the weight.
// PIPE-LABEL: func.func @conv_bn(
// PIPE-NEXT:    %[[SHIFT:.*]] = graph.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}-2.000000e+00]]]> : tensor<2x1x1xf32>
// PIPE-NEXT:    %w = graph.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}5.000000e-01]]], {{\[\[\[}}2.000000e+00]], {{\[\[}}2.000000e+00]]]]> : tensor<2x2x1x1xf32>
// PIPE-NEXT:    %[[C:.*]] = graph.conv2d %x, %w
// PIPE-NEXT:    %bn = graph.add %[[C]], %[[SHIFT]]
// PIPE-NEXT:    return %bn
func.func @conv_bn(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %gamma = graph.constant dense<1.0> : tensor<2xf32>
  %beta = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %bn = graph.batch_norm %0, %gamma, %beta, %mean, %var {epsilon = 0.0 : f32} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %bn : tensor<1x2x3x3xf32>
}

// STATS:      graph-fold-scale-axis
// STATS-NEXT:   (4) num-folded - scales folded into weights

// -----

// Refused: the add's other operand is a full-size activation, not a bias broadcast
// along the channels (TVM's AddSubBackwardPrep): scaling it would only move the
// multiply onto the other branch.
// CHECK-LABEL: func.func @refuse_add_of_activation(
// CHECK:         graph.conv2d %x, %w :
// CHECK-NEXT:    graph.add
// CHECK-NEXT:    graph.multiply
func.func @refuse_add_of_activation(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x1x1xf32>, %y: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %s = graph.constant dense<[[[2.0]], [[3.0]], [[4.0]], [[5.0]]]> : tensor<4x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.add %0, %y : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = graph.multiply %1, %s : (tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// -----

// Refused: W[0] · s[0] = 1e30 · 1e30 is past f32's range, and so is the bias
// b[1] · s[1] of the second case: the folded constant would be inf where the program
// can compute finite values (conv2d of x = 0 is 0, times 1e30 is 0; (y + b) · s is
// finite for y near -b, y · s + inf is not). Nothing reaches stderr (no numpy
// overflow warning).
// RUN: mlc-opt %s --split-input-file --graph-fold-scale-axis 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: {{.}}
// CHECK-LABEL: func.func @refuse_overflowing_weight(
// CHECK:         graph.conv2d %x, %w :
// CHECK-NEXT:    graph.multiply
func.func @refuse_overflowing_weight(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant dense<[[[[1.0e30]], [[2.0]]], [[[6.0]], [[3.0]]]]> : tensor<2x2x1x1xf32>
  %s = graph.constant dense<[[[1.0e30]], [[-0.5]]]> : tensor<2x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.multiply %0, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @refuse_overflowing_bias(
// CHECK:         graph.conv2d %x, %w :
// CHECK-NEXT:    graph.bias_add
// CHECK-NEXT:    graph.multiply
func.func @refuse_overflowing_bias(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %b = graph.constant dense<[1.0, 3.0e38]> : tensor<2xf32>
  %s = graph.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %0 = graph.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.bias_add %0, %b : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.multiply %1, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
