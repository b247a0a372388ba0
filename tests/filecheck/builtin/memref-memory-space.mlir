// Regression (fixed): an integer memory space prints with its type: `memref<2xf32, 1>` comes out as
// `memref<2xf32, 1 : i64>` (valid, but not MLIR's form); mlir-opt-22 prints
// `memref<2xf32, 1>`.
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @spaces(memref<2xf32, 1>, memref<4xf32, strided<[1]>, 3>)
func.func private @spaces(memref<2xf32, 1>, memref<4xf32, strided<[1]>, 3>)
