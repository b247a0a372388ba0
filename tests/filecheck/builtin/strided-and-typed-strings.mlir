// strided<> layouts are attributes of their own (strides and offset, `?` dynamic): a
// zero offset is not printed, spacing is MLIR's, malformed ones are errors where
// mlir-opt-22 reports them. A string attribute keeps its type. Same output as mlir-opt-22.
// RUN: mlc-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | filecheck %s %}

// CHECK: memref<4x4xf32, strided<[42, 1]>>
// CHECK: memref<4x4xf32, strided<[42, 1]>>
// CHECK: memref<4x4xf32, strided<[?, 1], offset: ?>>
// CHECK: {a = strided<[1, 2], offset: 5>, s = "x" : !foo.string, t = "y"}
"foo.op"() : () -> memref<4x4xf32, strided<[42, 1]>>
"foo.op"() : () -> memref<4x4xf32, strided<[42, 1], offset: 0>>
"foo.op"() : () -> memref<4x4xf32, strided<[?,1],offset:?>>
"foo.op"() {a = strided<[1,2] ,offset : 5>, s = "x" : !foo.string, t = "y" : none} : () -> ()

// -----

// expected-error@+1 {{expected a 64-bit signed integer or '?'}}
"foo.op"() {a = strided<[x, 1]>} : () -> ()

// -----

// expected-error@+1 {{expected 'offset' after comma}}
"foo.op"() {a = strided<[1, 1], off: 0>} : () -> ()

// -----

// expected-error@+1 {{expected ']'}}
"foo.op"() {a = strided<[1 1]>} : () -> ()

// -----

// expected-error@+1 {{expected the number of strides to match the rank}}
"foo.op"() : () -> memref<4x4xf32, strided<[1]>>

// -----

// The last op of the input: the error is still located (it was an internal error).
// expected-error@+1 {{memref layout mismatch between rank and affine map: 2 != 1}}
"foo.op"() : () -> memref<4x4xf32, affine_map<(d0) -> (d0)>>
