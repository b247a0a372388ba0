// canonicalize's options: enable-patterns, disable-patterns, fold, max-iterations,
// max-num-rewrites, top-down. (test-convergence: canonicalize-convergence.mlir.)
// RUN: mlc-opt %s -p 'canonicalize' | filecheck %s --check-prefix=DEFAULT
// RUN: mlc-opt %s -p 'canonicalize{top-down=false}' | filecheck %s --check-prefix=DEFAULT
// RUN: mlc-opt %s -p 'canonicalize{max-iterations=2}' | filecheck %s --check-prefix=DEFAULT
// Two iterations are enough to see that nothing changes any more: no warning.
// RUN: mlc-opt %s -p 'canonicalize{max-iterations=2}' 2>&1 | filecheck %s --check-prefix=NOWARN
// RUN: mlc-opt %s -p 'canonicalize{enable-patterns=XOrINotCmpI}' | filecheck %s --check-prefix=ENABLE
// RUN: mlc-opt %s -p 'canonicalize{disable-patterns=XOrINotCmpI,AddIAddConstant}' | filecheck %s --check-prefix=DISABLE
// RUN: mlc-opt %s --canonicalize='disable-patterns=XOrINotCmpI,AddIAddConstant' | filecheck %s --check-prefix=DISABLE
// RUN: mlc-opt %s -p 'canonicalize{fold=false}' | filecheck %s --check-prefix=NOFOLD
// RUN: mlc-opt %s -p 'canonicalize{fold=false enable-patterns=AddIMulNegativeOneLhs}' | filecheck %s --check-prefix=NOTHING
// A name that is no canonicalization pattern is an error (mlir-opt ignores it):
// RUN: not mlc-opt %s -p 'canonicalize{disable-patterns=XOrINotCmpI,AddIAddConstnt}' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      <pipeline>:1:31: error: invalid value for option 'disable-patterns' of 'canonicalize': 'AddIAddConstnt' is not among the canonicalization pattern names (--list-patterns); did you mean 'AddIAddConstant'?
// UNKNOWN-NEXT: canonicalize{disable-patterns=XOrINotCmpI,AddIAddConstnt}
// RUN: mlc-opt %s -p 'canonicalize{max-iterations=1}' 2>&1 | filecheck %s --check-prefix=ONCE
// RUN: mlc-opt %s -p 'canonicalize{max-num-rewrites=1}' 2>&1 | filecheck %s --check-prefix=REWRITES

// All of it: the AddIAddConstant and XOrINotCmpI patterns, and the x + 0 fold.
// DEFAULT-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// DEFAULT-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// DEFAULT-NEXT:    %[[ADD:.*]] = arith.addi %arg0, %[[C7]] : i32
// DEFAULT-NEXT:    %[[CMP:.*]] = arith.cmpi sge, %arg0, %arg1 : i32
// DEFAULT-NEXT:    return %[[ADD]], %[[CMP]], %arg1 : i32, i1, i32

// NOWARN-NOT: warning
// NOWARN: module

// Only the enabled pattern runs; folding still happens.
// ENABLE-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// ENABLE-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// ENABLE-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// ENABLE-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C3]] : i32
// ENABLE-NEXT:    %[[B:.*]] = arith.addi %[[A]], %[[C4]] : i32
// ENABLE-NEXT:    %[[CMP:.*]] = arith.cmpi sge, %arg0, %arg1 : i32
// ENABLE-NEXT:    return %[[B]], %[[CMP]], %arg1 : i32, i1, i32

// Both patterns off; folding still happens (and constants are hoisted: %true, after
// an op, to the start of the block, as mlir-opt-22's folder moves it).
// DISABLE-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// DISABLE-NEXT:    %[[TRUE:.*]] = arith.constant true
// DISABLE-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// DISABLE-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// DISABLE-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C3]] : i32
// DISABLE-NEXT:    %[[B:.*]] = arith.addi %[[A]], %[[C4]] : i32
// DISABLE-NEXT:    %[[CMP:.*]] = arith.cmpi slt, %arg0, %arg1 : i32
// DISABLE-NEXT:    %[[NOT:.*]] = arith.xori %[[CMP]], %[[TRUE]] : i1
// DISABLE-NEXT:    return %[[B]], %[[NOT]], %arg1 : i32, i1, i32

// No folding: x + 0 stays, and constants are neither uniqued nor hoisted; the
// patterns and dead-op erasure still run.
// NOFOLD-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// NOFOLD-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// NOFOLD-NEXT:    %[[ADD:.*]] = arith.addi %arg0, %[[C7]] : i32
// NOFOLD-NEXT:    %[[CMP:.*]] = arith.cmpi sge, %arg0, %arg1 : i32
// NOFOLD-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// NOFOLD-NEXT:    %[[ADD0:.*]] = arith.addi %arg1, %[[C0]] : i32
// NOFOLD-NEXT:    return %[[ADD]], %[[CMP]], %[[ADD0]] : i32, i1, i32

// Nothing enabled, nothing folded: the input comes back unchanged.
// NOTHING-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// NOTHING-NEXT:    %c3 = arith.constant 3 : i32
// NOTHING-NEXT:    %c4 = arith.constant 4 : i32
// NOTHING-NEXT:    %0 = arith.addi %arg0, %c3 : i32
// NOTHING-NEXT:    %1 = arith.addi %0, %c4 : i32
// NOTHING-NEXT:    %true = arith.constant true
// NOTHING-NEXT:    %2 = arith.cmpi slt, %arg0, %arg1 : i32
// NOTHING-NEXT:    %3 = arith.xori %2, %true : i1
// NOTHING-NEXT:    %c0 = arith.constant 0 : i32
// NOTHING-NEXT:    %4 = arith.addi %arg1, %c0 : i32
// NOTHING-NEXT:    return %1, %3, %4 : i32, i1, i32

// One iteration changes the IR, so the driver cannot tell it converged: a warning
// (at the op the pass ran on), and the IR as far as it got.
// ONCE: warning: greedy rewriting did not converge after 1 iterations
// ONCE-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// ONCE:         arith.cmpi sge, %arg0, %arg1 : i32

// The first rewrite (AddIAddConstant) is the only one; its new constant is not
// even hoisted.
// REWRITES: warning: greedy rewriting stopped after the maximum of 1 rewrites
// REWRITES-LABEL: func.func @f(%arg0: i32, %arg1: i32)
// REWRITES:         %[[C7:.*]] = arith.constant 7 : i32
// REWRITES-NEXT:    arith.addi %arg0, %[[C7]] : i32
// REWRITES:         arith.xori
// REWRITES:         arith.addi %arg1

func.func @f(%arg0: i32, %arg1: i32) -> (i32, i1, i32) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.addi %0, %c4 : i32
  %true = arith.constant true
  %2 = arith.cmpi slt, %arg0, %arg1 : i32
  %3 = arith.xori %2, %true : i1
  %c0 = arith.constant 0 : i32
  %4 = arith.addi %arg1, %c0 : i32
  return %1, %3, %4 : i32, i1, i32
}
