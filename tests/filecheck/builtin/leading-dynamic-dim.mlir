// Regression (fixed): a shape that starts with `?` or `*` does not lex: `tensor<?xf32>`,
// `tensor<*xf32>`, `memref<*xf32>` fail with "unexpected character '?'" / "'*'".
// (`tensor<2x?xf32>` works: only a dimension list whose first character is `?` or
// `*` is affected; the lexer turns `?`/`*` into DIMS only when they are punctuation
// terminals, and they are not.) mlir-opt-22 prints all of these back unchanged.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s

// CHECK-LABEL: func.func private @dynamic(tensor<?xf32>, tensor<?x?xi8>, memref<?x4xf32>, vector<4xf32>)
func.func private @dynamic(tensor<?xf32>, tensor<?x?xi8>, memref<?x4xf32>, vector<4xf32>)

// CHECK-LABEL: func.func private @unranked(tensor<*xf32>, memref<*xf32>, memref<*xf32, 2>)
func.func private @unranked(tensor<*xf32>, memref<*xf32>, memref<*xf32, 2>)

// CHECK-LABEL: func.func @use
func.func @use(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: arith.addf %arg0, %arg0 : tensor<?xf32>
  %0 = arith.addf %arg0, %arg0 : tensor<?xf32>
  return %0 : tensor<?xf32>
}
