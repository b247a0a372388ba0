// Atomic read-modify-write: memref.atomic_rmw, llvm.atomicrmw and llvm.cmpxchg print as
// mlir-opt-22 prints them (flags before the operands, the syncscope and orderings
// after), store MLIR's numbers in generic form, and translate to LLVM IR as
// mlir-translate-22 writes it (natural alignment unless given); convert-to-llvm makes
// a memref.atomic_rmw an llvm.atomicrmw (acq_rel) at the element's address.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: mlc-opt %s --convert-to-llvm | filecheck %s --check-prefix=LOWERED
// RUN: mlc-opt %s --convert-to-llvm | mlc-translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR
// RUN: %if mlir-opt %{ mlc-opt %s --convert-to-llvm --print-op-generic | %mlir_translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR %}

func.func @memref_atomics(%m: memref<2x3xi64>, %f: memref<4xf32>, %v: i64, %x: f32, %i: index) -> (i64, i64, f32, i64) {
  %0 = memref.atomic_rmw addi %v, %m[%i, %i] : (i64, memref<2x3xi64>) -> i64
  %1 = memref.atomic_rmw assign %v, %m[%i, %i] : (i64, memref<2x3xi64>) -> i64
  %2 = memref.atomic_rmw maximumf %x, %f[%i] : (f32, memref<4xf32>) -> f32
  %3 = memref.atomic_rmw minu %v, %m[%i, %i] : (i64, memref<2x3xi64>) -> i64
  return %0, %1, %2, %3 : i64, i64, f32, i64
}

// CHECK-LABEL: func.func @memref_atomics(
// CHECK:         memref.atomic_rmw addi %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (i64, memref<2x3xi64>) -> i64
// CHECK:         memref.atomic_rmw assign %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (i64, memref<2x3xi64>) -> i64
// CHECK:         memref.atomic_rmw maximumf %{{.*}}, %{{.*}}[%{{.*}}] : (f32, memref<4xf32>) -> f32
// CHECK:         memref.atomic_rmw minu %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : (i64, memref<2x3xi64>) -> i64
// GENERIC:       "memref.atomic_rmw"({{.*}}) <{kind = 1 : i64}> : (i64, memref<2x3xi64>, index, index) -> i64
// GENERIC:       "memref.atomic_rmw"({{.*}}) <{kind = 3 : i64}>
// GENERIC:       "memref.atomic_rmw"({{.*}}) <{kind = 4 : i64}>
// GENERIC:       "memref.atomic_rmw"({{.*}}) <{kind = 11 : i64}>
// LOWERED-LABEL: llvm.func @memref_atomics(
// LOWERED:         llvm.atomicrmw add %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i64
// LOWERED:         llvm.atomicrmw xchg %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i64
// LOWERED:         llvm.atomicrmw fmaximum %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, f32
// LOWERED:         llvm.atomicrmw umin %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i64
// LLVMIR-LABEL: define {{.*}} @{{"?}}memref_atomics{{"?}}(
// LLVMIR:         atomicrmw add ptr %{{.*}}, i64 %{{.*}} acq_rel, align 8
// LLVMIR:         atomicrmw xchg ptr %{{.*}}, i64 %{{.*}} acq_rel, align 8
// LLVMIR:         atomicrmw fmaximum ptr %{{.*}}, float %{{.*}} acq_rel, align 4
// LLVMIR:         atomicrmw umin ptr %{{.*}}, i64 %{{.*}} acq_rel, align 8

llvm.func @llvm_atomics(%p: !llvm.ptr, %v: i64, %c: i64, %x: f32) -> i64 {
  %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i64
  %1 = llvm.cmpxchg %p, %c, %v acq_rel monotonic : !llvm.ptr, i64
  %2 = llvm.atomicrmw xchg %p, %v seq_cst {alignment = 16 : i64} : !llvm.ptr, i64
  %3 = llvm.cmpxchg weak volatile %p, %c, %v syncscope("singlethread") acquire acquire {alignment = 8 : i64} : !llvm.ptr, i64
  %4 = llvm.atomicrmw volatile fadd %p, %x acq_rel : !llvm.ptr, f32
  %5 = llvm.atomicrmw _and %p, %v syncscope("singlethread") monotonic : !llvm.ptr, i64
  %6 = llvm.extractvalue %1[0] : !llvm.struct<(i64, i1)> 
  llvm.return %6 : i64
}

// CHECK-LABEL: llvm.func @llvm_atomics(
// CHECK:         %[[R:.*]] = llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i64
// CHECK:         %[[X:.*]] = llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel monotonic : !llvm.ptr, i64
// CHECK:         llvm.atomicrmw xchg %{{.*}}, %{{.*}} seq_cst {alignment = 16 : i64} : !llvm.ptr, i64
// CHECK:         llvm.cmpxchg weak volatile %{{.*}}, %{{.*}}, %{{.*}} syncscope("singlethread") acquire acquire {alignment = 8 : i64} : !llvm.ptr, i64
// CHECK:         llvm.atomicrmw volatile fadd %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, f32
// CHECK:         llvm.atomicrmw _and %{{.*}}, %{{.*}} syncscope("singlethread") monotonic : !llvm.ptr, i64
// CHECK:         llvm.extractvalue %[[X]][0] : !llvm.struct<(i64, i1)>
// GENERIC:       "llvm.atomicrmw"({{.*}}) <{bin_op = 1 : i64, ordering = 2 : i64}> : (!llvm.ptr, i64) -> i64
// GENERIC:       "llvm.cmpxchg"({{.*}}) <{failure_ordering = 2 : i64, success_ordering = 6 : i64}> : (!llvm.ptr, i64, i64) -> !llvm.struct<(i64, i1)>
// GENERIC:       "llvm.atomicrmw"({{.*}}) <{alignment = 16 : i64, bin_op = 0 : i64, ordering = 7 : i64}>
// GENERIC:       "llvm.cmpxchg"({{.*}}) <{alignment = 8 : i64, failure_ordering = 4 : i64, success_ordering = 4 : i64, syncscope = "singlethread", volatile_, weak}>
// GENERIC:       "llvm.atomicrmw"({{.*}}) <{bin_op = 11 : i64, ordering = 6 : i64, volatile_}>
// LLVMIR-LABEL: define i64 @{{"?}}llvm_atomics{{"?}}(
// LLVMIR:         atomicrmw add ptr %{{.*}}, i64 %{{.*}} monotonic, align 8
// LLVMIR:         cmpxchg ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}} acq_rel monotonic, align 8
// LLVMIR:         atomicrmw xchg ptr %{{.*}}, i64 %{{.*}} seq_cst, align 16
// LLVMIR:         cmpxchg weak volatile ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}} syncscope("singlethread") acquire acquire, align 8
// LLVMIR:         atomicrmw volatile fadd ptr %{{.*}}, float %{{.*}} acq_rel, align 4
// LLVMIR:         atomicrmw and ptr %{{.*}}, i64 %{{.*}} syncscope("singlethread") monotonic, align 8
