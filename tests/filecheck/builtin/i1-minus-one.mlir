// Regression (fixed): `-1 : i1` is rejected ("integer constant out of range for attribute of type
// 'i1'"); MLIR reads it as all bits set, i.e. true. mlir-opt-22 prints the CHECK
// lines.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s

// CHECK: "foo.op"() {a = true} : () -> ()
"foo.op"() {a = -1 : i1} : () -> ()
// CHECK: arith.constant true
%true = arith.constant -1 : i1
