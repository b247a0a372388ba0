// Where --canonicalize leaves constants, as mlir-opt-22's folder does: a constant made
// by folding is made just before the op that folded, and any constant that is neither
// first in the entry block nor right after another known constant moves to the start
// of that block. So a folded constant comes before the constants that were already at
// the top, and constants folded one after the other keep their order; in both the
// top-down and the bottom-up walk.
// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(canonicalize{top-down=false})' | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s -pass-pipeline='builtin.module(canonicalize{top-down=false})' | filecheck %s %}

// CHECK-LABEL: func.func @folded_before_existing
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %{{.*}}, %[[ONE]] : i32
// CHECK-NEXT:    %[[PRODUCT:.*]] = arith.muli %[[SUM]], %[[FIVE]] : i32
// CHECK-NEXT:    return %[[PRODUCT]], %[[FIVE]] : i32, i32
func.func @folded_before_existing(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %1 = arith.addi %c2, %c3 : i32
  %2 = arith.muli %0, %1 : i32
  return %2, %1 : i32, i32
}

// CHECK-LABEL: func.func @folded_in_order
// CHECK-NEXT:    %[[POS:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[NEG:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:    return %[[POS]], %[[NEG]] : f32, f32
func.func @folded_in_order() -> (f32, f32) {
  %a = arith.constant 3.0 : f32
  %b = arith.constant -2.0 : f32
  %c = arith.constant -3.0 : f32
  %0 = arith.remf %a, %b : f32
  %1 = arith.remf %c, %b : f32
  return %0, %1 : f32, f32
}

// A constant after another op moves to the top even when nothing folds.
// CHECK-LABEL: func.func @hoisted_unfolded
// CHECK-NEXT:    %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %{{.*}}, %[[ONE]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.muli %[[A]], %[[SEVEN]] : i32
func.func @hoisted_unfolded(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %c7 = arith.constant 7 : i32
  %1 = arith.muli %0, %c7 : i32
  return %1 : i32
}

// Equal constants become one: the first the folder meets.
// CHECK-LABEL: func.func @uniqued
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.divsi %{{.*}}, %[[TWO]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.divsi %[[A]], %[[TWO]] : i32
// CHECK-NEXT:    return %[[B]] : i32
func.func @uniqued(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.divsi %x, %c2 : i32
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %sum = arith.addi %c1, %c1b : i32
  %1 = arith.divsi %0, %sum : i32
  return %1 : i32
}
