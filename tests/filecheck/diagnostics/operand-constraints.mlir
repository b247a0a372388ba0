// Operand and result types that break an op's declared constraints, in MLIR's words:
// the verifier numbers the operand ("operand #1 must be"); a custom form whose result
// type is inferred from the operands checks them while parsing, before the inference,
// and names the operand, at the op's name.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @generic_form(%x: i64, %y: f64) -> i64 {
  // expected-error@+1 {{'arith.muli' op operand #1 must be signless-integer-like, but got 'f64'}}
  %0 = "arith.muli"(%x, %y) : (i64, f64) -> i64
  return %0 : i64
}

// -----

func.func @result_of_generic_form(%x: i1, %y: i1) -> i8 {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i8'}}
  %0 = "arith.cmpi"(%x, %y) {predicate = 1 : i64} : (i1, i1) -> i8
  return %0 : i8
}

// -----

func.func @compare_floats_as_integers(%x: f16) -> i1 {
  // expected-error@+1 {{custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f16'}}
  %0 = arith.cmpi ne, %x, %x : f16
  return %0 : i1
}

// -----

func.func @compare_index_as_floats(%x: index) -> i1 {
  // expected-error@+1 {{custom op 'arith.cmpf' 'lhs' must be floating-point-like, but got 'index'}}
  %0 = arith.cmpf ugt, %x, %x : index
  return %0 : i1
}

// -----

// The check reads the type as written, before the operands are looked up.
func.func @a_function_type(%x: i8) -> i1 {
  // expected-error@+1 {{custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got '(i8) -> i1'}}
  %0 = arith.cmpi eq, %x, %x : (i8) -> i1
  return %0 : i1
}
