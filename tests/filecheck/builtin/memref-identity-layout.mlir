// Regression (fixed): an identity affine_map layout (`memref<4xf32, affine_map<(d0) -> (d0)>>`)
// was kept, where MLIR normalises it away (the two spellings are one type in MLIR).
// mlir-opt-22 prints `memref<4xf32>`.
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @identity(memref<4xf32>, memref<2x3xf32>)
func.func private @identity(memref<4xf32, affine_map<(d0) -> (d0)>>,
                            memref<2x3xf32, affine_map<(d0, d1) -> (d0, d1)>>)
