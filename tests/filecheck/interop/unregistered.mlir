// Interoperation with mlir-opt on unregistered ops (--allow-unregistered-dialect):
// several blocks with successors, multiple results, regions with entry arguments,
// dialect types and attributes. The IR is as mlir-opt prints it.
// REQUIRES: mlir-opt
// RUN: %mlir_opt %s --allow-unregistered-dialect > %t.theirs
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | %mlir_opt --allow-unregistered-dialect > %t.ours
// RUN: diff %t.ours %t.theirs
// RUN: mlc-opt %s --allow-unregistered-dialect > %t.mlc
// RUN: %mlir_opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect > %t.from-custom
// RUN: diff %t.from-custom %t.mlc
// RUN: %mlir_opt %s --allow-unregistered-dialect --mlir-print-op-generic | mlc-opt - --allow-unregistered-dialect | %mlir_opt --allow-unregistered-dialect > %t.from-generic
// RUN: diff %t.from-generic %t.theirs
// RUN: mlc-opt %s --allow-unregistered-dialect --print-debuginfo > %t.mlc-loc
// RUN: %mlir_opt %s --allow-unregistered-dialect --mlir-print-debuginfo | mlc-opt - --allow-unregistered-dialect --print-debuginfo > %t.from-loc
// RUN: diff %t.from-loc %t.mlc-loc
// RUN: %mlir_opt %s --allow-unregistered-dialect --mlir-print-debuginfo > %t.theirs-loc
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic --print-debuginfo | %mlir_opt --allow-unregistered-dialect --mlir-print-debuginfo > %t.ours-loc
// RUN: diff %t.ours-loc %t.theirs-loc

module {
  func.func @branches(%arg0: i32, %arg1: i1) -> i32 {
    %0:2 = "foo.two"(%arg0) : (i32) -> (i32, f32)
    %1 = arith.addi %0#0, %0#0 : i32
    "foo.cond_br"(%arg1)[^bb1, ^bb2] : (i1) -> ()
  ^bb1:  // pred: ^bb0
    "foo.br"()[^bb3] : () -> ()
  ^bb2:  // pred: ^bb0
    "foo.br"()[^bb3] : () -> ()
  ^bb3:  // 2 preds: ^bb1, ^bb2
    %2 = "foo.use"(%0#1, %1) {attr = 1 : i64, d = dense<[1, 2]> : tensor<2xi8>, s = "str"} : (f32, i32) -> i32
    return %2 : i32
  }
  func.func @regions(%arg0: index) {
    %0 = "foo.region"() ({
      %1 = "foo.val"() : () -> i32
      "foo.yield"(%1) : (i32) -> ()
    }, {
    ^bb0(%arg1: index, %arg2: f32):
      "foo.yield"() : () -> ()
    }, {
    }) {k = "v"} : () -> i64
    "foo.outer"() ({
      "foo.inner"(%0, %arg0) ({
        "foo.leaf"(%0) : (i64) -> ()
      }) : (i64, index) -> ()
    }) : () -> ()
    return
  }
  func.func private @types(!foo.t, !foo.t<1, "a">, tensor<4x!foo.t>) -> !foo<"opaque">
  "foo.top"() {a = #foo.attr<1>, b = #foo<"x">, c = @sym::@nested} : () -> ()
}

