// Option values in pipelines, and how --dump-pass-pipeline (and so a crash
// reproducer) spells them so that they parse back to the same options:
// - a value with spaces is written in braces: print-ir{label={a b}};
// - an empty value is empty, and the next option is a separate option:
//   `enable-patterns= top-down=false` is an empty list and top-down=false.
// (Both once failed to round-trip.)
//
// RUN: mlc-opt %s -p 'print-ir{label={a b}}' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=BRACES
// BRACES: builtin.module(print-ir{label={a b}})
// RUN: mlc-opt %s -p 'builtin.module(print-ir{label={a b}})' 2>&1 >/dev/null | filecheck %s --check-prefix=LABEL
// LABEL: // -----// IR Dump a b //----- //
//
// RUN: mlc-opt %s -p 'canonicalize{enable-patterns= top-down=false}' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=EMPTY
// EMPTY: builtin.module(canonicalize{max-iterations=10 max-num-rewrites=-1 top-down=false fold=true enable-patterns= disable-patterns= test-convergence=false region-simplify=normal})
//
// The fully spelled-out default options canonicalize like plain canonicalize.
// RUN: mlc-opt %s -p 'canonicalize{max-iterations=10 max-num-rewrites=-1 top-down=true fold=true enable-patterns= disable-patterns= test-convergence=false region-simplify=normal}' | filecheck %s
// CHECK-LABEL: func.func @f(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
//
// So a reproducer of a failing canonicalize, or of a pipeline with a spaced
// label, replays the same way.
// RUN: rm -f %t.canon
// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --crash-reproducer %t.canon 2>/dev/null
// RUN: not mlc-opt %t.canon --run-reproducer 2>&1 | filecheck %s --check-prefix=REPLAY-CANON
// REPLAY-CANON: error: greedy rewriting did not converge after 1 iterations
// RUN: rm -f %t.label
// RUN: not mlc-opt %s -p 'print-ir{label={a b}},func.func(canonicalize{max-iterations=1 test-convergence=true})' --crash-reproducer %t.label 2>/dev/null
// RUN: not mlc-opt %t.label --run-reproducer 2>&1 | filecheck %s --check-prefix=REPLAY-LABEL
// REPLAY-LABEL: // -----// IR Dump a b //----- //
// REPLAY-LABEL: error: greedy rewriting did not converge after 1 iterations

func.func @f(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.addi %0, %c4 : i32
  return %1 : i32
}
