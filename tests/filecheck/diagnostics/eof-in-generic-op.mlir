// RUN: mlc-opt %s --verify-diagnostics

// expected-error@+1 {{unexpected end of input}}
"foo.op"(
