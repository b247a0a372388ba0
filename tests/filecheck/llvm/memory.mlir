// The llvm dialect's memory, vector and aggregate ops, printed as mlir-opt-22 prints
// them: a GEP's constant indices inline and its flags (`inbounds`, `nusw`, `nuw`) before
// the base, load and store flags (`volatile`, `atomic <ordering>`, `invariant`) around
// the address; `shufflevector`, `insertvalue` and `extractvalue` end with MLIR's
// trailing space. In generic form a GEP's dynamic index is INT32_MIN in
// `rawConstantIndices`, and orderings are the `i64` MLIR stores.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt - | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: llvm.func @memory(%arg0: !llvm.ptr, %arg1: i64, %arg2: f32) -> f32 {
// CHECK-NEXT:    %0 = llvm.alloca %arg1 x f32 : (i64) -> !llvm.ptr
// CHECK-NEXT:    %1 = llvm.alloca %arg1 x !llvm.struct<(i32, f32)> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %2 = llvm.alloca inalloca %arg1 x i32 : (i64) -> !llvm.ptr
// CHECK-NEXT:    %3 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %4 = llvm.getelementptr inbounds %1[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %5 = llvm.getelementptr inbounds|nuw %arg0[%arg1, 3] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:    %6 = llvm.getelementptr nusw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:    %7 = llvm.load %3 : !llvm.ptr -> f32
// CHECK-NEXT:    %8 = llvm.load %4 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT:    %9 = llvm.load volatile %5 : !llvm.ptr -> f32
// CHECK-NEXT:    %10 = llvm.load %arg0 atomic acquire {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT:    %11 = llvm.load %arg0 invariant {nontemporal} : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT:    llvm.store %arg2, %0 : f32, !llvm.ptr
// CHECK-NEXT:    llvm.store %arg2, %0 {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NEXT:    llvm.store volatile %arg2, %0 : f32, !llvm.ptr
// CHECK-NEXT:    llvm.store %10, %arg0 atomic release {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NEXT:    llvm.return %7 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @vectors(%arg0: vector<4xf32>, %arg1: f32, %arg2: i32) -> vector<4xf32> {
// CHECK-NEXT:    %0 = llvm.extractelement %arg0[%arg2 : i32] : vector<4xf32>
// CHECK-NEXT:    %1 = llvm.insertelement %arg1, %arg0[%arg2 : i32] : vector<4xf32>
// CHECK-NEXT:    %2 = llvm.shufflevector %arg0, %1 [0, 4, 1, 5] : vector<4xf32> {{$}}
// CHECK-NEXT:    %3 = llvm.shufflevector %arg0, %arg0 [3, 2] : vector<4xf32> {{$}}
// CHECK-NEXT:    llvm.return %2 : vector<4xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @aggregates(%arg0: i32, %arg1: f32) -> !llvm.struct<(i32, array<2 x f32>)> {
// CHECK-NEXT:    %0 = llvm.mlir.undef : !llvm.struct<(i32, array<2 x f32>)>
// CHECK-NEXT:    %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(i32, array<2 x f32>)> {{$}}
// CHECK-NEXT:    %2 = llvm.insertvalue %arg1, %1[1, 1] : !llvm.struct<(i32, array<2 x f32>)> {{$}}
// CHECK-NEXT:    %3 = llvm.extractvalue %2[1] : !llvm.struct<(i32, array<2 x f32>)> {{$}}
// CHECK-NEXT:    %4 = llvm.extractvalue %3[0] : !llvm.array<2 x f32> {{$}}
// CHECK-NEXT:    llvm.return %2 : !llvm.struct<(i32, array<2 x f32>)>
// CHECK-NEXT:  }

