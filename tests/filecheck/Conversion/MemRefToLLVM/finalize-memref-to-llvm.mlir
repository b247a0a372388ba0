// finalize-memref-to-llvm: memref ops on statically shaped buffers become llvm's, each
// buffer one pointer to its first element (mlc's convention, MLIR's bare pointers;
// MLIR's descriptors are not implemented); other ops stay, with unrealized casts.
// With func lowered by the bare-pointer convention, what is left is llvm only, which
// mlir-translate-22 reads.
// RUN: mlc-opt %s --finalize-memref-to-llvm | filecheck %s
// RUN: %if mlir-translate %{ mlc-opt %s --finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 --reconcile-unrealized-casts | %mlir_translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR %}

// CHECK-LABEL: func.func @load_store(
// CHECK-SAME:      %[[M:.*]]: memref<4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index) -> f32 {
// CHECK-DAG:     %[[J64:.*]] = builtin.unrealized_conversion_cast %[[J]] : index to i64
// CHECK-DAG:     %[[I64:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK-DAG:     %[[P:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<4x8xf32> to !llvm.ptr
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    %[[A:.*]] = llvm.alloca %[[TWO]] x f32 {alignment = 64 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I64]], %[[EIGHT]] overflow<nsw> : i64
// CHECK-NEXT:    %[[OFF:.*]] = llvm.add %[[ROW]], %[[J64]] overflow<nsw> : i64
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.getelementptr inbounds %[[P]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[ADDR]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:    %[[AT:.*]] = llvm.getelementptr inbounds %[[A]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.store %[[V]], %[[AT]] {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK:         %[[W:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:    return %[[W]] : f32

// LLVMIR-LABEL: define float @load_store(ptr %0, i64 %1, i64 %2)
// LLVMIR:         %[[A:.*]] = alloca float, i64 2, align 64
// LLVMIR:         mul nsw i64 %1, 8
// LLVMIR:         load float, ptr %{{.*}}, align 4
// LLVMIR:         store float %{{.*}}, ptr %{{.*}}, align 4
// LLVMIR:         ret float
func.func @load_store(%m: memref<4x8xf32>, %i: index, %j: index) -> f32 {
  %a = memref.alloca() : memref<2xf32>
  %v = memref.load %m[%i, %j] : memref<4x8xf32>
  memref.store %v, %a[%i] : memref<2xf32>
  %w = memref.load %a[%i] : memref<2xf32>
  return %w : f32
}

