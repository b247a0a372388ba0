// The cf ops in custom and generic form, printed as mlir-opt-22 prints them: successor
// operands in parentheses with their types, branch weights, a switch's cases one a
// line (negative case values print unsigned, as MLIR's printer does), and each block's
// predecessors in a comment.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: i32, %arg2: i64, %arg3: i32) -> i32 {
// CHECK-NEXT:    cf.cond_br %arg0 weights([3, 5]), ^bb1(%arg1 : i32), ^bb2(%arg1, %arg2 : i32, i64)
// CHECK-NEXT:  ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    cf.assert %arg0, "boom"
// CHECK-NEXT:    cf.switch %arg3 : i32, [
// CHECK-NEXT:      default: ^bb1(%0 : i32),
// CHECK-NEXT:      4294967295: ^bb2(%0, %arg2 : i32, i64),
// CHECK-NEXT:      42: ^bb3
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb2(%1: i32, %2: i64):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    cf.br ^bb3
// CHECK-NEXT:  ^bb3:  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    return %arg1 : i32
// GENERIC-LABEL: "func.func"
// GENERIC: "cf.cond_br"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})[^bb1, ^bb2] <{branch_weights = array<i32: 3, 5>, operandSegmentSizes = array<i32: 1, 1, 2>}> : (i1, i32, i32, i64) -> ()
// GENERIC: "cf.assert"(%{{.*}}) <{msg = "boom"}> : (i1) -> ()
// GENERIC: "cf.switch"(%{{.*}}, %[[X:[0-9]+]], %[[X]], %{{.*}})[^bb1, ^bb2, ^bb3] <{case_operand_segments = array<i32: 2, 0>, case_values = dense<[-1, 42]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 1, 2>}> : (i32, i32, i32, i64) -> ()
// GENERIC: "cf.br"()[^bb3] : () -> ()
func.func @branches(%arg0: i1, %arg1: i32, %arg2: i64, %arg3: i32) -> i32 {
  cf.cond_br %arg0 weights([3, 5]), ^bb1(%arg1 : i32), ^bb2(%arg1, %arg2 : i32, i64)
^bb1(%0: i32):
  cf.assert %arg0, "boom"
  cf.switch %arg3 : i32, [
    default: ^bb1(%0 : i32),
    -1: ^bb2(%0, %arg2 : i32, i64),
    42: ^bb3
  ]
^bb2(%1: i32, %2: i64):
  cf.br ^bb3
^bb3:
  return %arg1 : i32
}

// Case values are read as 64 bits, then truncated to the flag's width (300 is 44 as
// an i8); a switch without cases has no case_values (and, as mlir-opt prints it, its
// `]` stays on the default's line).
// CHECK-LABEL: func.func @switches(%arg0: i8, %arg1: i64) {
// CHECK-NEXT:    cf.switch %arg0 : i8, [
// CHECK-NEXT:      default: ^bb1,
// CHECK-NEXT:      255: ^bb1,
// CHECK-NEXT:      44: ^bb2
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb1:  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT:    cf.switch %arg1 : i64, [
// CHECK-NEXT:      default: ^bb2]
// CHECK-NEXT:  ^bb2:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    return
func.func @switches(%arg0: i8, %arg1: i64) {
  cf.switch %arg0 : i8, [
    default: ^bb1,
    -1: ^bb1,
    300: ^bb2
  ]
^bb1:
  cf.switch %arg1 : i64, [
    default: ^bb2
  ]
^bb2:
  return
}

// A loop: the header has two predecessors; an unreachable block says so.
// CHECK-LABEL: func.func @loop(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    cf.br ^bb1(%arg0 : i32)
// CHECK-NEXT:  ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1(%0 : i32), ^bb2
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  ^bb3:  // no predecessors
// CHECK-NEXT:    return %arg0 : i32
func.func @loop(%arg0: i32, %arg1: i1) -> i32 {
  cf.br ^bb1(%arg0 : i32)
^bb1(%0: i32):
  cf.cond_br %arg1, ^bb1(%0 : i32), ^bb2
^bb2:
  return %0 : i32
^bb3:
  return %arg0 : i32
}
