// `<=` in an integer set is a comparison, not a bracket (mlir-opt-22 prints the same).
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s

// CHECK: #[[SET:.+]] = affine_set<(d0)[s0] : (-d0 + s0 >= 0, d0 - 1 >= 0)>
#s = affine_set<(i)[n] : (i <= n, 1 <= i)>
// CHECK: "t.op"() {s = #[[SET]]}
"t.op"() {s = #s} : () -> ()
