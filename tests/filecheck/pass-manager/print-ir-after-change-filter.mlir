// Regression (fixed): --print-ir-after-change is ignored when --print-ir-after=PASSES or
// --print-ir-after-all is given too: every run of those passes is printed,
// changed or not. Here cse changes neither function, yet mlc prints
// "IR Dump After cse (cse) on 'func.func' @f" and "... @g".
// In mlir-opt-22, -mlir-print-ir-after-change restricts -mlir-print-ir-after /
// -mlir-print-ir-after-all to the passes that changed the IR: with
// --mlir-print-ir-after=cse --mlir-print-ir-after-change it prints nothing here.
// RUN: mlc-opt %s -p 'builtin.module(func.func(cse))' --print-ir-after=cse --print-ir-after-change 2>&1 >/dev/null | filecheck %s --allow-empty
// RUN: mlc-opt %s -p 'builtin.module(func.func(cse))' --print-ir-after-all --print-ir-after-change 2>&1 >/dev/null | filecheck %s --allow-empty

// CHECK-NOT: IR Dump
func.func @f(%arg0: i32) -> i32 {
  return %arg0 : i32
}
func.func @g() {
  return
}
