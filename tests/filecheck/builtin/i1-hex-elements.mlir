// i1 elements in MLIR's hex form are bits, eight to a byte, the first element in the
// lowest bit; one byte 0x00 or 0xFF is a splat. Read and printed (hex above the
// threshold) as mlir-opt-22 does; a byte count that fits neither is an error there too.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --print-elementsattrs-with-hex-if-larger 1 | filecheck %s --check-prefix=HEX
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics --mlir-print-elementsattrs-with-hex-if-larger=1 | filecheck %s --check-prefix=HEX %}

// CHECK: dense<[true, false, false, false]> : tensor<4xi1>
// CHECK: dense<true> : tensor<16xi1>
// CHECK: dense<[true, true, true, true, false, false, false, false, true, false, false, false]> : tensor<12xi1>
// CHECK: dense<true> : tensor<1xi1>
// HEX: dense<"0x01"> : tensor<4xi1>
// HEX: dense<true> : tensor<16xi1>
// HEX: dense<"0x0F01"> : tensor<12xi1>
// HEX: dense<true> : tensor<1xi1>
%0 = arith.constant dense<"0x01"> : tensor<4xi1>
%1 = arith.constant dense<"0xFF"> : tensor<16xi1>
%2 = arith.constant dense<"0x0F01"> : tensor<12xi1>
%3 = arith.constant dense<"0x02"> : tensor<1xi1>

// -----

// One byte per element is not MLIR's form for i1.
// expected-error@+1 {{elements hex data size is invalid for provided type: 'tensor<2xi1>'}}
%0 = arith.constant dense<"0x0101"> : tensor<2xi1>
