// dce: erases ops whose results are unused and that have no side effects (chains
// of them in one run), and blocks that the entry block cannot reach.
// RUN: mlc-opt %s --dce --allow-unregistered-dialect --split-input-file | filecheck %s
// RUN: mlc-opt %s --dce --allow-unregistered-dialect --split-input-file --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// dce is at opt level 1: --opt-level 0 skips it.
// RUN: mlc-opt %s --dce --opt-level 0 --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=SKIPPED

// 5 ops in @dead_ops, 2 in @nested; the ops of erased blocks are not counted.
// STATS:      dce
// STATS-NEXT:   (7) num-dead-ops - ops erased
// STATS-NEXT:   (2) num-dead-blocks - blocks erased

// CHECK-LABEL: func.func @dead_ops(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    "foo.effect"(%arg0) : (i32) -> ()
// CHECK-NEXT:    %{{.*}} = "foo.unknown"(%arg0) : (i32) -> i32
// CHECK-NEXT:    %{{.*}} = call @callee(%arg0) : (i32) -> i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]] : i32
// SKIPPED-LABEL: func.func @dead_ops(%arg0: i32)
// SKIPPED-NEXT:    arith.addi %arg0, %arg0
func.func private @callee(i32) -> i32
func.func @dead_ops(%arg0: i32) -> i32 {
  // A dead chain: the subi is dead, which makes the muli dead, then the addi.
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %arg0 : i32
  %c3 = arith.constant 3 : i32
  %unused = arith.constant 4 : i32
  // Side effects (unregistered: unknown ones; a call) keep an op.
  "foo.effect"(%arg0) : (i32) -> ()
  %3 = "foo.unknown"(%arg0) : (i32) -> i32
  %4 = func.call @callee(%arg0) : (i32) -> i32
  // A Pure op of the test dialect is dead too.
  %5 = test.sink %arg0 : i32 -> i32
  %6 = arith.addi %arg0, %c3 : i32
  return %6 : i32
}

// -----

// Dead ops nested in regions are erased; the region's op itself (unregistered)
// stays.
// CHECK-LABEL: func.func @nested(%arg0: i32)
// CHECK-NEXT:    "foo.region"() ({
// CHECK-NEXT:      "foo.yield"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
func.func @nested(%arg0: i32) {
  "foo.region"() ({
    %0 = arith.addi %arg0, %arg0 : i32
    %1 = arith.muli %0, %0 : i32
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Unreachable blocks go (with their ops, whatever their effects), reachable ones
// stay; a block reached only from an unreachable one is unreachable too.
// An unreachable block may use values of the entry block (every block dominates
// an unreachable one).
// CHECK-LABEL: func.func @blocks(%arg0: i32)
// CHECK-NEXT:    "foo.br"()[^bb1] : () -> ()
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return %arg0 : i32
// CHECK-NEXT:  }
func.func @blocks(%arg0: i32) -> i32 {
  "foo.br"()[^bb2] : () -> ()
^bb1:
  %c = arith.constant 1 : i32
  "foo.effect"(%c) : (i32) -> ()
  %0 = arith.addi %arg0, %arg0 : i32
  "foo.use"(%0) : (i32) -> ()
  "foo.br"()[^bb3] : () -> ()
^bb3:
  "foo.br"()[^bb2] : () -> ()
^bb2:
  return %arg0 : i32
}
