// --verify-each (the default) verifies the IR after every pass; IR that is invalid
// after a pass fails the run, naming the pass, and the verifier's errors follow.
// --verify-each=false skips that check.
//
// No pass here produces invalid IR, so the input is invalid from the start and
// read with --no-verify: the first pass then "leaves" it invalid.
// RUN: not mlc-opt %s --no-verify -p 'cse,canonicalize' 2>&1 | filecheck %s
// RUN: not mlc-opt %s --no-verify -p 'cse,canonicalize' --verify-each 2>&1 | filecheck %s
// RUN: not mlc-opt %s --no-verify -p 'cse,canonicalize' --verify-each=true 2>&1 | filecheck %s
// RUN: not mlc-opt %s --no-verify -p 'builtin.module(func.func(cse))' 2>&1 | filecheck %s --check-prefix=NESTED
// RUN: not mlc-opt %s --no-verify -p 'cse,canonicalize' --timing 2>&1 | filecheck %s --check-prefix=TIMING
// RUN: not mlc-opt %s --no-verify -p 'cse,canonicalize' --print-ir-after-failure 2>&1 | filecheck %s --check-prefix=AFTER-FAILURE
// RUN: mlc-opt %s --no-verify -p 'cse,canonicalize' --verify-each=false | filecheck %s --check-prefix=UNVERIFIED
// RUN: mlc-opt %s --no-verify -p 'cse,canonicalize' --verify-each false | filecheck %s --check-prefix=UNVERIFIED
// Without --no-verify the input is rejected before any pass runs:
// RUN: not mlc-opt %s -p 'cse,canonicalize' --timing 2>&1 | filecheck %s --check-prefix=INPUT
// RUN: not mlc-opt %s -p cse --verify-each=maybe 2>&1 | filecheck %s --check-prefix=BAD-VALUE

// CHECK:      verify-each.mlir:0:0: error: verification failed after running pass 'cse'
// CHECK-NEXT: verify-each.mlir:[[# @LINE + 27]]:8: error: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
// CHECK-NOT:  module

// NESTED: verify-each.mlir:[[# @LINE + 23]]:1: error: verification failed after running pass 'cse'

// TIMING:      Pipeline
// TIMING-NEXT: cse (failed)
// TIMING-NOT:  canonicalize

// AFTER-FAILURE:      // -----// IR Dump After Failed cse (cse) on 'builtin.module' //----- //
// AFTER-FAILURE-NEXT: module {
// AFTER-FAILURE-NEXT:   func.func @f(%arg0: i32) -> i32 {
// AFTER-FAILURE-NEXT:     %0 = arith.addf %arg0, %arg0 : i32
// AFTER-FAILURE:      error: verification failed after running pass 'cse'

// Unverified, the invalid IR is printed (canonicalize did not touch it).
// UNVERIFIED-LABEL: func.func @f(%arg0: i32) -> i32 {
// UNVERIFIED-NEXT:    %0 = arith.addf %arg0, %arg0 : i32
// UNVERIFIED-NEXT:    return %0 : i32

// INPUT:     error: 'arith.addf' op operand #0 must be floating-point-like
// INPUT-NOT: verification failed after running pass
// INPUT-NOT: Pipeline

// BAD-VALUE: mlc-opt: error: argument --verify-each: invalid choice: 'maybe'

func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
