// builtin.unrealized_conversion_cast, given in generic form and printed in custom
// form. (Custom input: xfail-unrealized-cast-custom.mlir.)
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @casts(%arg0: i32) -> f32 {
func.func @casts(%arg0: i32) -> f32 {
  // CHECK-NEXT: %0 = builtin.unrealized_conversion_cast %arg0 : i32 to f32
  // GENERIC: %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> f32
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> f32
  // CHECK-NEXT: %1:2 = builtin.unrealized_conversion_cast %arg0, %0 : i32, f32 to i64, f64
  // GENERIC: %1:2 = "builtin.unrealized_conversion_cast"(%arg0, %0) : (i32, f32) -> (i64, f64)
  %1:2 = "builtin.unrealized_conversion_cast"(%arg0, %0) : (i32, f32) -> (i64, f64)
  // CHECK-NEXT: %2 = builtin.unrealized_conversion_cast to i8
  // GENERIC: %2 = "builtin.unrealized_conversion_cast"() : () -> i8
  %2 = "builtin.unrealized_conversion_cast"() : () -> i8
  // CHECK-NEXT: %3 = builtin.unrealized_conversion_cast %arg0 : i32 to tensor<2xi32> {foo.note = "n"}
  %3 = "builtin.unrealized_conversion_cast"(%arg0) {foo.note = "n"} : (i32) -> tensor<2xi32>
  // CHECK-NEXT: return %0 : f32
  return %0 : f32
}
