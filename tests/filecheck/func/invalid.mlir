// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}
// func's verifier in MLIR's words and order (each case checked against mlir-opt-22):
// a call against its callee's signature, operands first, each count before its types;
// a return against its function's results; the attribute arrays of arguments and
// results, which hold one dictionary per value, of dialect attributes only.

func.func private @pair(i8, f16) -> (i8, f16)

func.func @too_few_operands(%a : i8) {
  // expected-error@+1 {{'func.call' op incorrect number of operands for callee}}
  %0:2 = call @pair(%a) : (i8) -> (i8, f16)
  return
}

// -----

func.func private @pair(i8, f16) -> (i8, f16)

func.func @swapped_operands(%a : i8, %b : f16) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i8', but provided 'f16' for operand number 0}}
  %0:2 = call @pair(%b, %a) : (f16, i8) -> (i8, f16)
  return
}

// -----

func.func private @pair(i8, f16) -> (i8, f16)

func.func @one_result(%a : i8, %b : f16) {
  // expected-error@+1 {{'func.call' op incorrect number of results for callee}}
  %0 = call @pair(%a, %b) : (i8, f16) -> i8
  return
}

// -----

func.func private @pair(i8, f16) -> (i8, f16)

func.func @second_result(%a : i8, %b : f16) {
  // expected-error@+3 {{'func.call' op result type mismatch at index 1}}
  // expected-note@+2 {{      op result types: 'i8', 'f32'}}
  // expected-note@+1 {{function result types: 'i8', 'f16'}}
  %0:2 = call @pair(%a, %b) : (i8, f16) -> (i8, f32)
  return
}

// -----

func.func @return_second_type(%a : i8) -> (i8, f16) {
  // The message does not name the op.
  // expected-error@+1 {{type of return operand 1 ('i8') doesn't match function result type ('f16') in function @return_second_type}}
  return %a, %a : i8, i8
}

// -----

// expected-error@+1 {{'func.func' op arguments may only have dialect attributes}}
func.func private @plain_argument_attribute(f16 {size = 2})

// -----

// expected-error@+1 {{'func.func' op results may only have dialect attributes}}
func.func @plain_result_attribute(%a : f16 {test.size = 2}) -> (f16 {size = 2}) {
  return %a : f16
}

// -----

// A public declaration is refused first (the symbol's check), then its attributes.
// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @public_declaration(i8) attributes {arg_attrs = [{}, {}]}

// -----

// expected-error@+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{sym_name = "g", sym_visibility = "private", function_type = (i8) -> (), arg_attrs = [{}, {}]}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 0, but expected 1}}
func.func private @no_result_attributes() -> i8 attributes {res_attrs = []}

// -----

// Once one argument is named, all are: the error is at the unnamed one.
func.func @half_named(%a : i8,
                      f16) {
  // expected-error@-1 {{custom op 'func.func' expected SSA identifier}}
  return
}

// -----

// The dialect of an argument's or result's attribute checks it: the test dialect
// refuses one name (the message does not name the op).
// expected-error@+1 {{invalid to use 'test.invalid_attr'}}
func.func private @refused_argument(f16 {test.size = 2}, f16 {test.invalid_attr})

// -----

// expected-error@+1 {{invalid to use 'test.invalid_attr'}}
func.func private @refused_result() -> (i8 {test.invalid_attr})
