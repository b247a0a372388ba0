// Diagnostics as test cases, as in MLIR: each chunk between split markers is checked
// on its own; every error must be announced by an expected-error comment (`@+1`: on
// the next line) whose text it contains, and every announced one must come.
// mlir-opt-22 --split-input-file --verify-diagnostics accepts this file too.

func.func @mixed_types(%a: f32, %b: i32) -> f32 {
  // expected-error@+1 {{must be floating-point-like, but got 'i32'}}
  %0 = "arith.addf"(%a, %b) : (f32, i32) -> f32
  return %0 : f32
}

// -----

func.func @wrong_result_type(%a: i32) -> i64 {
  // expected-error@+1 {{doesn't match function result type}}
  return %a : i32
}

// -----

func.func @use_before_definition(%a: i32) -> i32 {
  // expected-error@+1 {{operand #1 does not dominate this use}}
  %0 = arith.addi %a, %1 : i32
  // expected-note@+1 {{operand defined here}}
  %1 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

func.func @undefined_value(%a: i32) -> i32 {
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
