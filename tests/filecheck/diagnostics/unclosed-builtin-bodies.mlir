// The bodies of affine_map, affine_set and strided are read token by token, as MLIR
// reads them: a bracket left open is reported where the parse fails, not as an
// unbalanced body at the end of the input (checked against mlir-opt-22).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{expected ')'}}
#m = affine_map<(d0, d1) -> ((d0 + d1, d1)>

// -----

// expected-error@+1 {{expected affine expression}}
#m = affine_map<(d0) -> (->, d0)

// -----

// A body may span lines and hold comments.
#m = affine_map<(d0, d1) // the dimensions
  -> (d0 + d1)>
// expected-error@+1 {{use of undeclared identifier}}
#s = affine_set<(d0) : (d0 <= d1)>

// -----

// expected-error@+1 {{invalid SSA name}}
#m = affine_map<(d0) -> (%)>

// -----

// expected-error@+1 {{expected a 64-bit signed integer or '?'}}
func.func private @f() -> memref<?xf32, strided<[>>
