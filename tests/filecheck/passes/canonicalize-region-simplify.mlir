// canonicalize's region-simplify option, as MLIR's: `disabled` only erases
// unreachable blocks (mlir-opt-22 does so at every level), `normal` (the default)
// also erases dead code, dead block arguments and dead loop-carried cycles included, `aggressive` also merges identical
// blocks (new arguments for what differs) and drops arguments every predecessor
// passes the same value. The CHECK lines were written from mlir-opt-22's output.
// RUN: mlc-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(canonicalize{region-simplify=disabled}))' | filecheck %s --check-prefixes=CHECK,DISABLED
// RUN: mlc-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(canonicalize))' | filecheck %s --check-prefixes=CHECK,SIMPLIFIED,NORMAL
// RUN: mlc-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(canonicalize{region-simplify=aggressive}))' | filecheck %s --check-prefixes=CHECK,SIMPLIFIED,AGGRESSIVE
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(canonicalize{region-simplify=disabled}))' | filecheck %s --check-prefixes=CHECK,DISABLED %}
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(canonicalize))' | filecheck %s --check-prefixes=CHECK,SIMPLIFIED,NORMAL %}
// RUN: %if mlir-opt %{ %mlir_opt %s --allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(canonicalize{region-simplify=aggressive}))' | filecheck %s --check-prefixes=CHECK,SIMPLIFIED,AGGRESSIVE %}

// An argument only passed back to itself is dead.
// CHECK-LABEL: func.func @dead_argument(%arg0: f32) {
// DISABLED-NEXT:   cf.br ^bb1(%arg0 : f32)
// DISABLED-NEXT: ^bb1(%[[X:.*]]: f32):  // 2 preds: ^bb0, ^bb1
// DISABLED-NEXT:   "test.op"() : () -> ()
// DISABLED-NEXT:   cf.br ^bb1(%[[X]] : f32)
// SIMPLIFIED-NEXT: cf.br ^bb1
// SIMPLIFIED-NEXT: ^bb1:  // 2 preds: ^bb0, ^bb1
// SIMPLIFIED-NEXT:   "test.op"() : () -> ()
// SIMPLIFIED-NEXT:   cf.br ^bb1
func.func @dead_argument(%arg0: f32) {
  cf.br ^bb1(%arg0 : f32)
^bb1(%x: f32):
  "test.op"() : () -> ()
  cf.br ^bb1(%x : f32)
}

// A cycle of pure ops and arguments that nothing outside uses dies as a whole.
// CHECK-LABEL: func.func @dead_cycle(%arg0: f32) {
// DISABLED:       arith.negf
// SIMPLIFIED-NEXT:   cf.br ^bb1
// SIMPLIFIED-NEXT: ^bb1:  // 2 preds: ^bb0, ^bb1
// SIMPLIFIED-NEXT:   cf.br ^bb1
func.func @dead_cycle(%arg0: f32) {
  cf.br ^bb1(%arg0 : f32)
^bb1(%x: f32):
  %y = arith.negf %x : f32
  cf.br ^bb1(%y : f32)
}

// CHECK-LABEL: func.func @unreachable(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
func.func @unreachable(%arg0: i32) -> i32 {
  return %arg0 : i32
^bb1:
  %0 = arith.addi %arg0, %arg0 : i32
  return %0 : i32
}

// Merged, the two ways of the branch meet: a select, then one block.
// CHECK-LABEL: func.func @identical_blocks(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// NORMAL-NEXT:     cf.cond_br %arg0, ^bb1, ^bb2
// AGGRESSIVE-NEXT: %[[S:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// AGGRESSIVE-NEXT: %[[M:.*]] = arith.muli %[[S]], %[[S]] : i32
// AGGRESSIVE-NEXT: "test.op"() : () -> ()
// AGGRESSIVE-NEXT: return %[[M]] : i32
func.func @identical_blocks(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
  cf.cond_br %arg0, ^bb1, ^bb2
^bb1:
  %0 = arith.muli %arg1, %arg1 : i32
  "test.op"() : () -> ()
  cf.br ^bb3(%0 : i32)
^bb2:
  %1 = arith.muli %arg2, %arg2 : i32
  "test.op"() : () -> ()
  cf.br ^bb3(%1 : i32)
^bb3(%r: i32):
  return %r : i32
}

// CHECK-LABEL: func.func @redundant_argument(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
// NORMAL:          cf.br ^bb3(%arg1, %arg2 : i32, i32)
// AGGRESSIVE-NEXT: "test.pred"()[^bb1, ^bb2] : () -> ()
// AGGRESSIVE-NEXT: ^bb1:  // pred: ^bb0
// AGGRESSIVE-NEXT:   cf.br ^bb3(%arg2 : i32)
// AGGRESSIVE-NEXT: ^bb2:  // pred: ^bb0
// AGGRESSIVE-NEXT:   "test.op"() : () -> ()
// AGGRESSIVE-NEXT:   cf.br ^bb3(%arg1 : i32)
// AGGRESSIVE-NEXT: ^bb3(%[[B:.*]]: i32):  // 2 preds: ^bb1, ^bb2
// AGGRESSIVE-NEXT:   "test.use"(%arg1, %[[B]]) : (i32, i32) -> ()
// AGGRESSIVE-NEXT:   return %arg1 : i32
func.func @redundant_argument(%arg0: i1, %arg1: i32, %arg2: i32) -> i32 {
  "test.pred"() [^bb1, ^bb2] : () -> ()
^bb1:
  cf.br ^bb3(%arg1, %arg2 : i32, i32)
^bb2:
  "test.op"() : () -> ()
  cf.br ^bb3(%arg1, %arg1 : i32, i32)
^bb3(%a: i32, %b: i32):
  "test.use"(%a, %b) : (i32, i32) -> ()
  return %a : i32
}
