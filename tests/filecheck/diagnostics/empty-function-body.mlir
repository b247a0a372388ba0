// Regression (fixed): `{}` after a function signature is taken as an empty region, i.e. a
// declaration: `func.func private @decl() {}` is accepted (and printed without the
// braces), and `func.func @f() {}` gets "symbol declaration cannot have public
// visibility". mlir-opt-22: "expected non-empty function body", at the `{`.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{expected non-empty function body}}
func.func private @decl() {
}

// -----

// expected-error@+1 {{expected non-empty function body}}
func.func @f() {
}
