// Regression (fixed): mlc cannot read mlir-opt's debuginfo output when it holds a name location
// without a child location (`#loc1 = loc("x")`): "mlc-opt: internal error:
// ValueError: not enough values to unpack (expected 2, got 1)". See
// builtin/xfail-name-loc-without-child.mlir.
// REQUIRES: mlir-opt
// RUN: %mlir_opt %s --mlir-print-debuginfo | mlc-opt - --print-debuginfo | filecheck %s

// CHECK: func.func @f(%arg0: i32 loc("x")) -> i32 {
// CHECK: return %arg0 : i32 loc("ret")
func.func @f(%arg0: i32 loc("x")) -> i32 {
  return %arg0 : i32 loc("ret")
}
