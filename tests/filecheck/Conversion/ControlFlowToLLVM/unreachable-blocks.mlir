// A dialect conversion converts no op in a block its region's entry cannot reach (as
// MLIR's driver): the unreachable loop keeps its cf.br and index argument, the
// reachable blocks are lowered. The expected output is mlir-opt-22's.
// RUN: mlc-opt %s --convert-cf-to-llvm | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-cf-to-llvm | filecheck %s %}

// CHECK-LABEL: func.func @unreachable_loop(
// CHECK-NEXT:    llvm.br ^bb1
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return
// CHECK-NEXT:  ^bb2(%[[I:.*]]: index):
// CHECK-NEXT:    cf.br ^bb2(%[[I]] : index)
func.func @unreachable_loop(%i: index) {
  cf.br ^bb1
^bb1:
  return
^bb2(%j: index):
  cf.br ^bb2(%j : index)
}
