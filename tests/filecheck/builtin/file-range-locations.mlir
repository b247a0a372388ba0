// File ranges (MLIR's FileLineColRange): `"f":L:C to :C2` on one line, `"f":L:C to L2:C2`
// across lines; a range ending on its first line prints in the short form. Same output
// as mlir-opt-22; a negative end is an error at its place, as there.
// RUN: mlc-opt %s --allow-unregistered-dialect --print-debuginfo --print-local-scope --split-input-file --verify-diagnostics | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s %}

// CHECK: "test.op"() : () -> () loc("f.mlir":10:8 to :12)
// CHECK: "test.op"() : () -> () loc("f.mlir":10:8 to 11:2)
// CHECK: "test.op"() : () -> () loc("f.mlir":10:8 to :12)
// CHECK: "test.op"() : () -> () loc(callsite("g.mlir":1:2 to :5 at "f.mlir":3:4))
"test.op"() : () -> () loc("f.mlir":10:8 to :12)
"test.op"() : () -> () loc("f.mlir":10:8 to 11:2)
"test.op"() : () -> () loc("f.mlir":10:8 to 10:12)
"test.op"() : () -> () loc(callsite("g.mlir":1:2 to :5 at "f.mlir":3:4))

// -----

// expected-error@+1 {{expected integer column number in FileLineColRange}}
"test.op"() : () -> () loc("f.mlir":10:8 to :-12)
