// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect %}
// Text that starts no token is reported as MLIR's lexer reports it, before what the
// parser expected there (each case checked against mlir-opt-22).

// expected-error@+1 {{expected three consecutive dots for an ellipsis}}
func.func private @one_dot(f16, .)

// -----

// expected-error@+1 {{expected three consecutive dots for an ellipsis}}
func.func private @two_dots(..)

// -----

// expected-error@+1 {{@ identifier expected to start with letter or '_'}}
func.func private @-minus()

// -----

func.func @sigils() {
  // expected-error@+1 {{invalid attribute name}}
  "some.op"() {a = # } : () -> ()
  return
}

// -----

func.func @sigils() {
  // expected-error@+1 {{invalid type identifier}}
  "some.op"() : () -> (!<"x">)
  return
}

// -----

func.func @sigils() {
  // expected-error@+1 {{invalid SSA name}}
  "some.op"(% ) : () -> ()
  return
}

// -----

// An integer type is no op name.
func.func @type_as_op() {
  // expected-error@+1 {{expected operation name in quotes}}
  %0 = arith.constant 5 si8
  return
}

// -----

// The brackets of a dialect type's body nest.
// expected-error@+1 {{unbalanced '(' character in pretty dialect name}}
func.func private @body() -> !some.type<(]>

// -----

// expected-error@+1 {{unbalanced '<' character in pretty dialect name}}
func.func private @body() -> !some.type<x]>

// -----

// A keyword that starts a type is a type, whatever follows.
// expected-error@+1 {{expected '<' in tuple type}}
func.func private @tuple_without_bracket(tuple f16>)

// -----

// expected-error@+1 {{undefined symbol alias id 'nowhere'}}
func.func private @alias(!nowhere)
