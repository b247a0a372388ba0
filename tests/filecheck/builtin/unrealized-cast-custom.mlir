// Regression (fixed): the custom form of builtin.unrealized_conversion_cast does not parse:
// `%0 = builtin.unrealized_conversion_cast %arg0 : i32 to f32` fails with "cannot
// infer the result types of 'builtin.unrealized_conversion_cast'; pass result_types"
// (the `to type($outputs)` part is not used for the result types). mlc prints this
// very form, so mlc cannot read its own output. mlir-opt-22 prints it back unchanged.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s

// CHECK-LABEL: func.func @casts(%arg0: i32) -> f32 {
func.func @casts(%arg0: i32) -> f32 {
  // CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %arg0 : i32 to f32
  %0 = builtin.unrealized_conversion_cast %arg0 : i32 to f32
  // CHECK-NEXT: %1:2 = builtin.unrealized_conversion_cast %arg0, %0 : i32, f32 to i64, f64
  %1:2 = builtin.unrealized_conversion_cast %arg0, %0 : i32, f32 to i64, f64
  // CHECK-NEXT: %2 = builtin.unrealized_conversion_cast to i8
  %2 = builtin.unrealized_conversion_cast to i8
  // CHECK-NEXT: return %0 : f32
  return %0 : f32
}
