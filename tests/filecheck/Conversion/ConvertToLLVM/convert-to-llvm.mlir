// convert-to-llvm on a function of arith, math, cf and ub ops: one conversion with every
// dialect's patterns, then the unrealized casts between them reconciled away. The
// expected output is mlir-opt-22's --convert-to-llvm on the same input.
// RUN: mlc-opt %s --convert-to-llvm | filecheck %s
// RUN: mlc-opt %s --convert-to-llvm --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-to-llvm | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --convert-to-llvm --print-op-generic | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: llvm.func @abort()
// CHECK-LABEL: llvm.func @puts(!llvm.ptr)
// CHECK-LABEL: llvm.mlir.global private constant @assert_msg(dense<[99, 104, 101, 99, 107, 101, 100, 0]> : tensor<8xi8>) {addr_space = 0 : i32} : !llvm.array<8 x i8>
// CHECK-LABEL: llvm.func @kernel(%arg0: i64, %arg1: f32, %arg2: i1) -> f32 {
// CHECK-NEXT:    %0 = llvm.mlir.constant(1 : index) : i64
// CHECK-NEXT:    %1 = llvm.add %arg0, %0 : i64
// CHECK-NEXT:    %2 = llvm.trunc %1 : i64 to i32
// CHECK-NEXT:    %3 = llvm.sitofp %2 : i32 to f32
// CHECK-NEXT:    %4 = llvm.intr.sqrt(%3) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT:    llvm.cond_br %arg2, ^bb1(%1 : i64), ^bb2
// CHECK-NEXT:  ^bb1(%5: i64):  // pred: ^bb0
// CHECK-NEXT:    %6 = llvm.uitofp %5 : i64 to f32
// CHECK-NEXT:    %7 = llvm.fmul %6, %4 : f32
// CHECK-NEXT:    llvm.br ^bb2
// CHECK-NEXT:  ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    %8 = llvm.mlir.poison : f32
// CHECK-NEXT:    %9 = llvm.intr.maximum(%4, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    llvm.cond_br %arg2, ^bb3, ^bb4
// CHECK-NEXT:  ^bb3:  // pred: ^bb2
// CHECK-NEXT:    llvm.return %9 : f32
// CHECK-NEXT:  ^bb4:  // pred: ^bb2
// CHECK-NEXT:    %10 = llvm.mlir.addressof @assert_msg : !llvm.ptr
// CHECK-NEXT:    %11 = llvm.getelementptr %10[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<8 x i8>
// CHECK-NEXT:    llvm.call @puts(%11) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  }

llvm.func @kernel(%arg0: i64, %arg1: f32, %arg2: i1) -> f32 {
  %0 = arith.index_cast %arg0 : i64 to index
  %c1 = arith.constant 1 : index
  %1 = arith.addi %0, %c1 : index
  %2 = arith.index_cast %1 : index to i32
  %3 = arith.sitofp %2 : i32 to f32
  %4 = math.sqrt %3 fastmath<fast> : f32
  cf.cond_br %arg2, ^bb1(%1 : index), ^bb2
^bb1(%5: index):
  %6 = arith.index_cast %5 : index to i64
  %7 = arith.uitofp %6 : i64 to f32
  %8 = arith.mulf %7, %4 : f32
  cf.br ^bb2
^bb2:
  %9 = ub.poison : f32
  %10 = arith.maximumf %4, %arg1 : f32
  cf.assert %arg2, "checked"
  llvm.return %10 : f32
}
