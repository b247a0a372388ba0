// convert-scf-to-cf: structured control flow as blocks and branches, as MLIR's
// SCFToControlFlow lowers it: the same blocks in the same order, the same block
// arguments, the loop header first, the latch last. The CHECK lines, written from
// mlir-opt-22's output, hold for both tools; MLC/MLIR lines say where they differ
// (the index_switch flag width, how the llvm attributes print).
// RUN: mlc-opt %s --allow-unregistered-dialect --convert-scf-to-cf --split-input-file | filecheck %s --check-prefixes=CHECK,MLC
// RUN: mlc-opt %s --allow-unregistered-dialect --convert-scf-to-cf="allow-pattern-rollback=0" --split-input-file | filecheck %s --check-prefixes=CHECK,MLC
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect --convert-scf-to-cf --split-input-file | filecheck %s --check-prefixes=CHECK,MLIR %}

// An integer induction variable, a loop-carried value: the header takes both.
// CHECK-LABEL: func.func @sum_i32(
// CHECK-SAME:      %[[LB:.*]]: i32, %[[UB:.*]]: i32, %[[STEP:.*]]: i32, %[[INIT:.*]]: f32) -> f32 {
// CHECK-NEXT:    cf.br ^bb1(%[[LB]], %[[INIT]] : i32, f32)
// CHECK-NEXT:  ^bb1(%[[IV:.*]]: i32, %[[ACC:.*]]: f32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    %[[CMP:.*]] = arith.cmpi slt, %[[IV]], %[[UB]] : i32
// CHECK-NEXT:    cf.cond_br %[[CMP]], ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    %[[F:.*]] = arith.sitofp %[[IV]] : i32 to f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[ACC]], %[[F]] : f32
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[IV]], %[[STEP]] : i32
// CHECK-NEXT:    cf.br ^bb1(%[[NEXT]], %[[S]] : i32, f32)
// CHECK-NEXT:  ^bb3:  // pred: ^bb1
// CHECK-NEXT:    return %[[ACC]] : f32
func.func @sum_i32(%lb: i32, %ub: i32, %step: i32, %init: f32) -> f32 {
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %init) -> (f32) : i32 {
    %f = arith.sitofp %i : i32 to f32
    %s = arith.addf %acc, %f : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// `unsigned` compares with ult.
// CHECK-LABEL: func.func @unsigned_i8(
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : i8
func.func @unsigned_i8(%lb: i8, %ub: i8, %step: i8) {
  scf.for unsigned %i = %lb to %ub step %step : i8 {
    "test.use"(%i) : (i8) -> ()
  }
  return
}

// With results: both ways branch to a block taking them, which goes on.
// CHECK-LABEL: func.func @if_results(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32) -> (i32, i32) {
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:    cf.br ^bb3(%[[S]], %[[A]] : i32, i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%[[B]], %[[B]] : i32, i32)
// CHECK-NEXT:  ^bb3(%[[R0:.*]]: i32, %[[R1:.*]]: i32):  // 2 preds: ^bb1, ^bb2
// CHECK-NEXT:    cf.br ^bb4
// CHECK-NEXT:  ^bb4:  // pred: ^bb3
// CHECK-NEXT:    return %[[R0]], %[[R1]] : i32, i32
func.func @if_results(%c: i1, %a: i32, %b: i32) -> (i32, i32) {
  %r:2 = scf.if %c -> (i32, i32) {
    %s = arith.addi %a, %b : i32
    scf.yield %s, %a : i32, i32
  } else {
    scf.yield %b, %b : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// The conversion folds the if first: on `xori %c, true`, it branches on %c, the
// regions swapped.
// CHECK-LABEL: func.func @if_negated(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32 {
// CHECK:         cf.cond_br %[[C]], ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%[[B]] : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%[[A]] : i32)
func.func @if_negated(%c: i1, %a: i32, %b: i32) -> i32 {
  %true = arith.constant true
  %n = arith.xori %c, %true : i1
  %r = scf.if %n -> (i32) {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }
  return %r : i32
}

// The before region is the header; the after region branches back to it.
// CHECK-LABEL: func.func @while_loop(
// CHECK:         cf.br ^bb1(%[[ZERO:.*]], %[[ZERO]] : i32, i32)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: i32, %[[ACC:.*]]: i32):  // 2 preds: ^bb0, ^bb2
// CHECK-NEXT:    %[[GO:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : i32
// CHECK-NEXT:    cf.cond_br %[[GO]], ^bb2(%[[I]], %[[ACC]] : i32, i32), ^bb3
// CHECK-NEXT:  ^bb2(%[[J:.*]]: i32, %[[X:.*]]: i32):  // pred: ^bb1
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %[[J]], %{{.*}} : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[X]], %[[J]] : i32
// CHECK-NEXT:    cf.br ^bb1(%[[NEXT]], %[[Y]] : i32, i32)
// CHECK-NEXT:  ^bb3:  // pred: ^bb1
// CHECK-NEXT:    return %[[ACC]] : i32
func.func @while_loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%j: i32, %x: i32):
    %next = arith.addi %j, %c1 : i32
    %y = arith.addi %x, %j : i32
    scf.yield %next, %y : i32, i32
  }
  return %r#1 : i32
}

