// An unclosed region: the end of input is reported just after the last token.
// RUN: mlc-opt %s --verify-diagnostics

func.func @f() {
  // expected-error@+1 {{unexpected end of input, expected '}'}}
  return
