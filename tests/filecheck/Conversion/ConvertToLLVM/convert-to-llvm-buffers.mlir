// convert-to-llvm on functions of buffers: func, memref (static shapes) and 1-D vector
// ops. A memref is one pointer to its view's first element (MLIR's bare-pointer
// convention, kept inside functions): loads and stores address `ptr + sum(i * stride)`,
// a subview advances the pointer by its offset, allocation calls the C library.
// RUN: mlc-opt %s --convert-scf-to-cf --convert-to-llvm | filecheck %s
// RUN: mlc-opt %s --convert-scf-to-cf --convert-to-llvm --print-op-generic | %mlir_translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVMIR
// REQUIRES: mlir-translate

// CHECK-DAG:   llvm.func @free(!llvm.ptr)
// CHECK-DAG:   llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @load_2d(
// CHECK-SAME:      %[[M:.*]]: !llvm.ptr {llvm.noalias}, %[[I:.*]]: i64, %[[J:.*]]: i64) -> f32
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK:         %[[ROW:.*]] = llvm.mul %[[I]], %[[C8]] overflow<nsw> : i64
// CHECK:         %[[OFF:.*]] = llvm.add %[[ROW]], %[[J]] overflow<nsw> : i64
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %[[M]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[V:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK:         llvm.return %[[V]] : f32
// LLVMIR-DAG:   declare ptr @aligned_alloc(i64, i64)
// LLVMIR-DAG:   declare void @free(ptr)
// LLVMIR-LABEL: define float @load_2d(ptr noalias %0, i64 %1, i64 %2)
// LLVMIR:         getelementptr inbounds float, ptr %0
func.func @load_2d(%m: memref<4x8xf32> {llvm.noalias}, %i: index, %j: index) -> f32 {
  %v = memref.load %m[%i, %j] : memref<4x8xf32>
  return %v : f32
}

// A subview's pointer is its source's advanced by the offset; its strides come from
// its type.
// CHECK-LABEL: llvm.func @subview_store(
// CHECK-SAME:      %[[M:.*]]: !llvm.ptr, %[[X:.*]]: f32)
// CHECK-DAG:     %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG:     %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG:     %[[C8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK:         %[[ROW:.*]] = llvm.mul %[[C1]], %[[C8]] overflow<nsw> : i64
// CHECK:         %[[OFF:.*]] = llvm.add %[[ROW]], %[[C2]] overflow<nsw> : i64
// CHECK:         %[[VIEW:.*]] = llvm.getelementptr inbounds %[[M]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %[[VIEW]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.store %[[X]], %[[P]] {alignment = 4 : i64} : f32, !llvm.ptr
func.func @subview_store(%m: memref<4x8xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[1, 2] [2, 2] [1, 1] : memref<4x8xf32> to memref<2x2xf32, strided<[8, 1], offset: 10>>
  memref.store %x, %s[%c0, %c0] : memref<2x2xf32, strided<[8, 1], offset: 10>>
  return
}

// CHECK-LABEL: llvm.func @heap()
// CHECK:         %[[ALIGN:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK:         %[[SIZE:.*]] = llvm.mlir.constant(128 : i64) : i64
// CHECK:         %[[BUF:.*]] = llvm.call @aligned_alloc(%[[ALIGN]], %[[SIZE]]) : (i64, i64) -> !llvm.ptr
// CHECK:         llvm.call @free(%[[BUF]]) : (!llvm.ptr) -> ()
func.func @heap() {
  %b = memref.alloc() : memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32>
  return
}

// A global holds its constant; get_global takes its address.
// CHECK:       llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x f32>
// CHECK-LABEL: llvm.func @read_table(
// CHECK:         %[[T:.*]] = llvm.mlir.addressof @table : !llvm.ptr
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
func.func @read_table(%i: index) -> f32 {
  %t = memref.get_global @table : memref<2xf32>
  %v = memref.load %t[%i] : memref<2xf32>
  return %v : f32
}

// Vectors: a load of the last dim, a broadcast (insertelement + zero-mask shuffle), an
// fma (fmuladd), a reduction (LLVM's intrinsic with the start value).
// CHECK-LABEL: llvm.func @vectors(
// CHECK:         llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK:         llvm.insertelement
// CHECK:         llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xf32>
// CHECK:         llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
// CHECK:         "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}})
// LLVMIR:        call float @llvm.vector.reduce.fadd.v8f32(
func.func @vectors(%m: memref<2x8xf32>, %s: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c1, %c0] : memref<2x8xf32>, vector<8xf32>
  %b = vector.broadcast %s : f32 to vector<8xf32>
  %f = vector.fma %v, %b, %v : vector<8xf32>
  vector.store %f, %m[%c0, %c0] : memref<2x8xf32>, vector<8xf32>
  %r = vector.reduction <add>, %f : vector<8xf32> into f32
  return %r : f32
}

// Several results come back in a struct; the caller takes them apart.
// CHECK-LABEL: llvm.func @pair(
// CHECK:         llvm.return %{{.*}} : !llvm.struct<(i32, f32)>
// CHECK-LABEL: llvm.func @call_pair(
// CHECK:         %[[S:.*]] = llvm.call @pair(%{{.*}}, %{{.*}}) : (i32, f32) -> !llvm.struct<(i32, f32)>
// CHECK:         llvm.extractvalue %[[S]][0] : !llvm.struct<(i32, f32)>
// CHECK:         llvm.extractvalue %[[S]][1] : !llvm.struct<(i32, f32)>
func.func @pair(%a: i32, %b: f32) -> (i32, f32) {
  return %a, %b : i32, f32
}
func.func @call_pair(%a: i32, %b: f32) -> f32 {
  %x, %y = call @pair(%a, %b) : (i32, f32) -> (i32, f32)
  return %y : f32
}
