// inline: every call whose callee has a body and is in no cycle of the call graph is
// replaced by the callee's body (several blocks: a split block and branches to it),
// callees inlined in turn; private functions left unused are erased, and the result
// canonicalized. The expected output is mlir-opt-22's for the same pass.
// RUN: mlc-opt %s --split-input-file --inline | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --inline | filecheck %s %}

// CHECK-NOT:   @dead
// CHECK-NOT:   @square
// CHECK-NOT:   @pick
// CHECK-LABEL: func.func private @forever(
// CHECK-NEXT:    call @forever(
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32) -> (i32, i32) {
// CHECK-NEXT:    %[[SQ:.*]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb2(%[[SQ]] : i32), ^bb1
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    %[[SQ2:.*]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:    cf.br ^bb2(%[[SQ2]] : i32)
// CHECK-NEXT:  ^bb2(%[[R:.*]]: i32):
// CHECK-NEXT:    %[[F:.*]] = call @forever(%[[R]]) : (i32) -> i32
// CHECK-NEXT:    return %[[R]], %[[F]] : i32, i32
func.func private @dead() -> i32 {
  %c = arith.constant 3 : i32
  return %c : i32
}
func.func private @square(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  return %0 : i32
}
func.func private @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %s = call @square(%b) : (i32) -> i32
  return %s : i32
}
func.func private @forever(%x: i32) -> i32 {
  %0 = call @forever(%x) : (i32) -> i32
  return %0 : i32
}
func.func @main(%c: i1, %a: i32) -> (i32, i32) {
  %0 = call @square(%a) : (i32) -> i32
  %1 = call @pick(%c, %0, %a) : (i1, i32, i32) -> i32
  %2 = call @forever(%1) : (i32) -> i32
  return %1, %2 : i32, i32
}

// -----

// Into a loop body: a one-block callee only; a public callee stays after inlining.
// CHECK-LABEL: func.func @twice(
// CHECK-NEXT:    %[[T:.*]] = arith.addi
// CHECK-NEXT:    return %[[T]]
// CHECK-LABEL: func.func @in_loop(
// CHECK:         scf.for
// CHECK-NEXT:      %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      scf.yield %[[S]] : i32
func.func @twice(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func @in_loop(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %t = func.call @twice(%acc) : (i32) -> i32
    scf.yield %t : i32
  }
  return %r : i32
}

// -----

// A call marked no_inline stays.
// CHECK-LABEL: func.func @caller(
// CHECK-NEXT:    call @callee() {no_inline}
func.func private @callee() {
  return
}
func.func @caller() {
  func.call @callee() {no_inline} : () -> ()
  return
}
