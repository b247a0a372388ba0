// LLVM's loop metadata as MLIR spells it: `#llvm.loop_annotation` and the attributes it
// nests, parameters in MLIR's order whatever the order written, nested values inline.
// mlir-opt-22 reads what mlc prints as the same attributes.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | %mlir_opt | mlc-opt | filecheck %s
// REQUIRES: mlir-opt

// CHECK: a = #llvm.loop_annotation<disableNonforced = true, vectorize = <disable = false, width = 16 : i32>, interleave = <count = 2 : i32>, unroll = <disable = true, count = 4 : i32>, mustProgress = true>
// CHECK-SAME: b = #llvm.loop_annotation<unroll = <full = true>>
#u = #llvm.loop_unroll<disable = true, count = 4 : i32>
func.func @f() attributes {a = #llvm.loop_annotation<mustProgress = true, unroll = #u, vectorize = <disable = false, width = 16 : i32>, interleave = <count = 2 : i32>, disableNonforced = true>, b = #llvm.loop_annotation<unroll = <full = true>>} {
  return
}
