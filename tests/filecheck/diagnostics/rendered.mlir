// The rendered form of diagnostics: `file:line:col: severity: message`, the source
// line, and a caret under the column; notes the same way; exit status 1.
// RUN: not mlc-opt %s --split-input-file 2>&1 | filecheck %s --strict-whitespace
// RUN: not mlc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=NOTRACE

// NOTRACE-NOT: Traceback
// NOTRACE-NOT: internal error

func.func @f(%arg0: f32, %arg1: i32) -> f32 {
  %0 = "arith.addf"(%arg0, %arg1) : (f32, i32) -> f32
  return %0 : f32
}
// CHECK:      {{^}}[[FILE:.*rendered.mlir]]:[[# @LINE - 3]]:8: error: 'arith.addf' op operand #1 must be floating-point-like, but got 'i32'
// CHECK-NEXT: {{^}}  %0 = "arith.addf"(%arg0, %arg1) : (f32, i32) -> f32
// CHECK-NEXT: {{^}}       ^
// CHECK-NOT:  note

// -----

// A parse error points at the token; tabs in the line are kept under the caret.
func.func @g(%arg0: f32) -> f32 {
	%0 = arith.addf %arg0, %nope : f32
	return %0 : f32
}
// CHECK:      {{^}}[[FILE]]:[[# @LINE - 3]]:25: error: use of undeclared SSA value name
// CHECK-NEXT: {{^}}	%0 = arith.addf %arg0, %nope : f32
// CHECK-NEXT: {{^}}	                       ^

// -----

// An error with a note: each has its own location, line and caret.
func.func @h(%arg0: f32) -> f32 {
  %1 = arith.addf %0, %arg0 : f32
  %0 = arith.addf %arg0, %arg0 : f32
  return %1 : f32
}
// CHECK:      {{^}}[[FILE]]:[[# @LINE - 4]]:8: error: operand #0 does not dominate this use
// CHECK-NEXT: {{^}}  %1 = arith.addf %0, %arg0 : f32
// CHECK-NEXT: {{^}}       ^
// CHECK-NEXT: {{^}}[[FILE]]:[[# @LINE - 6]]:8: note: operand defined here (op in the same block)
// CHECK-NEXT: {{^}}  %0 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT: {{^}}       ^

// -----

// Symbol redefinition: the note points at the first definition.
func.func private @s()
func.func private @s()
// CHECK:      {{^}}[[FILE]]:[[# @LINE - 1]]:1: error: 'func.func' op redefinition of symbol named 's'
// CHECK-NEXT: {{^}}func.func private @s()
// CHECK-NEXT: {{^}}^
// CHECK-NEXT: {{^}}[[FILE]]:[[# @LINE - 5]]:1: note: see existing symbol definition here
