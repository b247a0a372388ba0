// Regression (fixed): scalable vector dimensions (`vector<[4]xf32>`, `vector<4x[8]xf16>`) and 0-d
// vectors (`vector<f32>`) are rejected: "unexpected '[', expected dimension list" and
// "unexpected 'f32', expected dimension list". mlir-opt-22 prints them back unchanged.
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @scalable(vector<[4]xf32>, vector<4x[8]xf16>)
func.func private @scalable(vector<[4]xf32>, vector<4x[8]xf16>)
// CHECK: func.func private @zero_d(vector<f32>)
func.func private @zero_d(vector<f32>)
