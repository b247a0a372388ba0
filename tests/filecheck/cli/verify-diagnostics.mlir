// --verify-diagnostics: a run whose diagnostics all match their expected-* comments
// succeeds (and prints the chunks that verified; a chunk with errors prints nothing, as
// with mlir-opt-22); an unexpected diagnostic or an expectation not met fails the run,
// with both reported.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not mlc-opt %S/Inputs/diag-mismatch.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=MISMATCH
// A note nobody expected is an unexpected diagnostic too.
// RUN: not mlc-opt %S/Inputs/diag-note.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=NOTE

// CHECK:      // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @ok() {
// CHECK-NEXT:     return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  func.func

func.func @bad(%arg0: i32) -> i32 {
  // expected-error@+1 {{must be floating-point-like}}
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}

// -----

func.func @ok() {
  return
}

// -----

// The same expectation, written with each kind of line offset (one function each:
// the first error in a function is the one reported, as in MLIR).
func.func @same_line(%arg0: i32) -> i32 {
  %0 = arith.addf %arg0, %arg0 : i32 // expected-error {{must be floating-point-like}}
  return %0 : i32
}
func.func @below(%arg0: i32) -> i32 {
  // expected-error@below {{must be floating-point-like}}
  %1 = arith.addf %arg0, %arg0 : i32
  return %1 : i32
}
func.func @above(%arg0: i32) -> i32 {
  %2 = arith.addf %arg0, %arg0 : i32
  // expected-error@above {{must be floating-point-like}}
  return %2 : i32
}
func.func @minus(%arg0: i32) -> i32 {
  %3 = arith.addf %arg0, %arg0 : i32
  // expected-error@-1 {{must be floating-point-like}}
  return %3 : i32
}

// MISMATCH-DAG: diag-mismatch.mlir:3:8: error: unexpected error: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
// MISMATCH-DAG: diag-mismatch.mlir:2:6: error: expected error "this message is not the one produced" was not produced
// MISMATCH-DAG: diag-mismatch.mlir:8:6: error: expected error "an error that never comes" was not produced
// MISMATCH-NOT: diag-mismatch.mlir:14:

// NOTE: diag-note.mlir:2:3: error: unexpected note: previously defined here
// NOTE-NOT: unexpected error

// -----

// expected-error-re: each {{...}} of the text is a regular expression (POSIX classes
// as in mlir-opt's extended regular expressions), the rest is literal.
func.func @regex(%arg0: i32) -> i32 {
  // expected-error-re@+1 {{'{{[a-z]+}}.addf' op operand #{{[[:digit:]]+}} must be floating-point-like}}
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}

// -----

// @unknown: a diagnostic without a file location.
func.func @unknown(%arg0: i32) -> i32 {
  // expected-error@unknown {{must be floating-point-like}}
  %0 = arith.addf %arg0, %arg0 : i32 loc(unknown)
  return %0 : i32
}
