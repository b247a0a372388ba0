// Regression (fixed): a symbol nested in an op that is not a symbol table is accepted: a func.func
// inside a func.func verifies. mlir-opt-22: "'func.func' op symbol's parent must have
// the SymbolTable trait".
// RUN: mlc-opt %s --verify-diagnostics

func.func @f() {
  // expected-error@+1 {{symbol's parent must have the SymbolTable trait}}
  func.func @inner() {
    return
  }
  return
}
