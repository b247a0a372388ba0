// A `dense<...>` literal is read token by token, then checked against its type, as
// MLIR does: errors at the token where reading fails, or at `dense` for a literal that
// does not fit its type (checked against mlir-opt-22).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{parsed 1 elements, but type ('complex<f32>') expected 2 elements}}
"t.op"() {a = dense<1.0> : tensor<2xcomplex<f32>>} : () -> ()

// -----

// expected-error@+1 {{parsed 3 elements, but type ('tensor<2xcomplex<i8>>') expected 4 elements}}
"t.op"() {a = dense<[(1, 2), 3]> : tensor<2xcomplex<i8>>} : () -> ()

// -----

// expected-error@+1 {{expected ',' between complex elements}}
"t.op"() {a = dense<[(1 2)]> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// expected-error@+1 {{expected ')' after complex elements}}
"t.op"() {a = dense<[(1, 2]> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// expected-error@+1 {{expected element literal of primitive type}}
"t.op"() {a = dense<[(1, )]> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// expected-error@+1 {{expected ']'}}
"t.op"() {a = dense<[1 2]> : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{tensor literal is invalid; ranks are not consistent between elements}}
"t.op"() {a = dense<[1, [2]]> : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected '>'}}
"t.op"() {a = dense<"0x01" 2> : tensor<2xi32>} : () -> ()

// -----

// The literal is read before its type is: a bad element of a literal of the wrong shape
// is reported as the shape.
// expected-error@+1 {{inferred shape of elements literal ([3]) does not match type ([2])}}
"t.op"() {a = dense<[1, 2, 1.5]> : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected integer elements, but parsed floating-point}}
"t.op"() {a = dense<[(1, 2.5)]> : tensor<1xcomplex<i32>>} : () -> ()
