// A crash reproducer that cannot be written (a directory, a missing folder) is a clear
// error, and the pass's own failure is still reported; the exit status is 1.
// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --crash-reproducer %S 2>&1 | filecheck %s --check-prefix=DIR
// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --crash-reproducer %t.missing/r.mlir 2>&1 | filecheck %s --check-prefix=MISSING

// DIR: mlc-opt: error: cannot write the crash reproducer to '{{.*}}': Is a directory
// DIR-NEXT: crash-reproducer-unwritable.mlir:[[# @LINE + 5]]:1: error: greedy rewriting did not converge after 1 iterations
// DIR-NOT: internal error
// MISSING: mlc-opt: error: cannot write the crash reproducer to '{{.*}}r.mlir': No such file or directory
// MISSING-NEXT: error: greedy rewriting did not converge

func.func @r(%a: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %a, %c3 : i32
  %c4 = arith.constant 4 : i32
  %1 = arith.addi %0, %c4 : i32
  return %1 : i32
}
