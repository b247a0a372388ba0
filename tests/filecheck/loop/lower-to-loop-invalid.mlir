// graph-lower-to-loop refuses what it cannot lower with a located diagnostic, and
// changes nothing then.
// RUN: mlc-opt %s -p graph-lower-to-loop --split-input-file --verify-diagnostics

// expected-error@+1 {{graph-lower-to-loop: parameter #0 of @main cannot become a buffer: tensor<3xui8> has ui8 elements: kernels compute on floats and signless integers}}
func.func @main(%x: tensor<3xui8>) -> tensor<3xui8> {
  %0 = graph.relu %x : tensor<3xui8>
  return %0 : tensor<3xui8>
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
