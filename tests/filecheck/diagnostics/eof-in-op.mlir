// The end of input inside an op is reported just after the last token.
// RUN: mlc-opt %s --verify-diagnostics

func.func @f() {
  // expected-error@+1 {{unexpected end of input}}
  %0 = arith.addf
