// graph-fold-constant: ops whose operands are all constants become constants (one
// sweep, the op's own reference semantics); producers whose last use folded are
// erased; results much larger than their inputs are not folded.
// RUN: mlc-opt %s --split-input-file --graph-fold-constant | filecheck %s
// RUN: mlc-opt %s --split-input-file -p 'graph-fold-constant{max-growth-elements=1000}' | filecheck %s --check-prefix=GROW
// RUN: mlc-opt %s --split-input-file --graph-fold-constant --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// Folding twice changes nothing more:
// RUN: mlc-opt %s --split-input-file --graph-fold-constant | mlc-opt --split-input-file --graph-fold-constant | filecheck %s

// The program of TVM's pass-infrastructure tutorial: add(c, c) and multiply(..., 2)
// become one constant c1 = 4; conv2d and the four adds stay.
// CHECK-LABEL: func.func @tutorial(
// CHECK-DAG:     %[[C:.*]] = graph.constant dense<1.000000e+00> : tensor<1x64x54x54xf32>
// CHECK-DAG:     %[[C1:.*]] = graph.constant dense<4.000000e+00> : tensor<1x64x54x54xf32>
// CHECK-DAG:     %[[CONV:.*]] = graph.conv2d %x, %weight
// CHECK:         %[[Y:.*]] = graph.add %[[CONV]], %[[C1]]
// CHECK-NEXT:    %[[Z:.*]] = graph.add %[[Y]], %[[C]]
// CHECK-NEXT:    %[[Z1:.*]] = graph.add %[[Y]], %[[C]]
// CHECK-NEXT:    %[[Z2:.*]] = graph.add %[[Z]], %[[Z1]]
// CHECK-NEXT:    return %[[Z2]]
// CHECK-NOT:     graph.multiply
func.func @tutorial(%x: tensor<1x64x56x56xf32>, %weight: tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32> {
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

// -----

// A chain of constant ops folds in one sweep, each step from the one before; the
// folded value keeps the name of the op it replaces. A constant used elsewhere stays.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %w = graph.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00, -4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    %wt = graph.constant dense<{{\[}}[2.000000e+00, 0.000000e+00], [6.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.add %x, %wt
// CHECK-NEXT:    return %[[R]], %w
func.func @chain(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<4xf32>) {
  %w = graph.constant dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>
  %r = graph.relu %w : tensor<4xf32>
  %m = graph.reshape %r {shape = array<i64: 2, 2>} : tensor<4xf32> -> tensor<2x2xf32>
  %wt = graph.add %m, %m : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = graph.add %x, %wt : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %w : tensor<2x2xf32>, tensor<4xf32>
}

// -----

// Negative: broadcasting a small constant to 131072 elements is not folded (the
// default max-growth-elements is 65536), nor to 4096 with max-growth-elements=1000;
// to 128 it is. An op with an operand that is not a constant never folds.
// A splat stores one element whatever its shape, so a broadcast of one folds at any
// size (`%s`).
// CHECK-LABEL: func.func @growth(
// CHECK:         graph.broadcast_to %{{.*}} {shape = array<i64: 32, 64, 64>}
// CHECK-NOT:     graph.broadcast_to
// CHECK:         graph.relu %x
// CHECK-NEXT:    graph.constant dense<2.500000e-01> : tensor<32x64x64xf32>
// GROW-LABEL:  func.func @growth(
// GROW:          graph.broadcast_to %{{.*}} {shape = array<i64: 32, 64, 64>}
// GROW:          graph.broadcast_to %{{.*}} {shape = array<i64: 64, 64>}
// GROW-NOT:      graph.broadcast_to
// GROW:          graph.relu %x
// GROW-NEXT:     graph.constant dense<2.500000e-01> : tensor<32x64x64xf32>
func.func @growth(%x: tensor<64xf32>) -> (tensor<32x64x64xf32>, tensor<64x64xf32>, tensor<2x64xf32>, tensor<64xf32>, tensor<32x64x64xf32>) {
  %c = graph.constant dense<[0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5, 0.0, 0.5, 1.0, 1.5]> : tensor<64xf32>
  %0 = graph.broadcast_to %c {shape = array<i64: 32, 64, 64>} : tensor<64xf32> -> tensor<32x64x64xf32>
  %1 = graph.broadcast_to %c {shape = array<i64: 64, 64>} : tensor<64xf32> -> tensor<64x64xf32>
  %2 = graph.broadcast_to %c {shape = array<i64: 2, 64>} : tensor<64xf32> -> tensor<2x64xf32>
  %3 = graph.relu %x : tensor<64xf32>
  %s = graph.constant dense<0.25> : tensor<64xf32>
  %4 = graph.broadcast_to %s {shape = array<i64: 32, 64, 64>} : tensor<64xf32> -> tensor<32x64x64xf32>
  return %0, %1, %2, %3, %4 : tensor<32x64x64xf32>, tensor<64x64xf32>, tensor<2x64xf32>, tensor<64xf32>, tensor<32x64x64xf32>
}

// -----

// graph.range has no operands: it folds into the constant it computes, unless that
// holds more than max-growth-elements (100000 elements here; 2000 under GROW), and
// what it feeds folds after it.
// CHECK-LABEL: func.func @range(
// CHECK-NEXT:    %pos = graph.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
// CHECK-NEXT:    %total = graph.constant dense<1.999000e+06> : tensor<f32>
// CHECK-NEXT:    %big = graph.range {delta = 1 : i32, limit = 100000 : i32, start = 0 : i32} : tensor<100000xi32>
// CHECK-NEXT:    return %pos, %total, %big
// GROW-LABEL:  func.func @range(
// GROW-NEXT:     %pos = graph.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
// GROW-NEXT:     %r = graph.range {{.*}} : tensor<2000xf32>
// GROW-NEXT:     %total = graph.sum %r
func.func @range() -> (tensor<4xi64>, tensor<f32>, tensor<100000xi32>) {
  %pos = graph.range {start = 0 : i64, limit = 4 : i64, delta = 1 : i64} : tensor<4xi64>
  %r = graph.range {start = 0.0 : f32, limit = 2.0e3 : f32, delta = 1.0 : f32} : tensor<2000xf32>
  %total = graph.sum %r : tensor<2000xf32> -> tensor<f32>
  %big = graph.range {start = 0 : i32, limit = 100000 : i32, delta = 1 : i32} : tensor<100000xi32>
  return %pos, %total, %big : tensor<4xi64>, tensor<f32>, tensor<100000xi32>
}

// Statistics, summed over the four cases.
// STATS:      graph-fold-constant
// STATS-NEXT:   (11) num-folded - ops folded into constants
// STATS-NEXT:   (2) num-too-large - ops not folded: result larger than max-growth-elements beyond the inputs
// STATS-NEXT:   (0) num-undefined - ops not folded: their result is undefined on these constants
// STATS-NEXT:   (6) num-dead-constants - constants erased once their last use folded
