// canonicalize{test-convergence=true}: not converging within max-iterations is an
// error (reported at the op the pass runs on), and the run fails. With enough
// iterations the same input converges.
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --split-input-file --verify-diagnostics
// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// The failing chunk prints nothing; the other chunk still prints (as mlir-opt-22 does).
// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --split-input-file 2>/dev/null | filecheck %s --check-prefix=OTHERS
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=2 test-convergence=true}))' --split-input-file | filecheck %s
// max-iterations=-1 is no limit (MLIR's kNoLimit):
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=-1 test-convergence=true}))' --split-input-file | filecheck %s

// Without test-convergence the same run only warns, and succeeds.
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-iterations=1}))' --split-input-file 2>&1 | filecheck %s --check-prefix=WARN

// ERR:      canonicalize-convergence.mlir:[[# @LINE + 11]]:1: error: greedy rewriting did not converge after 1 iterations
// ERR-NEXT: func.func @reassociate(%arg0: i32) -> i32 {
// ERR-NEXT: ^

// OTHERS-NOT: @reassociate
// OTHERS:     // -----
// OTHERS:     func.func @canonical

// WARN: warning: greedy rewriting did not converge after 1 iterations

// expected-error@+1 {{greedy rewriting did not converge after 1 iterations}}
func.func @reassociate(%arg0: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %arg0, %c3 : i32
  %1 = arith.addi %0, %c4 : i32
  return %1 : i32
}
// CHECK-LABEL: func.func @reassociate(%arg0: i32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[R]] : i32

// -----

// Already canonical: converges in one iteration even with test-convergence.
func.func @canonical(%arg0: i32) -> i32 {
  return %arg0 : i32
}
// CHECK-LABEL: func.func @canonical(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32
// WARN-LABEL: func.func @canonical(%arg0: i32)
