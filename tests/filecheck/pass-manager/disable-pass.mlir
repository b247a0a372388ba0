// --disable-pass NAMES never runs the named passes (comma-separated, repeatable),
// whatever the opt level; the others still run.
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize,cse))' --disable-pass canonicalize | filecheck %s --check-prefix=NO-CANON
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize,cse))' --disable-pass=cse | filecheck %s --check-prefix=NO-CSE
// RUN: mlc-opt %s -p 'canonicalize,cse' --disable-pass canonicalize,cse | filecheck %s --check-prefix=NOTHING
// RUN: mlc-opt %s -p 'canonicalize,cse' --disable-pass canonicalize --disable-pass cse | filecheck %s --check-prefix=NOTHING
// RUN: mlc-opt %s -p 'canonicalize,cse' --disable-pass canonicalize,cse --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize,cse))' --disable-pass canonicalize --print-pass-skips --timing 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING
// "disabled" is the reason even when the opt level would skip it as well:
// RUN: mlc-opt %s -p 'cse' --opt-level 1 --disable-pass cse --print-pass-skips 2>&1 >/dev/null | filecheck %s --check-prefix=BOTH
// An unknown name is an error naming the closest pass, with or without a pipeline;
// nothing runs and -o is not written:
// RUN: rm -f %t.out
// RUN: not mlc-opt %s -p 'cse' --disable-pass canonicalize,csee -o %t.out 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ls %t.out
// RUN: not mlc-opt %s --disable-pass nothing-like-it 2>&1 | filecheck %s --check-prefix=UNKNOWN-FAR
// UNKNOWN:          mlc-opt: error: disabled pass 'csee' is not a registered pass; did you mean 'cse'?
// UNKNOWN-NOT:      func.func
// UNKNOWN-FAR:      mlc-opt: error: disabled pass 'nothing-like-it' is not a registered pass{{$}}

// cse merges the two additions, canonicalize does not run:
// NO-CANON-LABEL: func.func @f(%arg0: i32)
// NO-CANON-NEXT:    %c0 = arith.constant 0 : i32
// NO-CANON-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// NO-CANON-NEXT:    %[[B:.*]] = arith.addi %[[A]], %c0 : i32
// NO-CANON-NEXT:    return %[[A]], %[[B]] : i32, i32

// canonicalize folds x + 0, cse does not run:
// NO-CSE-LABEL: func.func @f(%arg0: i32)
// NO-CSE-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// NO-CSE-NEXT:    %[[B:.*]] = arith.addi %arg0, %arg0 : i32
// NO-CSE-NEXT:    return %[[A]], %[[B]] : i32, i32

// NOTHING-LABEL: func.func @f(%arg0: i32)
// NOTHING-NEXT:    %c0 = arith.constant 0 : i32
// NOTHING-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// NOTHING-NEXT:    %1 = arith.addi %arg0, %arg0 : i32
// NOTHING-NEXT:    %2 = arith.addi %1, %c0 : i32

// REPORT:      mlc-opt: skipped pass 'canonicalize' on 'builtin.module': disabled
// REPORT-NEXT: mlc-opt: skipped pass 'cse' on 'builtin.module': disabled

// TIMING:      mlc-opt: skipped pass 'canonicalize' on 'func.func' @f: disabled
// TIMING:      ----Wall Time----  ----Name----
// TIMING:      {{^ +}}canonicalize (skipped: disabled)
// TIMING-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\) +}}cse

// BOTH: mlc-opt: skipped pass 'cse' on 'builtin.module': disabled

func.func @f(%arg0: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.addi %arg0, %arg0 : i32
  %2 = arith.addi %1, %c0 : i32
  return %0, %2 : i32, i32
}
