// --opt-level N skips the passes whose level is above N (cse: 3, dce and
// symbol-dce: 1, canonicalize and the rest: 0); the default is 3.
// --print-pass-skips says which were skipped, on which op, and why; --timing lists
// them as skipped.
//
// RUN: mlc-opt %s -p 'cse' | filecheck %s --check-prefix=RAN
// RUN: mlc-opt %s -p 'cse' --opt-level 3 | filecheck %s --check-prefix=RAN
// RUN: mlc-opt %s -p 'cse' --opt-level 2 | filecheck %s --check-prefix=SKIPPED
// RUN: mlc-opt %s -p 'cse' --opt-level 2 --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: mlc-opt %s -p 'builtin.module(func.func(cse))' --opt-level 2 --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT-NESTED
// RUN: mlc-opt %s -p 'cse,canonicalize' --opt-level 2 --timing 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING
// RUN: mlc-opt %s -p 'cse,dce,symbol-dce,canonicalize' --opt-level 0 --print-pass-skips 2>&1 | filecheck %s --check-prefix=LEVEL0
// Nothing is skipped, nothing reported:
// RUN: mlc-opt %s -p 'cse,dce' --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=NO-REPORT --allow-empty

// RAN-LABEL: func.func @f(%arg0: i32)
// RAN-NEXT:    %c0 = arith.constant 0 : i32
// RAN-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// RAN-NEXT:    %[[B:.*]] = arith.addi %[[A]], %c0 : i32
// RAN-NEXT:    return %[[A]], %[[B]] : i32, i32

// SKIPPED-LABEL: func.func @f(%arg0: i32)
// SKIPPED-NEXT:    %c0 = arith.constant 0 : i32
// SKIPPED-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// SKIPPED-NEXT:    %1 = arith.addi %arg0, %arg0 : i32

// REPORT:     mlc-opt: skipped pass 'cse' on 'builtin.module': opt level 3 > 2
// REPORT-NOT: skipped

// REPORT-NESTED:      mlc-opt: skipped pass 'cse' on 'func.func' @f: opt level 3 > 2
// REPORT-NESTED-NEXT: mlc-opt: skipped pass 'cse' on 'func.func' @g: opt level 3 > 2
// REPORT-NESTED-NOT:  skipped

// TIMING:      ----Wall Time----  ----Name----
// TIMING:      {{^ +}}cse (skipped: opt level 3 > 2)
// TIMING-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\) +}}canonicalize

// LEVEL0:     mlc-opt: skipped pass 'cse' on 'builtin.module': opt level 3 > 0
// LEVEL0-NEXT: mlc-opt: skipped pass 'dce' on 'builtin.module': opt level 1 > 0
// LEVEL0-NEXT: mlc-opt: skipped pass 'symbol-dce' on 'builtin.module': opt level 1 > 0
// LEVEL0-NOT: skipped
// canonicalize (level 0) ran:
// LEVEL0:     func.func @f(%arg0: i32)
// LEVEL0-NEXT:  %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// LEVEL0-NEXT:  %[[B:.*]] = arith.addi %arg0, %arg0 : i32
// LEVEL0-NEXT:  return %[[A]], %[[B]] : i32, i32

// NO-REPORT-NOT: skipped

func.func @f(%arg0: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.addi %arg0, %arg0 : i32
  %2 = arith.addi %1, %c0 : i32
  return %0, %2 : i32, i32
}
func.func @g() {
  return
}
