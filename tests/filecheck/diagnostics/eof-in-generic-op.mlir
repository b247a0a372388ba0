// RUN: mlc-opt %s --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --verify-diagnostics --allow-unregistered-dialect %}

// expected-error@+1 {{expected ')' to end operand list}}
"foo.op"(
