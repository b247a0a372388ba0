// The end of input inside an op is reported just after the last token (as mlir-opt-22).
// RUN: mlc-opt %s --verify-diagnostics

func.func @f() {
  // expected-error@+1 {{expected SSA operand}}
  %0 = arith.addf
