// LLVM types printed as mlir-opt-22 prints them: identified structs (named, packed,
// opaque, nested), the types only intrinsics use (token, label, metadata), ppc_fp128,
// and arrays whose size is written `2x`.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}

// CHECK-LABEL: llvm.func @identified(
// CHECK-SAME:      !llvm.struct<"node", (i32, ptr)>, !llvm.struct<"header", packed (i8, struct<"node", (i32, ptr)>)>, !llvm.struct<"hidden", opaque>, !llvm.struct<"with \22quotes\22", ()>)
llvm.func @identified(!llvm.struct<"node", (i32, ptr)>, !llvm.struct<"header", packed (i8, struct<"node", (i32, ptr)>)>, !llvm.struct<"hidden", opaque>, !llvm.struct<"with \"quotes\"", ()>)

// CHECK-LABEL: llvm.func @special(
// CHECK-SAME:      !llvm.ppc_fp128, !llvm.array<2 x struct<(i32, f32)>>) -> !llvm.token
llvm.func @special(!llvm.ppc_fp128, !llvm.array<2x!llvm.struct<(i32, f32)>>) -> !llvm.token

// CHECK-LABEL: llvm.func @intrinsic_operands(
// CHECK-SAME:      !llvm.metadata, !llvm.label)
llvm.func @intrinsic_operands(!llvm.metadata, !llvm.label)
