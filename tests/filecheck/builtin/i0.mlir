// Regression (fixed): the zero-width integer type `i0` is not a type to mlc ("unexpected 'i0'");
// lexer.SIMPLE_TYPE_RE requires a width starting with 1-9. mlir-opt-22 accepts and
// prints `i0`.
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @zero_width(i0, si0)
func.func private @zero_width(i0, si0)
