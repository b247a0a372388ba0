// Regression (fixed): a signless integer attribute keeps the spelling it was written with instead of
// MLIR's canonical (signed) value: `255 : i8` prints as `255 : i8`, `0xFFFFFFFF : i32`
// as `4294967295 : i32`. MLIR prints `-1 : i8` / `-1 : i32`; in mlc
// `IntegerAttr(255, i8) != IntegerAttr(-1, i8)`, so equal constants compare unequal.
// mlir-opt-22 prints the CHECK lines below.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s

// CHECK: "foo.int"() {a = -1 : i8, b = -1 : i32, c = -1 : i64, d = -128 : i8} : () -> ()
"foo.int"() {a = 255 : i8, b = 0xFFFFFFFF : i32, c = 18446744073709551615 : i64, d = 128 : i8} : () -> ()

func.func @f() -> i8 {
  // CHECK: arith.constant -1 : i8
  %0 = arith.constant 255 : i8
  return %0 : i8
}
