// --timing prints a time report to stderr: parsing, verifying, the pipeline (each
// pass under it, runs on several ops summed into one row), printing, and the total.
// A pass that failed or was skipped is marked so.
// RUN: mlc-opt %s -p 'func.func(canonicalize,cse),symbol-dce' --timing 2>&1 >/dev/null | filecheck %s
// RUN: mlc-opt %s --timing 2>&1 >/dev/null | filecheck %s --check-prefix=NO-PIPELINE
// RUN: mlc-opt %s -p 'cse,dce' --opt-level 2 --disable-pass dce --timing 2>&1 >/dev/null | filecheck %s --check-prefix=SKIPPED
// RUN: not mlc-opt %s -p 'cse,canonicalize{max-iterations=1 test-convergence=true},symbol-dce' --timing 2>&1 >/dev/null | filecheck %s --check-prefix=FAILED
// stdout is the result alone:
// RUN: mlc-opt %s -p 'cse' --timing 2>/dev/null | filecheck %s --check-prefix=OUT

// CHECK:      ===-------------------------------------------------------------------------===
// CHECK-NEXT:                          ... Execution time report ...
// CHECK-NEXT: ===-------------------------------------------------------------------------===
// CHECK-NEXT:   Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// CHECK-EMPTY:
// CHECK-NEXT:   ----Wall Time----  ----Name----
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)  Parser$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)  Verifier$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)  Pipeline$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)    canonicalize$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)    cse$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)    symbol-dce$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)  Output$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]+ \(100\.0%\)  Total$}}

// NO-PIPELINE:      ----Wall Time----  ----Name----
// NO-PIPELINE-NEXT: Parser
// NO-PIPELINE-NEXT: Verifier
// NO-PIPELINE-NEXT: Output
// NO-PIPELINE-NEXT: Total

// SKIPPED:      Pipeline
// SKIPPED-NEXT: {{^ +cse \(skipped: opt level 3 > 2\)$}}
// SKIPPED-NEXT: {{^ +dce \(skipped: disabled\)$}}
// SKIPPED-NEXT: Output

// The failed run prints no output, so there is no Output row.
// FAILED:      error: greedy rewriting did not converge after 1 iterations
// FAILED:      Pipeline
// FAILED-NEXT: {{^ +[0-9.]+ \( *[0-9.]+%\)    cse$}}
// FAILED-NEXT: {{^ +[0-9.]+ \( *[0-9.]+%\)    canonicalize \(failed\)$}}
// FAILED-NEXT: Total
// FAILED-NOT:  symbol-dce

// OUT-NOT: Execution time report
// OUT:     module {

func.func @f(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  return %0 : i32
}
func.func @g() {
  return
}
