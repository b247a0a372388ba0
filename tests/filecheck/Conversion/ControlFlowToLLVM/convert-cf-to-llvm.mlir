// convert-cf-to-llvm: branches become llvm's, their successors' arguments converted
// (index to i64, behind unrealized casts); cf.assert splits its block and, when the
// condition fails, prints its message with puts and aborts (the message a private
// global, one per assert). The expected output is mlir-opt-22's for the same pass.
// RUN: mlc-opt %s --convert-cf-to-llvm | filecheck %s
// RUN: mlc-opt %s --convert-cf-to-llvm --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-cf-to-llvm | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --convert-cf-to-llvm --print-op-generic | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: llvm.mlir.global private constant @assert_msg_1(dense<[116, 119, 111, 0]> : tensor<4xi8>) {addr_space = 0 : i32} : !llvm.array<4 x i8>
// CHECK-LABEL: llvm.mlir.global private constant @assert_msg_0(dense<[111, 110, 101, 0]> : tensor<4xi8>) {addr_space = 0 : i32} : !llvm.array<4 x i8>
// CHECK-LABEL: llvm.func @abort()
// CHECK-LABEL: llvm.func @puts(!llvm.ptr)
// CHECK-LABEL: llvm.mlir.global private constant @assert_msg(dense<[98, 111, 111, 109, 0]> : tensor<5xi8>) {addr_space = 0 : i32} : !llvm.array<5 x i8>
// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32, %arg2: index) -> index {
// CHECK-NEXT:    %0 = builtin.unrealized_conversion_cast %arg2 : index to i64
// CHECK-NEXT:    llvm.cond_br %arg0 weights([3, 5]), ^bb1(%0 : i64), ^bb2(%arg1 : i32)
// CHECK-NEXT:  ^bb1(%1: i64):  // pred: ^bb0
// CHECK-NEXT:    llvm.switch %arg1 : i32, ^bb2(%arg1 : i32) [
// CHECK-NEXT:      -1: ^bb4(%1 : i64),
// CHECK-NEXT:      42: ^bb4(%0 : i64)
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb2(%2: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    llvm.cond_br %arg0, ^bb3, ^bb5
// CHECK-NEXT:  ^bb3:  // pred: ^bb2
// CHECK-NEXT:    llvm.br ^bb4(%0 : i64)
// CHECK-NEXT:  ^bb4(%3: i64):  // 3 preds: ^bb1, ^bb1, ^bb3
// CHECK-NEXT:    %4 = builtin.unrealized_conversion_cast %3 : i64 to index
// CHECK-NEXT:    return %4 : index
// CHECK-NEXT:  ^bb5:  // pred: ^bb2
// CHECK-NEXT:    %5 = llvm.mlir.addressof @assert_msg : !llvm.ptr
// CHECK-NEXT:    %6 = llvm.getelementptr %5[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<5 x i8>
// CHECK-NEXT:    llvm.call @puts(%6) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @asserts(%arg0: i1, %arg1: i1) {
// CHECK-NEXT:    llvm.cond_br %arg0, ^bb1, ^bb3
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    llvm.cond_br %arg1, ^bb2, ^bb4
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    return
// CHECK-NEXT:  ^bb3:  // pred: ^bb0
// CHECK-NEXT:    %0 = llvm.mlir.addressof @assert_msg_0 : !llvm.ptr
// CHECK-NEXT:    %1 = llvm.getelementptr %0[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
// CHECK-NEXT:    llvm.call @puts(%1) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  ^bb4:  // pred: ^bb1
// CHECK-NEXT:    %2 = llvm.mlir.addressof @assert_msg_1 : !llvm.ptr
// CHECK-NEXT:    %3 = llvm.getelementptr %2[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
// CHECK-NEXT:    llvm.call @puts(%3) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  }

func.func @branches(%arg0: i1, %arg1: i32, %arg2: index) -> index {
  cf.cond_br %arg0 weights([3, 5]), ^bb1(%arg2 : index), ^bb2(%arg1 : i32)
^bb1(%0: index):
  cf.switch %arg1 : i32, [
    default: ^bb2(%arg1 : i32),
    -1: ^bb3(%0 : index),
    42: ^bb3(%arg2 : index)
  ]
^bb2(%1: i32):
  cf.assert %arg0, "boom"
  cf.br ^bb3(%arg2 : index)
^bb3(%2: index):
  return %2 : index
}
func.func @asserts(%arg0: i1, %arg1: i1) {
  cf.assert %arg0, "one"
  cf.assert %arg1, "two"
  return
}
