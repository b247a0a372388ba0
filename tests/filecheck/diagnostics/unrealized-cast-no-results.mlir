// Regression (fixed): builtin.unrealized_conversion_cast without results verifies (and prints as
// `builtin.unrealized_conversion_cast %arg0 : i32 to ` with nothing after `to`).
// mlir-opt-22: "'builtin.unrealized_conversion_cast' op expected at least one result
// for cast operation".
// RUN: mlc-opt %s --verify-diagnostics

func.func @f(%arg0: i32) {
  // expected-error@+1 {{expected at least one result for cast operation}}
  "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> ()
  return
}
