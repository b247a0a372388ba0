// Regression (fixed): tf32, f80 and f128 are lexed as types (lexer.SIMPLE_TYPE_RE lists them) but
// the parser reports "unknown type 'tf32'" (likewise f80, f128). mlir-opt-22 prints
// them back unchanged.
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @floats(tf32, f80, f128)
func.func private @floats(tf32, f80, f128)
