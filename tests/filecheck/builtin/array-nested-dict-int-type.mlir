// Regression (fixed): in an array, the `: i64` of an integer is elided also inside a nested
// dictionary: `[{b = 1 : i64}]` prints as `[{b = 1}]` (same value, but not MLIR's
// form; it shows in the generic form of func.func's arg_attrs). MLIR elides the
// default type only of the array's direct elements: mlir-opt-22 prints the CHECK line.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK: "foo.op"() {a = [{b = 1 : i64}], c = [1], d = {e = 2 : i64}} : () -> ()
"foo.op"() {a = [{b = 1 : i64}], c = [1 : i64], d = {e = 2 : i64}} : () -> ()

// GENERIC: "func.func"() <{arg_attrs = [{foo.a = 1 : i64}], function_type = (i32) -> (), sym_name = "f", sym_visibility = "private"}>
func.func private @f(i32 {foo.a = 1 : i64})
