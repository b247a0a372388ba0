// An unclosed region: the end of input is reported just after the last token.
// RUN: mlc-opt %s --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --verify-diagnostics %}

func.func @f() {
  // expected-error@+1 {{expected operation name in quotes}}
  return
