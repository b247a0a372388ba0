// test.with_bounds takes integers, indices and vectors of them (both tools agree).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics -o /dev/null
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics -o /dev/null %}

func.func @not_an_integer() {
  // expected-error@+1 {{must be integer or index or vector of integer or index values, but got 'f32'}}
  %f = test.with_bounds {umin = 0 : i32, umax = 1 : i32, smin = 0 : i32, smax = 1 : i32} : f32
  return
}

// -----

func.func @a_tensor() {
  // expected-error@+1 {{must be integer or index or vector of integer or index values, but got 'tensor<2xi32>'}}
  %t = test.with_bounds {umin = 0 : i32, umax = 1 : i32, smin = 0 : i32, smax = 1 : i32} : tensor<2xi32>
  return
}
