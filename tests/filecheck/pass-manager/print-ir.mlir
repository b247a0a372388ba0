// The --print-ir-* flags print the IR the pass runs on, to stderr, before or after
// the named passes (or all of them), after those that changed it, or after a
// failure; a header names the pass and the op. stdout is not affected.
//
// RUN: mlc-opt %s -p 'func.func(canonicalize,cse),symbol-dce' --print-ir-before-all --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=ALL
// ALL:      // -----// IR Dump Before canonicalize (canonicalize) on 'func.func' @f //----- //
// ALL-NEXT: func.func @f(%arg0: i32) -> i32 {
// ALL-NEXT:   %c0 = arith.constant 0 : i32
// ALL:      // -----// IR Dump After canonicalize (canonicalize) on 'func.func' @f //----- //
// ALL-NEXT: func.func @f(%arg0: i32) -> i32 {
// ALL-NEXT:   return %arg0 : i32
// ALL-NEXT: }
// ALL:      // -----// IR Dump Before cse (cse) on 'func.func' @f //----- //
// ALL:      // -----// IR Dump After cse (cse) on 'func.func' @f //----- //
// ALL:      // -----// IR Dump Before canonicalize (canonicalize) on 'func.func' @dead //----- //
// ALL-NEXT: func.func private @dead()
// ALL:      // -----// IR Dump After canonicalize (canonicalize) on 'func.func' @dead //----- //
// ALL:      // -----// IR Dump Before cse (cse) on 'func.func' @dead //----- //
// ALL:      // -----// IR Dump After cse (cse) on 'func.func' @dead //----- //
// ALL:      // -----// IR Dump Before symbol-dce (symbol-dce) on 'builtin.module' //----- //
// ALL-NEXT: module {
// ALL:        func.func private @dead()
// ALL:      // -----// IR Dump After symbol-dce (symbol-dce) on 'builtin.module' //----- //
// ALL-NEXT: module {
// ALL-NEXT:   func.func @f(%arg0: i32) -> i32 {
// ALL-NEXT:     return %arg0 : i32
// ALL-NEXT:   }
// ALL-NEXT: }
// ALL-NOT:  IR Dump
//
// Only the named passes (comma-separated lists):
// RUN: mlc-opt %s -p 'func.func(canonicalize,cse),symbol-dce' --print-ir-before=cse --print-ir-after=symbol-dce,canonicalize 2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
// NAMED:      // -----// IR Dump After canonicalize (canonicalize) on 'func.func' @f //----- //
// NAMED-NEXT: func.func @f(%arg0: i32) -> i32 {
// NAMED-NEXT:   return %arg0 : i32
// NAMED-NEXT: }
// NAMED:      // -----// IR Dump Before cse (cse) on 'func.func' @f //----- //
// NAMED:      // -----// IR Dump After canonicalize (canonicalize) on 'func.func' @dead //----- //
// NAMED:      // -----// IR Dump Before cse (cse) on 'func.func' @dead //----- //
// NAMED:      // -----// IR Dump After symbol-dce (symbol-dce) on 'builtin.module' //----- //
// NAMED-NOT:  IR Dump
//
// Only after a pass that changed the IR: canonicalize on @f and symbol-dce do;
// canonicalize on @dead, cse, and the last cse do not.
// RUN: mlc-opt %s -p 'func.func(canonicalize,cse),symbol-dce,cse' --print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=CHANGE
// CHANGE:      // -----// IR Dump After canonicalize (canonicalize) on 'func.func' @f //----- //
// CHANGE-NEXT: func.func @f(%arg0: i32) -> i32 {
// CHANGE-NEXT:   return %arg0 : i32
// CHANGE-NEXT: }
// CHANGE-NEXT: // -----// IR Dump After symbol-dce (symbol-dce) on 'builtin.module' //----- //
// CHANGE-NEXT: module {
// CHANGE-NOT:  IR Dump
//
// A pass that changes nothing: nothing printed.
// RUN: mlc-opt %s -p 'cse' --print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=NO-CHANGE --allow-empty
// NO-CHANGE-NOT: IR Dump
//
// stdout carries the result only.
// RUN: mlc-opt %s -p 'func.func(canonicalize),symbol-dce' --print-ir-before-all --print-ir-after-all 2>/dev/null | filecheck %s --check-prefix=OUT
// OUT-NOT:  IR Dump
// OUT:      module {
// OUT-NEXT:   func.func @f(%arg0: i32) -> i32 {
// OUT-NEXT:     return %arg0 : i32
// OUT-NEXT:   }
// OUT-NEXT: }
//
// --print-ir-after-failure prints the IR after a pass that failed (as far as the
// pass got: canonicalize changed it before giving up), then the error;
// --print-ir-after-all does not print it.
// RUN: not mlc-opt %s -p 'cse,canonicalize{max-iterations=1 test-convergence=true}' --print-ir-after-failure 2>&1 | filecheck %s --check-prefix=FAILURE
// RUN: not mlc-opt %s -p 'cse,canonicalize{max-iterations=1 test-convergence=true}' --print-ir-after-all 2>&1 | filecheck %s --check-prefix=NO-FAILURE
// FAILURE-NOT:  IR Dump After cse
// FAILURE:      // -----// IR Dump After Failed canonicalize (canonicalize) on 'builtin.module' //----- //
// FAILURE-NEXT: module {
// FAILURE-NEXT:   func.func @f(%arg0: i32) -> i32 {
// FAILURE-NEXT:     return %arg0 : i32
// FAILURE:      error: greedy rewriting did not converge after 1 iterations
// FAILURE-NOT:  module
// NO-FAILURE:     // -----// IR Dump After cse (cse) on 'builtin.module' //----- //
// NO-FAILURE-NOT: IR Dump
// NO-FAILURE:     error: greedy rewriting did not converge after 1 iterations

func.func @f(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  return %0 : i32
}
func.func private @dead()