// An after region that only passes its arguments back: the header loops on itself.
// CHECK-LABEL: func.func @do_while(
// CHECK:         cf.br ^bb1(%{{.*}} : i32)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: i32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    %[[NEXT:.*]] = arith.subi %[[I]], %{{.*}} : i32
// CHECK-NEXT:    %[[GO:.*]] = arith.cmpi sgt, %[[NEXT]], %{{.*}} : i32
// CHECK-NEXT:    cf.cond_br %[[GO]], ^bb1(%[[NEXT]] : i32), ^bb2
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    return %[[NEXT]] : i32
func.func @do_while(%n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %n) : (i32) -> i32 {
    %next = arith.subi %i, %c1 : i32
    %go = arith.cmpi sgt, %next, %c1 : i32
    scf.condition(%go) %next : i32
  } do {
  ^bb0(%j: i32):
    scf.yield %j : i32
  }
  return %r : i32
}

// Several blocks, two yields: both branch to the continuation, which takes the result.
// CHECK-LABEL: func.func @execute_region(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: i64, %[[B:.*]]: i64) -> i64 {
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb2, ^bb3
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    cf.br ^bb4(%[[A]] : i64)
// CHECK-NEXT:  ^bb3:  // pred: ^bb1
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK-NEXT:    cf.br ^bb4(%[[S]] : i64)
// CHECK-NEXT:  ^bb4(%[[V:.*]]: i64):  // 2 preds: ^bb2, ^bb3
// CHECK-NEXT:    return %[[V]] : i64
func.func @execute_region(%c: i1, %a: i64, %b: i64) -> i64 {
  %v = scf.execute_region -> i64 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %a : i64
  ^bb2:
    %s = arith.addi %a, %b : i64
    scf.yield %s : i64
  }
  return %v : i64
}

