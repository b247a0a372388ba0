// With --split-input-file, the implicit module of each chunk is located where the
// chunk starts: the input's 0:0 for the first, the end of the split marker line for
// the others, as mlir-opt-22 locates them.
// RUN: mlc-opt %s --allow-unregistered-dialect --split-input-file --print-debuginfo --print-local-scope | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect --split-input-file --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s %}

// CHECK: } loc("{{.*}}split-chunk-module-location.mlir":0:0)
// CHECK: } loc("{{.*}}split-chunk-module-location.mlir":11:9)
"foo.op"() : () -> ()

// -----

"foo.op"() : () -> ()
