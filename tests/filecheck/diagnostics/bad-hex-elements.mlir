// A dense literal whose hex string is not `0x` and pairs of hex digits is reported at
// the string, in mlir-opt-22's words (not Python's bytes.fromhex wording); one of the
// wrong size at the literal.
// RUN: not mlc-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: bad-hex-elements.mlir:7:27: error: expected string containing hex digits starting with `0x`
%0 = arith.constant dense<"0x1G"> : tensor<1xi8>

// -----

// CHECK: bad-hex-elements.mlir:12:21: error: elements hex data size is invalid for provided type: 'tensor<3xi8>'
%0 = arith.constant dense<"0x0102"> : tensor<3xi8>
