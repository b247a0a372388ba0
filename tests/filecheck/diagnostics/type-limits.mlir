// Regression (fixed): type sizes are not limited: `i99999999` and `tensor<99999999999999999999xf32>`
// are accepted and printed back. mlir-opt-22: "integer bitwidth is limited to 16777215
// bits" and "invalid dimension".
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{integer bitwidth is limited to 16777215 bits}}
func.func private @f(i99999999)

// -----

// expected-error@+1 {{invalid dimension}}
func.func private @f(tensor<99999999999999999999xf32>)