// GENERIC: "llvm.alloca"({{.*}}) <{elem_type = f32}> : (i64) -> !llvm.ptr
// GENERIC: "llvm.alloca"({{.*}}) <{alignment = 16 : i64, elem_type = !llvm.struct<(i32, f32)>}> : (i64) -> !llvm.ptr
// GENERIC: "llvm.alloca"({{.*}}) <{elem_type = i32, inalloca}> : (i64) -> !llvm.ptr
// GENERIC: "llvm.getelementptr"({{.*}}) <{elem_type = f32, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i64) -> !llvm.ptr
// GENERIC: "llvm.getelementptr"({{.*}}) <{elem_type = !llvm.struct<(i32, f32)>, noWrapFlags = 3 : i32, rawConstantIndices = array<i32: 0, 1>}> : (!llvm.ptr) -> !llvm.ptr
// GENERIC: "llvm.getelementptr"({{.*}}) <{elem_type = !llvm.array<4 x f32>, noWrapFlags = 7 : i32, rawConstantIndices = array<i32: -2147483648, 3>}> : (!llvm.ptr, i64) -> !llvm.ptr
// GENERIC: "llvm.getelementptr"({{.*}}) <{elem_type = i8, noWrapFlags = 2 : i32, rawConstantIndices = array<i32: -1>}> : (!llvm.ptr) -> !llvm.ptr
// GENERIC: "llvm.load"({{.*}}) <{ordering = 0 : i64}> : (!llvm.ptr) -> f32
// GENERIC: "llvm.load"({{.*}}) <{alignment = 4 : i64, ordering = 0 : i64}> : (!llvm.ptr) -> f32
// GENERIC: "llvm.load"({{.*}}) <{ordering = 0 : i64, volatile_}> : (!llvm.ptr) -> f32
// GENERIC: "llvm.load"({{.*}}) <{alignment = 8 : i64, ordering = 4 : i64}> : (!llvm.ptr) -> i64
// GENERIC: "llvm.load"({{.*}}) <{invariant, nontemporal, ordering = 0 : i64}> : (!llvm.ptr) -> vector<4xf32>
// GENERIC: "llvm.store"({{.*}}) <{ordering = 0 : i64}> : (f32, !llvm.ptr) -> ()
// GENERIC: "llvm.store"({{.*}}) <{alignment = 4 : i64, ordering = 0 : i64}> : (f32, !llvm.ptr) -> ()
// GENERIC: "llvm.store"({{.*}}) <{ordering = 0 : i64, volatile_}> : (f32, !llvm.ptr) -> ()
// GENERIC: "llvm.store"({{.*}}) <{alignment = 8 : i64, ordering = 5 : i64}> : (i64, !llvm.ptr) -> ()
// GENERIC: "llvm.insertelement"({{.*}}) : (vector<4xf32>, f32, i32) -> vector<4xf32>
// GENERIC: "llvm.shufflevector"({{.*}}) <{mask = array<i32: 0, 4, 1, 5>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC: "llvm.shufflevector"({{.*}}) <{mask = array<i32: 3, 2>}> : (vector<4xf32>, vector<4xf32>) -> vector<2xf32>
// GENERIC: "llvm.insertvalue"({{.*}}) <{position = array<i64: 0>}> : (!llvm.struct<(i32, array<2 x f32>)>, i32) -> !llvm.struct<(i32, array<2 x f32>)>
// GENERIC: "llvm.insertvalue"({{.*}}) <{position = array<i64: 1, 1>}> : (!llvm.struct<(i32, array<2 x f32>)>, f32) -> !llvm.struct<(i32, array<2 x f32>)>
// GENERIC: "llvm.extractvalue"({{.*}}) <{position = array<i64: 1>}> : (!llvm.struct<(i32, array<2 x f32>)>) -> !llvm.array<2 x f32>
// GENERIC: "llvm.extractvalue"({{.*}}) <{position = array<i64: 0>}> : (!llvm.array<2 x f32>) -> f32

llvm.func @memory(%arg0: !llvm.ptr, %arg1: i64, %arg2: f32) -> f32 {
  %0 = llvm.alloca %arg1 x f32 : (i64) -> !llvm.ptr
  %1 = llvm.alloca %arg1 x !llvm.struct<(i32, f32)> {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %2 = llvm.alloca inalloca %arg1 x i32 : (i64) -> !llvm.ptr
  %3 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %4 = llvm.getelementptr inbounds %1[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  %5 = llvm.getelementptr inbounds|nuw %arg0[%arg1, 3] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
  %6 = llvm.getelementptr nusw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i8
  %7 = llvm.load %3 : !llvm.ptr -> f32
  %8 = llvm.load %4 {alignment = 4 : i64} : !llvm.ptr -> f32
  %9 = llvm.load volatile %5 : !llvm.ptr -> f32
  %10 = llvm.load %arg0 atomic acquire {alignment = 8 : i64} : !llvm.ptr -> i64
  %11 = llvm.load %arg0 invariant {nontemporal} : !llvm.ptr -> vector<4xf32>
  llvm.store %arg2, %0 : f32, !llvm.ptr
  llvm.store %arg2, %0 {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.store volatile %arg2, %0 : f32, !llvm.ptr
  llvm.store %10, %arg0 atomic release {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.return %7 : f32
}
llvm.func @vectors(%arg0: vector<4xf32>, %arg1: f32, %arg2: i32) -> vector<4xf32> {
  %0 = llvm.extractelement %arg0[%arg2 : i32] : vector<4xf32>
  %1 = llvm.insertelement %arg1, %arg0[%arg2 : i32] : vector<4xf32>
  %2 = llvm.shufflevector %arg0, %1 [0, 4, 1, 5] : vector<4xf32> 
  %3 = llvm.shufflevector %arg0, %arg0 [3, 2] : vector<4xf32> 
  llvm.return %2 : vector<4xf32>
}
llvm.func @aggregates(%arg0: i32, %arg1: f32) -> !llvm.struct<(i32, array<2 x f32>)> {
  %0 = llvm.mlir.undef : !llvm.struct<(i32, array<2 x f32>)>
  %1 = llvm.insertvalue %arg0, %0[0] : !llvm.struct<(i32, array<2 x f32>)> 
  %2 = llvm.insertvalue %arg1, %1[1, 1] : !llvm.struct<(i32, array<2 x f32>)> 
  %3 = llvm.extractvalue %2[1] : !llvm.struct<(i32, array<2 x f32>)> 
  %4 = llvm.extractvalue %3[0] : !llvm.array<2 x f32> 
  llvm.return %2 : !llvm.struct<(i32, array<2 x f32>)>
}
// CHECK-LABEL: llvm.func @atomics
// CHECK:         llvm.atomicrmw add %arg0, %arg1 monotonic : !llvm.ptr, i64
// CHECK:         llvm.cmpxchg %arg0, %arg2, %arg1 acq_rel monotonic : !llvm.ptr, i64
llvm.func @atomics(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64) -> i64 {
  %0 = llvm.atomicrmw add %arg0, %arg1 monotonic : !llvm.ptr, i64
  %1 = llvm.cmpxchg %arg0, %arg2, %arg1 acq_rel monotonic : !llvm.ptr, i64
  %2 = llvm.extractvalue %1[0] : !llvm.struct<(i64, i1)> 
  %3 = llvm.add %0, %2 : i64
  llvm.return %3 : i64
}
