// Malformed `sparse<...>` attributes, with mlir-opt-22's diagnostics (checked against it).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{expected element literal of primitive type}}
"t.op"() {a = sparse<[[0, x]], [1]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected ','}}
"t.op"() {a = sparse<[[0, 1]] [1]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected 1-d tensor for sparse element values}}
"t.op"() {a = sparse<[[0, 1]], [[1]]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected shape ([2, 2]); inferred shape of indices literal ([1, 3]); inferred shape of values literal ([1])}}
"t.op"() {a = sparse<[[0, 1, 0]], [1]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected shape ([2, 2]); inferred shape of indices literal ([2, 2]); inferred shape of values literal ([1])}}
"t.op"() {a = sparse<[[0, 1], [1, 1]], [1]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{sparse index #1 is not contained within the value shape, with index=[2, 0], and type='tensor<2x2xi32>'}}
"t.op"() {a = sparse<[[0, 1], [2, 0]], [1, 2]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error@+1 {{sparse index #0 is not contained within the value shape, with index=[18446744073709551615], and type='tensor<2xi32>'}}
"t.op"() {a = sparse<[-1], [1]> : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected integer elements, but parsed floating-point}}
"t.op"() {a = sparse<0.5, 1> : tensor<2xi32>} : () -> ()

// -----

func.func @f() {
  // expected-error@+1 {{elements literal must be a shaped type}}
  %0 = arith.constant sparse<> : i32
  return
}
