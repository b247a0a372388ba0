// graph.call_tir checks its callee's signature against its operands and results;
// both calls need tensors of static shape.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'missing' does not reference a function}}
  %0 = graph.call_tir @missing(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func private @k(memref<1x4xf32>, memref<1x4xf32>, memref<1x4xf32>)
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{@k takes 3 buffers; the call passes 1 operands and 1 results}}
  %0 = graph.call_tir @k(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func private @k(memref<1x4xf32>, memref<4x1xf32>)
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{parameter #1 of @k is memref<4x1xf32>, but result #0 of the call needs memref<1x4xf32>}}
  %0 = graph.call_tir @k(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func private @k(memref<1x4xf32>) -> memref<1x4xf32>
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{@k returns values; a primitive function writes its results into the buffers after its inputs}}
  %0 = graph.call_tir @k(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{operand #0 must be a tensor of static shape, got tensor<?x4xf32>}}
  %0 = graph.call_dps_packed "env.f"(%x) : (tensor<?x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @main(%x: tensor<1x4xf32>) {
  // expected-error@+1 {{a call in destination-passing style has at least one result}}
  graph.call_dps_packed "env.f"(%x) : (tensor<1x4xf32>) -> ()
  return
}
