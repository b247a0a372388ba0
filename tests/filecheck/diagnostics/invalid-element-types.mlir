// Element types MLIR refuses, refused at the same place with the same words as
// mlir-opt-22: tensors of tensors, memrefs, functions, tuples or none; memrefs of
// tensors, functions, tuples, none or unregistered types; vectors of anything but
// integers, index and floats; complex numbers of anything but integers and floats.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect %}

// expected-error@+1 {{invalid tensor element type}}
"foo.op"() : () -> (tensor<4xtensor<i8>>)

// -----

// expected-error@+1 {{invalid tensor element type}}
"foo.op"() : () -> (tensor<* x none>)

// -----

// expected-error@+1 {{invalid tensor element type}}
"foo.op"() : () -> (tensor<tuple<i8>>)

// -----

// expected-error@+1 {{invalid memref element type}}
"foo.op"() : () -> (memref<4xtensor<i8>>)

// -----

// expected-error@+1 {{invalid memref element type}}
"foo.op"() : () -> (memref<4x!foo.bar>)

// -----

// expected-error@+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
"foo.op"() : () -> (vector<4xvector<2xi8>>)

// -----

// expected-error@+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
"foo.op"() : () -> (vector<4xcomplex<f32>>)

// -----

// expected-error@+1 {{invalid element type for complex}}
"foo.op"() : () -> (complex<tensor<i8>>)

// -----

// Accepted by both: tensors of vectors, complex and unregistered types; memrefs of
// memrefs, vectors and complex; complex integers.
"foo.op"() : () -> (tensor<4xvector<2xi8>>, tensor<2xcomplex<f32>>, tensor<4x!foo.bar>, memref<4xmemref<2xf32>>, memref<4xvector<2xf32>>, memref<4xcomplex<f32>>, complex<i8>)
