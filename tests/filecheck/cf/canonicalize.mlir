// The canonicalization patterns of the cf ops, one function each, with the region
// simplification canonicalize runs by default (unreachable blocks and dead block
// arguments go). The CHECK lines were written from mlir-opt-22's output; both tools
// pass them.
// RUN: mlc-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(canonicalize))' | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(canonicalize))' | filecheck %s %}

// A jump to a block only it reaches merges the two blocks.
// CHECK-LABEL: func.func @merge_single_predecessor(%arg0: i32) -> i32 {
// CHECK-NEXT:    %[[V:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    return %[[V]] : i32
func.func @merge_single_predecessor(%arg0: i32) -> i32 {
  cf.br ^bb1(%arg0 : i32)
^bb1(%x: i32):
  %y = arith.addi %x, %x : i32
  return %y : i32
}

// A jump to a block that only jumps on goes straight to the end; the pass-through
// block stays for its other predecessor.
// CHECK-LABEL: func.func @pass_through_br(%arg0: i32, %arg1: i32) -> (i32, i32) {
// CHECK-NEXT:    "test.pred"()[^bb1, ^bb2] : () -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%arg0, %arg1 : i32, i32)
// CHECK-NEXT:  ^bb2(%[[A:.*]]: i32):  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb3(%[[A]], %arg1 : i32, i32)
// CHECK-NEXT:  ^bb3(%{{.*}}: i32, %{{.*}}: i32):  // 2 preds: ^bb1, ^bb2
func.func @pass_through_br(%arg0: i32, %arg1: i32) -> (i32, i32) {
  "test.pred"() [^bb1, ^bb2] : () -> ()
^bb1:
  cf.br ^bb2(%arg0 : i32)
^bb2(%a: i32):
  cf.br ^bb3(%a, %arg1 : i32, i32)
^bb3(%r0: i32, %r1: i32):
  return %r0, %r1 : i32, i32
}

// A jump to itself (an endless loop) stays.
// CHECK-LABEL: func.func @self_loop() {
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb1:  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:    cf.br ^bb1
func.func @self_loop() {
  cf.br ^bb1
^bb1:
  cf.br ^bb1
}

// Branches on constants become jumps; then the blocks merge.
// CHECK-LABEL: func.func @cond_br_constant(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    return %arg1 : i32
func.func @cond_br_constant(%arg0: i32, %arg1: i32) -> i32 {
  %true = arith.constant true
  %false = arith.constant false
  cf.cond_br %true, ^bb1, ^bb2(%arg0 : i32)
^bb1:
  cf.cond_br %false, ^bb2(%arg0 : i32), ^bb2(%arg1 : i32)
^bb2(%x: i32):
  return %x : i32
}

// Two ways into one block: a jump, with a select for each value that differs.
// CHECK-LABEL: func.func @same_successor(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: f32) -> (i32, f32) {
// CHECK-NEXT:    %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:    return %[[S]], %arg3 : i32, f32
func.func @same_successor(%arg0: i1, %arg1: i32, %arg2: i32, %arg3: f32) -> (i32, f32) {
  cf.cond_br %arg0, ^bb1(%arg1, %arg3 : i32, f32), ^bb1(%arg2, %arg3 : i32, f32)
^bb1(%x: i32, %y: f32):
  return %x, %y : i32, f32
}

// ... but not when another block also branches there: only identical operands fold.
// CHECK-LABEL: func.func @same_successor_shared(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// CHECK-NEXT:    "test.pred"()[^bb1, ^bb2] : () -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.cond_br %arg0, ^bb2(%arg1 : i32), ^bb2(%arg2 : i32)
// CHECK-NEXT:  ^bb2(%{{.*}}: i32):  // 3 preds: ^bb0, ^bb1, ^bb1
func.func @same_successor_shared(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
  "test.pred"() [^bb1, ^bb2] : () -> ()
^bb1:
  cf.cond_br %arg0, ^bb2(%arg1 : i32), ^bb2(%arg2 : i32)
^bb2(%x: i32):
  return %x : i32
}

