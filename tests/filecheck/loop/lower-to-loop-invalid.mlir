// graph-lower-to-loop refuses what it cannot lower with a located diagnostic, and
// changes nothing then.
// RUN: mlc-opt %s -p graph-lower-to-loop --split-input-file --verify-diagnostics

// expected-error@+1 {{graph-lower-to-loop: parameter #0 of @main cannot become a buffer: tensor<3xsi8> has si8 elements: kernels compute on floats, signless and unsigned integers}}
func.func @main(%x: tensor<3xsi8>) -> tensor<3xsi8> {
  %0 = graph.relu %x : tensor<3xsi8>
  return %0 : tensor<3xsi8>
}

// -----

func.func private @external(tensor<3xf32>) -> tensor<3xf32>

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{graph-lower-to-loop: cannot lower a call of @external: only graph.primitive functions and functions on tensors are lowered}}
  %0 = call @external(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{graph-lower-to-loop: 'arith.addf' has no lowering to loops}}
  %0 = arith.addf %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A sum over an empty axis is its identity, but a kernel's loops and reduce axes
// have at least one iteration: refused at the op, whether fused or not.
func.func @main(%x: tensor<0x3xf32>) -> tensor<3xf32> {
  %0 = graph.exp %x : tensor<0x3xf32>
  // expected-error@+1 {{graph-lower-to-loop: 'graph.sum' computes the non-empty tensor<3xf32> from the empty tensor<0x3xf32>: kernel loops of zero iterations are not supported}}
  %1 = graph.sum %0 {axes = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

func.func @main(%x: tensor<0x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{graph-lower-to-loop: 'graph.concat' computes the non-empty tensor<2x3xf32> from the empty tensor<0x3xf32>}}
  %0 = graph.concat %x, %y {axis = 0 : i64} : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
