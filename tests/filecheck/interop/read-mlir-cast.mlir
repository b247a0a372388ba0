// Regression (fixed): mlc cannot read the custom form of builtin.unrealized_conversion_cast that
// mlir-opt (and mlc itself) prints: "cannot infer the result types of
// 'builtin.unrealized_conversion_cast'; pass result_types". See
// builtin/xfail-unrealized-cast-custom.mlir.
// REQUIRES: mlir-opt
// RUN: %mlir_opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s

// CHECK: %0 = builtin.unrealized_conversion_cast %arg0 : i32 to f32
// CHECK: %1:2 = builtin.unrealized_conversion_cast %arg0, %0 : i32, f32 to i64, f64
func.func @f(%arg0: i32) -> f32 {
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> f32
  %1:2 = "builtin.unrealized_conversion_cast"(%arg0, %0) : (i32, f32) -> (i64, f64)
  return %0 : f32
}
