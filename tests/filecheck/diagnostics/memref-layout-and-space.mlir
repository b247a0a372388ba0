// After a memref's element type: any number of layouts, then at most one memory
// space, which must be an integer, string, dictionary or a dialect's attribute;
// diagnostics as mlir-opt-22's, at the token after the offending attribute.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-error@+1 {{multiple memory spaces specified in memref type}}
func.func private @f(memref<2x4xi8, #id, 1, "two">)

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-error@+1 {{expected memory space to be last in memref type}}
func.func private @f(memref<2x4xi8, 1, #id>)

// -----

// expected-error@+1 {{unsupported memory space Attribute}}
func.func private @f(memref<2x4xi8, f32>)

// -----

// An unregistered dialect's attribute is builtin's opaque attribute: not a memory space.
// expected-error@+1 {{unsupported memory space Attribute}}
func.func private @f(memref<2x4xi8, #unknown.space>)

// -----

// expected-error@+1 {{cannot have affine map for unranked memref type}}
func.func private @f(memref<*xi8, strided<[1]>>)

// -----

// expected-error@+1 {{invalid integer width}}
func.func private @f(i4294967296)

// -----

// expected-error@+1 {{expected '<' in complex type}}
func.func private @f(complex f32)

// -----

// expected-error@+1 {{missing ']' closing scalable dimension}}
func.func private @f(vector<[4x4]xf32>)
