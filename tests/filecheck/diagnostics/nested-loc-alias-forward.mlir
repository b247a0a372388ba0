// Regression (fixed): a location alias used, before its definition, inside another location crashes
// mlc or is lost: `loc(callsite(#loc1 at "b":1:1))` and `loc(fused[#loc1, ...])` give
// "mlc-opt: internal error: AttributeError: 'tuple' object has no attribute
// 'write_inner'" (exit 2, with --print-debuginfo), and `loc("n"(#loc1))` silently
// becomes `loc("n"(unknown))`. Only `loc(#alias)` itself may refer forward;
// mlir-opt-22: "undefined symbol alias id 'loc1'" for each of these.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --print-debuginfo

func.func @f() {
  // expected-error@+1 {{undefined symbol alias id 'loc1'}}
  return loc(callsite(#loc1 at "b":1:1))
}
#loc1 = loc("a":1:1)

// -----

func.func @f() {
  // expected-error@+1 {{undefined symbol alias id 'loc1'}}
  return loc(fused[#loc1, "b":1:1])
}
#loc1 = loc("a":1:1)

// -----

func.func @f() {
  // expected-error@+1 {{undefined symbol alias id 'loc1'}}
  return loc("n"(#loc1))
}
#loc1 = loc("a":1:1)
