// --no-verify prints what parses, valid or not; without it the same input fails.
// RUN: mlc-opt %s --no-verify | filecheck %s
// RUN: not mlc-opt %s 2>&1 | filecheck %s --check-prefix=ERR

// CHECK: %0 = arith.addf %arg0, %arg0 : i32
// CHECK: return %0 : i32
// ERR: error: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
