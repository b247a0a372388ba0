// Malformed builtin literals, in MLIR's words: dense elements (the type, the shape,
// each element against the element type), dense arrays, dense_resource, hex floats.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect %}

// expected-error@+1 {{elements literal must be a shaped type}}
"test.c"() {v = dense<[1, 2]> : i64} : () -> ()

// -----

// expected-error@+1 {{elements literal type must have static shape}}
"test.c"() {v = dense<[1, 2]> : tensor<?xi64>} : () -> ()

// -----

// expected-error@+1 {{inferred shape of elements literal ([2, 2]) does not match type ([4])}}
"test.c"() {v = dense<[[1, 2], [3, 4]]> : tensor<4xi64>} : () -> ()

// -----

// expected-error@+1 {{parsed zero elements, but type ('tensor<3xi8>') expected at least 1}}
"test.c"() {v = dense<> : tensor<3xi8>} : () -> ()

// -----

// expected-error@+1 {{expected element literal of primitive type}}
"test.c"() {v = dense<[1, @sym]> : tensor<2xi8>} : () -> ()

// -----

// expected-error@+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note@+1 {{add a trailing dot to make the literal a float}}
"test.c"() {v = dense<[1.5, 7]> : tensor<2xf16>} : () -> ()

// -----

// expected-error@+1 {{expected floating point literal}}
"test.c"() {v = dense<false> : tensor<2xbf16>} : () -> ()

// -----

// expected-error@+1 {{expected i1 type for 'true' or 'false' values}}
"test.c"() {v = dense<[true, false]> : vector<2xi8>} : () -> ()

// -----

// expected-error@+1 {{expected unsigned integer elements, but parsed negative value}}
"test.c"() {v = dense<[3, -1]> : tensor<2xui8>} : () -> ()

// -----

// expected-error@+1 {{hexadecimal float literal should not have a leading minus}}
"test.c"() {v = dense<-0x3C00> : tensor<2xf16>} : () -> ()

// -----

// expected-error@+1 {{hexadecimal float literal should not have a leading minus}}
"test.c"() {v = -0x3C00 : f16} : () -> ()

// -----

// A negative hexadecimal integer is fine.
"test.c"() {v = -0x10 : i32, w = dense<-0x10> : tensor<2xi32>} : () -> ()

// -----

// expected-error@+1 {{expected '<' after 'array'}}
"test.c"() {v = array} : () -> ()

// -----

// expected-error@+1 {{expected integer or float type, got: 'vector<2xi8>'}}
"test.c"() {v = array<vector<2xi8>: 1>} : () -> ()

// -----

// expected-error@+1 {{element type bitwidth must be a multiple of 8}}
"test.c"() {v = array<i4: 1>} : () -> ()

// -----

// expected-error@+1 {{expected '>' to close an array attribute}}
"test.c"() {v = array<i8: 1, 2}

// -----

// expected-error@+1 {{expected 'true' or 'false' values for i1 type}}
"test.c"() {v = array<i1: 1>} : () -> ()

// -----

// expected-error@+1 {{expected i1 type for 'true' or 'false' values}}
"test.c"() {v = array<i16: false>} : () -> ()

// -----

// expected-error@+1 {{expected '<' after 'dense_resource'}}
"test.c"() {v = dense_resource} : () -> ()

// -----

// expected-error@+1 {{`dense_resource` expected a shaped type}}
"test.c"() {v = dense_resource<blob> : f32} : () -> ()