// mlir-opt-22 switches on the index cast to i32, which sends an index or a case
// value beyond i32 to the wrong case; mlc casts to i64, as later MLIR does.
// CHECK-LABEL: func.func @index_switch(
// CHECK-SAME:      %[[I:.*]]: index, %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32 {
// MLC-NEXT:      %[[FLAG:.*]] = arith.index_cast %[[I]] : index to i64
// MLC-NEXT:      cf.switch %[[FLAG]] : i64, [
// MLIR-NEXT:     %[[FLAG:.*]] = arith.index_cast %[[I]] : index to i32
// MLIR-NEXT:     cf.switch %[[FLAG]] : i32, [
// CHECK-NEXT:      default: ^bb3,
// CHECK-NEXT:      2: ^bb1,
// CHECK-NEXT:      5: ^bb2
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb4(%[[A]] : i32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb4(%[[B]] : i32)
// CHECK-NEXT:  ^bb3:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb4(%[[C]] : i32)
// CHECK-NEXT:  ^bb4(%[[V:.*]]: i32):  // 3 preds: ^bb1, ^bb2, ^bb3
// CHECK-NEXT:    return %[[V]] : i32
func.func @index_switch(%i: index, %a: i32, %b: i32, %c: i32) -> i32 {
  %0 = scf.index_switch %i -> i32
  case 2 {
    scf.yield %a : i32
  }
  case 5 {
    scf.yield %b : i32
  }
  default {
    scf.yield %c : i32
  }
  return %0 : i32
}

// Through a nest of scf.for: the reductions are iter_args, each scf.reduce region
// combines the carried value (first) with the iteration's (second).
// CHECK-LABEL: func.func @parallel_reductions(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: index, %[[BUF:.*]]: memref<?x?xf32>) -> (f32, f32) {
// CHECK:         cf.br ^bb1(%[[C0:.*]], %[[ZERO:.*]], %[[ZERO]] : index, f32, f32)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: index, %[[SUM:.*]]: f32, %[[MAX:.*]]: f32):  // 2 preds: ^bb0, ^bb5
// CHECK-NEXT:    %[[CI:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT:    cf.cond_br %[[CI]], ^bb2, ^bb6
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    cf.br ^bb3(%[[C0]], %[[SUM]], %[[MAX]] : index, f32, f32)
// CHECK-NEXT:  ^bb3(%[[J:.*]]: index, %[[SUM_IN:.*]]: f32, %[[MAX_IN:.*]]: f32):  // 2 preds: ^bb2, ^bb4
// CHECK-NEXT:    %[[CJ:.*]] = arith.cmpi slt, %[[J]], %[[M]] : index
// CHECK-NEXT:    cf.cond_br %[[CJ]], ^bb4, ^bb5
// CHECK-NEXT:  ^bb4:  // pred: ^bb3
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[BUF]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[SUM_IN]], %[[V]] : f32
// CHECK-NEXT:    %[[X:.*]] = arith.maximumf %[[MAX_IN]], %[[V]] : f32
// CHECK-NEXT:    %[[J1:.*]] = arith.addi %[[J]], %[[C1:.*]] : index
// CHECK-NEXT:    cf.br ^bb3(%[[J1]], %[[S]], %[[X]] : index, f32, f32)
// CHECK-NEXT:  ^bb5:  // pred: ^bb3
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK-NEXT:    cf.br ^bb1(%[[I1]], %[[SUM_IN]], %[[MAX_IN]] : index, f32, f32)
// CHECK-NEXT:  ^bb6:  // pred: ^bb1
// CHECK-NEXT:    return %[[SUM]], %[[MAX]] : f32, f32
func.func @parallel_reductions(%n: index, %m: index, %buffer: memref<?x?xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) init (%zero, %zero) -> (f32, f32) {
    %v = memref.load %buffer[%i, %j] : memref<?x?xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.maximumf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }
  }
  return %r#0, %r#1 : f32, f32
}

// scf.forall goes through scf.parallel: its constant bounds and steps become
// constants first (lower bounds, upper bounds, steps), one per entry.
// CHECK-LABEL: func.func @forall(
// CHECK-SAME:      %[[N:.*]]: index) {
// CHECK-NEXT:    %[[LB0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[LB1:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[UB1:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[ST0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ST1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    cf.br ^bb1(%[[LB0]] : index)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: index):  // 2 preds: ^bb0, ^bb5
// CHECK-NEXT:    %[[CI:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT:    cf.cond_br %[[CI]], ^bb2, ^bb6
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    cf.br ^bb3(%[[LB1]] : index)
// CHECK-NEXT:  ^bb3(%[[J:.*]]: index):  // 2 preds: ^bb2, ^bb4
// CHECK-NEXT:    %[[CJ:.*]] = arith.cmpi slt, %[[J]], %[[UB1]] : index
// CHECK-NEXT:    cf.cond_br %[[CJ]], ^bb4, ^bb5
// CHECK-NEXT:  ^bb4:  // pred: ^bb3
// CHECK-NEXT:    "test.foo"(%[[I]], %[[J]]) : (index, index) -> ()
// CHECK-NEXT:    %[[J1:.*]] = arith.addi %[[J]], %[[ST1]] : index
// CHECK-NEXT:    cf.br ^bb3(%[[J1]] : index)
// CHECK-NEXT:  ^bb5:  // pred: ^bb3
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[I]], %[[ST0]] : index
// CHECK-NEXT:    cf.br ^bb1(%[[I1]] : index)
// CHECK-NEXT:  ^bb6:  // pred: ^bb1
// CHECK-NEXT:    return
func.func @forall(%n: index) {
  scf.forall (%i, %j) in (%n, 7) {
    "test.foo"(%i, %j) : (index, index) -> ()
  }
  return
}

