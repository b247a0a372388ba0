// Regression (fixed): a decimal integer literal is accepted as a float: `arith.constant 1 : f32`
// prints as `1.000000e+00 : f32`. mlir-opt-22: "unexpected decimal integer literal for
// a floating point value" with a note "add a trailing dot to make the literal a float".
// RUN: mlc-opt %s --verify-diagnostics

// expected-error@+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note@+1 {{add a trailing dot to make the literal a float}}
%0 = arith.constant 1 : f32
