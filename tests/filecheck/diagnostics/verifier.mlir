// Verifier errors of the core dialects, with notes where they point elsewhere.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Operand type constraint.
func.func @f(%arg0: i32) -> i32 {
  // expected-error@+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}

// -----

// Result type constraint.
func.func @f(%arg0: i32) {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %1 = "arith.cmpi"(%arg0, %arg0) <{predicate = 2 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @f(%arg0: i32, %arg1: i32) -> i32 {
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%arg1, %arg0, %arg0) : (i32, i32, i32) -> i32
  return %0 : i32
}

// -----

// SameOperandsAndResultType.
func.func @f(%arg0: f32, %arg1: f64) -> f32 {
  // expected-error@+1 {{'arith.addf' op requires the same type for all operands and results}}
  %0 = "arith.addf"(%arg0, %arg1) : (f32, f64) -> f32
  return %0 : f32
}

// -----

func.func @f(%arg0: i32) -> i64 {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%arg0, %arg0) : (i32, i32) -> i64
  return %0 : i64
}

// -----

func.func @f() -> i32 {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return %0 : i32
}

// -----

func.func @f(%arg0: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible (it casts index to signless integer, or signless integer to index)}}
  %0 = arith.index_cast %arg0 : i32 to i64
  return
}

// -----

func.func @f(%arg0: f32) {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible (it casts floating-point to wider floating-point)}}
  %0 = arith.extf %arg0 : f32 to f16
  return
}

// -----

func.func @f(%arg0: i64) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i64' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %arg0 : i64 to i64
  return
}

// -----

// Return type mismatch.
func.func @f(%arg0: f32) -> i32 {
  // expected-error@+1 {{type of return operand 0 ('f32') doesn't match function result type ('i32') in function @f}}
  return %arg0 : f32
}

// -----

func.func @f(%arg0: i32) -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@f) returns 1}}
  return
}

// -----

// expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

// Calls.
func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{'func.call' op 'nowhere' does not reference a valid function}}
  %0 = call @nowhere(%arg0) : (f32) -> f32
  return %0 : f32
}

// -----

module @m {
}
func.func @f() {
  // expected-error@+1 {{'func.call' op 'm' does not reference a valid function}}
  call @m() : () -> ()
  return
}

// -----

func.func @g(%arg0: i32) -> i32 {
  return %arg0 : i32
}
func.func @f(%arg0: f32) -> i32 {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0}}
  %0 = call @g(%arg0) : (f32) -> i32
  return %0 : i32
}

// -----

func.func @g(%arg0: i32) -> i32 {
  return %arg0 : i32
}
func.func @f(%arg0: i32) -> f32 {
  // expected-error@+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note@+2 {{op result types: 'f32'}}
  // expected-note@+1 {{function result types: 'i32'}}
  %0 = call @g(%arg0) : (i32) -> f32
  return %0 : f32
}

// -----

// Function signature and body.
// expected-error@+1 {{'func.func' op type of entry block argument #0(f32) must match the type of the corresponding argument in function signature(i32)}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%arg0: f32):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @decl()

// -----

// Dominance: a use before its definition in the same block, and across blocks.
func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %1 = arith.addf %0, %arg0 : f32
  // expected-note@+1 {{operand defined here (op in the same block)}}
  %0 = arith.addf %arg0, %arg0 : f32
  return %1 : f32
}

// -----

func.func @f(%arg0: i32) {
  "foo.br"() [^bb1] : () -> ()
^bb1:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  %x = arith.addi %y, %arg0 : i32
  "foo.br"() [^bb2] : () -> ()
^bb2:
  // expected-note@+1 {{operand defined here (op in the same region)}}
  %y = arith.addi %arg0, %arg0 : i32
  return
}

// -----

// Block terminators: MLIR's words, the op quoted in generic form.
func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{block with no terminator, has %0 = "arith.addf"(%arg0, %arg0)}}
  %0 = arith.addf %arg0, %arg0 : f32
}

// -----

// As MLIR: the first error in a function is the one reported.
func.func @f(%arg0: f32) -> f32 {
  // expected-error@+1 {{'func.return' op must be the last operation in the parent block}}
  return %arg0 : f32
  %0 = arith.addf %arg0, %arg0 : f32
}

// -----

// An empty block is reported at the op that holds it, as MLIR does.
// expected-error@+1 {{empty block: expect at least a terminator}}
func.func @f() {
  "foo.br"() [^bb1] : () -> ()
^bb1:
}

// -----

// Symbol redefinition.
// expected-note@+1 {{see existing symbol definition here}}
func.func @f() {
  return
}
// expected-error@+1 {{'func.func' op redefinition of symbol named 'f'}}
func.func @f() {
  return
}

// -----

module {
  // expected-note@+1 {{see existing symbol definition here}}
  func.func private @g()
  // expected-error@+1 {{redefinition of symbol named 'g'}}
  module @g {
  }
}
