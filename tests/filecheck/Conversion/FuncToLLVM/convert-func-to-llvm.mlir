// convert-func-to-llvm: functions, calls and returns become llvm's (index as i64, behind
// unrealized casts; several results packed into a struct); other ops, and the
// arguments of blocks other than the entry block, stay for their own dialects'
// lowerings. The expected output is mlir-opt-22's for the same pass.
// RUN: mlc-opt %s --convert-func-to-llvm | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-func-to-llvm | filecheck %s %}
// convert-to-llvm with only func's patterns does the same, in mlc as in mlir-opt-22.
// RUN: mlc-opt %s '--convert-to-llvm=filter-dialects=func' | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s '--convert-to-llvm=filter-dialects=func' | filecheck %s %}

// CHECK-LABEL: llvm.func @pair(i32) -> !llvm.struct<(i32, f32)> attributes {sym_visibility = "private"}
func.func private @pair(i32) -> (i32, f32)

// CHECK-LABEL: llvm.func @branches(
// CHECK-SAME:      %[[I:.*]]: i64, %[[C:.*]]: i1) -> i64 {
// CHECK-NEXT:    %[[IDX:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to index
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[IDX]], %[[IDX]] : index
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb1(%[[SUM]] : index), ^bb1(%[[IDX]] : index)
// CHECK-NEXT:  ^bb1(%[[X:.*]]: index):
// CHECK-NEXT:    %[[RET:.*]] = builtin.unrealized_conversion_cast %[[X]] : index to i64
// CHECK-NEXT:    llvm.return %[[RET]] : i64
// CHECK-NEXT:  }
func.func @branches(%i: index, %c: i1) -> index {
  %0 = arith.addi %i, %i : index
  cf.cond_br %c, ^bb1(%0 : index), ^bb1(%i : index)
^bb1(%x: index):
  return %x : index
}

// CHECK-LABEL: llvm.func @calls(
// CHECK-SAME:      %[[A:.*]]: i32) -> !llvm.struct<(f32, i32)> {
// CHECK-NEXT:    %[[R:.*]] = llvm.call @pair(%[[A]]) : (i32) -> !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[R0:.*]] = llvm.extractvalue %[[R]][0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[R1:.*]] = llvm.extractvalue %[[R]][1] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(f32, i32)>
// CHECK-NEXT:    %[[P0:.*]] = llvm.insertvalue %[[R1]], %[[P]][0] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:    %[[P1:.*]] = llvm.insertvalue %[[R0]], %[[P0]][1] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:    llvm.return %[[P1]] : !llvm.struct<(f32, i32)>
func.func @calls(%a: i32) -> (f32, i32) {
  %0:2 = call @pair(%a) : (i32) -> (i32, f32)
  return %0#1, %0#0 : f32, i32
}

// CHECK-LABEL: llvm.func @no_results()
// CHECK-NEXT:    llvm.return
func.func @no_results() {
  return
}
