// The graph dialect's patterns for tensors without elements (canonicalization/empty.py):
// reductions over an empty axis are their value on nothing, concat and split drop
// empty operands and sections, an op with only empty results is an empty constant;
// and what must stay.
// RUN: mlc-opt %s --split-input-file --canonicalize | filecheck %s
// RUN: mlc-opt %s --split-input-file --canonicalize | mlc-opt --split-input-file --canonicalize | filecheck %s

// CHECK-LABEL: func.func @reductions(
// CHECK-DAG:     %[[ZERO:.*]] = graph.constant dense<0.000000e+00> : tensor<2x1xf32>
// CHECK-DAG:     %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-DAG:     %[[NAN:.*]] = graph.constant dense<0x7FC00000> : tensor<2xf32>
// CHECK-DAG:     %[[IMEAN:.*]] = graph.mean %i
// CHECK:         return %[[ZERO]], %[[ONE]], %[[NAN]], %[[IMEAN]]
func.func @reductions(%x: tensor<2x0xf32>, %i: tensor<2x0xi32>) -> (tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) {
  %0 = graph.sum %x {axes = array<i64: 1>, keepdims = true} : tensor<2x0xf32> -> tensor<2x1xf32>
  %1 = graph.prod %x {axes = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  %2 = graph.mean %x {axes = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  // The mean of no integers is not a number of the type: it stays.
  %3 = graph.mean %i {axes = array<i64: 1>} : tensor<2x0xi32> -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @concat_and_split(
// CHECK-NEXT:    %[[C:.*]] = graph.concat %x, %x {axis = 1 : i64}
// CHECK-NEXT:    %[[S:.*]]:2 = graph.split %x {axis = 1 : i64, sections = array<i64: 1, 2>}
// CHECK-NEXT:    return %[[C]], %x, %[[S]]#0, %[[S]]#1
func.func @concat_and_split(%x: tensor<2x3xf32>, %e: tensor<2x0xf32>) -> (tensor<2x6xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>) {
  %0 = graph.concat %x, %e, %x {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x0xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %1 = graph.concat %e, %x {axis = 1 : i64} : (tensor<2x0xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2:3 = graph.split %x {axis = 1 : i64, sections = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x0xf32>, tensor<2x2xf32>)
  return %0, %1, %2#0, %2#2 : tensor<2x6xf32>, tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @empty_results(
// CHECK-NEXT:    %[[E:.*]] = graph.constant dense<> : tensor<0x3xf32>
// CHECK-NEXT:    return %[[E]]
func.func @empty_results(%x: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = graph.exp %x : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}
