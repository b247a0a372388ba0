// Regression (fixed): the properties of an unregistered op (`<{...}>`) are merged into its attribute
// dictionary: `"foo.props"() <{prop = 1 : i32}> {d = "x"}` prints as
// `"foo.props"() {d = "x", prop = 1 : i32}`, so the generic output given to mlir-opt
// is a different op. mlir-opt-22 keeps `<{prop = 1 : i32}> {d = "x"}`.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | filecheck %s

// CHECK: "foo.props"() <{prop = 1 : i32}> {d = "x"} : () -> i8
%0 = "foo.props"() <{prop = 1 : i32}> {d = "x"} : () -> i8
// CHECK: "foo.only_props"() <{a = [1, 2], b = "s"}> : () -> ()
"foo.only_props"() <{b = "s", a = [1, 2]}> : () -> ()
