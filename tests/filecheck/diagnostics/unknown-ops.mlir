// Unknown ops: a custom form of an unknown op, a generic form of an op missing from a
// registered dialect, and ops of an unregistered dialect without
// --allow-unregistered-dialect (they are accepted with it: unregistered.mlir).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{custom op 'arith.frobnicate' is unknown}}
  %0 = arith.frobnicate %arg0 : f32
  return %0 : f32
}

// -----

func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{unregistered operation 'arith.frobnicate' found in dialect ('arith') that does not allow unknown operations}}
  %0 = "arith.frobnicate"(%arg0) : (f32) -> f32
  return %0 : f32
}

// -----

func.func @f(%arg0: f32) {
  // expected-error@+1 {{operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used}}
  %0 = "foo.op"(%arg0) : (f32) -> f32
  return
}

// -----

// The custom form of an op of a dialect that is not there: no flag makes it readable.
// expected-error@+2 {{Dialect `foo' not found for custom op 'foo.op'}}
// expected-note@+1 {{Available dialects: }}
foo.op

// -----

// A custom op name without a dialect is tried in the enclosing op's default dialect.
func.func @f() {
  // expected-error@+1 {{custom op 'frobnicate' is unknown (tried 'func.frobnicate' as well)}}
  frobnicate
  return
}

// -----

// Dialect types and attributes of an unregistered dialect.
// expected-error@+1 {{type created with unregistered dialect}}
func.func private @f(!foo.bar)

// -----

// expected-error@+1 {{attribute created with unregistered dialect}}
func.func private @f(memref<2xf32, #foo.bar>)

// -----

// The same in an alias's definition.
// expected-error@+1 {{type created with unregistered dialect}}
!t = !foo.bar<1, "x">
