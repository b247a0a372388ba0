// Regression (fixed): an entry block label in a function with named arguments is taken as a second
// block: `func.func @f(%arg0: i32) -> i32 {` followed by `^bb0:` gives "empty block:
// expect at least a terminator" (at the func) plus a dominance error at the return.
// mlir-opt-22: "invalid block name in region with named arguments", at the label.
// RUN: mlc-opt %s --verify-diagnostics

func.func @f(%arg0: i32) -> i32 {
// expected-error@+1 {{invalid block name in region with named arguments}}
^bb0:
  return %arg0 : i32
}