// Pass-through successors of a cond_br and of a switch are skipped.
// CHECK-LABEL: func.func @pass_through_cond_br_and_switch(%arg0: i1, %arg1: i32) {
// CHECK-NEXT:    "test.pred"()[^bb1, ^bb2, ^bb3, ^bb4, ^bb5] : () -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.cond_br %arg0, ^bb4, ^bb5
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    cf.switch %arg1 : i32, [
// CHECK-NEXT:      default: ^bb5,
// CHECK-NEXT:      7: ^bb4
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb3:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb4
// CHECK-NEXT:  ^bb4:  // 4 preds: ^bb0, ^bb1, ^bb2, ^bb3
// CHECK-NEXT:    "test.left"() : () -> ()
// CHECK-NEXT:  ^bb5:  // 3 preds: ^bb0, ^bb1, ^bb2
// CHECK-NEXT:    "test.right"() : () -> ()
func.func @pass_through_cond_br_and_switch(%arg0: i1, %arg1: i32) {
  "test.pred"() [^bb1, ^bb2, ^bb3, ^bb4, ^bb5] : () -> ()
^bb1:
  cf.cond_br %arg0, ^bb3, ^bb5
^bb2:
  cf.switch %arg1 : i32, [
    default: ^bb5,
    7: ^bb3
  ]
^bb3:
  cf.br ^bb4
^bb4:
  "test.left"() : () -> ()
^bb5:
  "test.right"() : () -> ()
}

// A block reached only from a branch on the same condition knows the condition;
// so do the uses of it in the branch's successors.
// CHECK-LABEL: func.func @decided_by_predecessor(%arg0: i1) {
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK:         cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    "test.use"(%[[TRUE]]) : (i1) -> ()
// CHECK-NEXT:    "test.left"() : () -> ()
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    "test.use"(%[[FALSE]]) : (i1) -> ()
// CHECK-NEXT:    "test.right"() : () -> ()
func.func @decided_by_predecessor(%arg0: i1) {
  cf.cond_br %arg0, ^bb1, ^bb2
^bb1:
  "test.use"(%arg0) : (i1) -> ()
  cf.cond_br %arg0, ^bb3, ^bb2
^bb2:
  "test.use"(%arg0) : (i1) -> ()
  "test.right"() : () -> ()
^bb3:
  "test.left"() : () -> ()
}

// Switches: on a constant; without cases; cases going where the default goes.
// CHECK-LABEL: func.func @switch_folds(%arg0: i32, %arg1: f32, %arg2: f32) {
// CHECK-NEXT:    "test.pred"()[^bb1, ^bb2, ^bb3, ^bb4, ^bb5] : () -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb5(%arg2 : f32)
// CHECK-NEXT:  ^bb2:  // pred: ^bb0
// CHECK-NEXT:    cf.br ^bb4(%arg1 : f32)
// CHECK-NEXT:  ^bb3:  // pred: ^bb0
// CHECK-NEXT:    cf.switch %arg0 : i32, [
// CHECK-NEXT:      default: ^bb4(%arg1 : f32),
// CHECK-NEXT:      5: ^bb5(%arg2 : f32)
// CHECK-NEXT:    ]
func.func @switch_folds(%arg0: i32, %arg1: f32, %arg2: f32) {
  "test.pred"() [^bb1, ^bb2, ^bb3, ^bb4, ^bb5] : () -> ()
^bb1:
  %c-1 = arith.constant -1 : i32
  cf.switch %c-1 : i32, [
    default: ^bb4(%arg1 : f32),
    4294967295: ^bb5(%arg2 : f32)
  ]
^bb2:
  cf.switch %arg0 : i32, [
    default: ^bb4(%arg1 : f32)
  ]
^bb3:
  cf.switch %arg0 : i32, [
    default: ^bb4(%arg1 : f32),
    3: ^bb4(%arg1 : f32),
    5: ^bb5(%arg2 : f32),
    6: ^bb4(%arg1 : f32)
  ]
^bb4(%x: f32):
  "test.left"(%x) : (f32) -> ()
^bb5(%y: f32):
  "test.right"(%y) : (f32) -> ()
}

// A switch in a case block of a switch on the same flag is decided; one in the
// default block loses the cases the first switch sent elsewhere.
// CHECK-LABEL: func.func @switch_after_switch(%arg0: i32) {
// CHECK-NEXT:    "test.pred"()[^bb1, ^bb4, ^bb5, ^bb6] : () -> ()
// CHECK-NEXT:  ^bb1:  // pred: ^bb0
// CHECK-NEXT:    cf.switch %arg0 : i32, [
// CHECK-NEXT:      default: ^bb3,
// CHECK-NEXT:      1: ^bb2
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^bb2:  // pred: ^bb1
// CHECK-NEXT:    "test.op"() : () -> ()
// CHECK-NEXT:    cf.br ^bb5
// CHECK-NEXT:  ^bb3:  // pred: ^bb1
// CHECK-NEXT:    "test.op"() : () -> ()
// CHECK-NEXT:    cf.switch %arg0 : i32, [
// CHECK-NEXT:      default: ^bb4,
// CHECK-NEXT:      2: ^bb6
// CHECK-NEXT:    ]
func.func @switch_after_switch(%arg0: i32) {
  "test.pred"() [^bb1, ^bb4, ^bb5, ^bb6] : () -> ()
^bb1:
  cf.switch %arg0 : i32, [
    default: ^bb3,
    1: ^bb2
  ]
^bb2:
  "test.op"() : () -> ()
  cf.switch %arg0 : i32, [
    default: ^bb4,
    1: ^bb5
  ]
^bb3:
  "test.op"() : () -> ()
  cf.switch %arg0 : i32, [
    default: ^bb4,
    1: ^bb5,
    2: ^bb6
  ]
^bb4:
  "test.a"() : () -> ()
^bb5:
  "test.b"() : () -> ()
^bb6:
  "test.c"() : () -> ()
}

// An assert of true goes; others stay.
// CHECK-LABEL: func.func @asserts(%arg0: i1) {
// CHECK-NEXT:    cf.assert %arg0, "kept"
// CHECK-NEXT:    return
func.func @asserts(%arg0: i1) {
  %true = arith.constant true
  cf.assert %true, "erased"
  cf.assert %arg0, "kept"
  return
}
