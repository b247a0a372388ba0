// func.func's name, visibility and type are written in its signature; written again in
// `attributes {...}` they are an error at the dictionary, as mlir-opt-22 says it.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

// expected-error@+1 {{'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func @f() attributes {sym_name = "g"} {
  return
}

// -----

// Visibility is checked first, as MLIR does.
// expected-error@+1 {{'sym_visibility' is an inferred attribute}}
func.func @f() attributes {function_type = () -> (), sym_visibility = "private"} {
  return
}

// -----

// expected-error@+1 {{'function_type' is an inferred attribute}}
func.func private @decl(i32) attributes {function_type = (i32) -> ()}