// Nested: each op's blocks sit where it was, inner ones inside its subgraph.
// CHECK-LABEL: func.func @if_in_while_in_for(
// CHECK-NEXT:    cf.br ^bb1(%{{.*}} : index)
// CHECK-NEXT:  ^bb1(%{{.*}}: index):  // 2 preds: ^bb0, ^bb7
// CHECK:         cf.cond_br %{{.*}}, ^bb2, ^bb8
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    cf.br ^bb3
// CHECK-NEXT:  ^bb3:  // 2 preds: ^bb2, ^bb6
// CHECK-NEXT:    cf.cond_br %{{.*}}, ^bb4, ^bb7
// CHECK-NEXT:  ^bb4:  // pred: ^bb3
// CHECK-NEXT:    cf.cond_br %{{.*}}, ^bb5, ^bb6
// CHECK-NEXT:  ^bb5:  // pred: ^bb4
// CHECK-NEXT:    "test.then"() : () -> ()
// CHECK-NEXT:    cf.br ^bb6
// CHECK-NEXT:  ^bb6:  // 2 preds: ^bb4, ^bb5
// CHECK-NEXT:    cf.br ^bb3
// CHECK-NEXT:  ^bb7:  // pred: ^bb3
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    cf.br ^bb1(%{{.*}} : index)
// CHECK-NEXT:  ^bb8:  // pred: ^bb1
// CHECK-NEXT:    return
func.func @if_in_while_in_for(%lb: index, %ub: index, %step: index, %c: i1) {
  scf.for %i = %lb to %ub step %step {
    scf.while : () -> () {
      scf.condition(%c)
    } do {
      scf.if %c {
        "test.then"() : () -> ()
      }
      scf.yield
    }
  }
  return
}

// -----

// Attributes of llvm dialect values go to the loop's latch.
// CHECK-LABEL: func.func @annotated(
// MLC:           cf.br ^bb3(%{{.*}} : index) {llvm.loop_annotation = #llvm.loop_annotation<unroll = <full = true>>}
// MLC:           cf.br ^bb1(%{{.*}} : index) {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// MLC:           cf.cond_br %{{.*}}, ^bb7, ^bb8 {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// MLIR:          cf.br ^bb3(%{{.*}} : index) {llvm.loop_annotation = #[[FULL:.*]]}
// MLIR:          cf.br ^bb1(%{{.*}} : index) {llvm.loop_annotation = #[[NONE:.*]]}
// MLIR:          cf.cond_br %{{.*}}, ^bb7, ^bb8 {llvm.loop_annotation = #[[NONE]]}
#no_unroll = #llvm.loop_annotation<unroll = <disable = true>>
#full_unroll = #llvm.loop_annotation<unroll = <full = true>>
func.func @annotated(%lb: index, %ub: index, %step: index, %c: i1) {
  scf.for %i = %lb to %ub step %step {
    scf.for %j = %lb to %ub step %step {
    } {llvm.loop_annotation = #full_unroll}
  } {llvm.loop_annotation = #no_unroll}
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  } attributes {llvm.loop_annotation = #no_unroll}
  return
}
