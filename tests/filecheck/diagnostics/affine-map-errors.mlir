// Malformed affine maps and integer sets are diagnostics at the offending token, worded
// as mlir-opt-22 words them (test_affine_interop.py compares the columns too).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{use of undeclared identifier}}
"t.op"() {m = affine_map<(d0) -> (d0 + d1)>} : () -> ()

// -----

// expected-error@+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
"t.op"() {m = affine_map<(i, j) -> (i * j)>} : () -> ()

// -----

// expected-error@+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
"t.op"() {m = affine_map<(d0) -> (d0 mod d0)>} : () -> ()

// -----

// expected-error@+1 {{redefinition of identifier 'd0'}}
"t.op"() {m = affine_map<(d0, d0) -> (d0)>} : () -> ()

// -----

// expected-error@+1 {{missing right operand of binary operator}}
"t.op"() {m = affine_map<(d0) -> (d0 +)>} : () -> ()

// -----

// expected-error@+1 {{expected AffineMap, but got IntegerSet}}
"t.op"() {m = affine_map<(d0) : (d0 >= 0)>} : () -> ()

// -----

// expected-error@+1 {{expected '== affine-expr' or '>= affine-expr' at end of affine constraint}}
"t.op"() {s = affine_set<(d0) : (d0 > 0)>} : () -> ()

// -----

// expected-error@+1 {{constant too large for index}}
"t.op"() {m = affine_map<(d0) -> (d0 + 9223372036854775808)>} : () -> ()

// -----

// expected-error@+1 {{memref layout mismatch between rank and affine map: 1 != 2}}
func.func private @f(memref<4xf32, affine_map<(d0, d1) -> (d0)>>)
