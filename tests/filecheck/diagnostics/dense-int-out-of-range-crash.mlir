// Regression (fixed): an out-of-range integer in a dense literal crashes mlc:
// `arith.constant dense<[1, 300]> : tensor<2xi8>` gives "mlc-opt: internal error:
// OverflowError: Python integer 300 out of bounds for int8" and exit status 2 (numpy's
// error escapes the literal parser). mlir-opt-22: "integer constant out of range for
// type", at the element.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{integer constant out of range for type}}
%0 = arith.constant dense<[1, 300]> : tensor<2xi8>

// -----

// expected-error@+1 {{integer constant out of range for type}}
%0 = arith.constant dense<70000> : tensor<4xi16>
