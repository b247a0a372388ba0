// convert-func-to-llvm with memrefs in signatures: mlc passes a memref as one pointer
// (MLIR's bare-pointer convention, as mlir-opt-22 with the same option); MLIR's
// default, a descriptor struct, is refused with a diagnostic.
// RUN: not mlc-opt %s --convert-func-to-llvm 2>&1 | filecheck %s --check-prefix=DESCRIPTOR
// RUN: mlc-opt %s --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 | filecheck %s %}

// DESCRIPTOR: error: mlc lowers memrefs in signatures to bare pointers only (MLIR's memref descriptors are not implemented): use convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}
// CHECK-LABEL: llvm.func @buffer(
// CHECK-SAME:      %[[M:.*]]: !llvm.ptr) -> !llvm.ptr {
// CHECK:         llvm.return %{{.*}} : !llvm.ptr
func.func @buffer(%m: memref<4xf32>) -> memref<4xf32> {
  return %m : memref<4xf32>
}
