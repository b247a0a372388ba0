// --list-passes: every registered pass, sorted, with its opt level, summary and
// options (type and default), then the named pipelines. No input is read.
// RUN: mlc-opt --list-passes | filecheck %s
// RUN: mlc-opt --list-passes %s | filecheck %s

// CHECK:      Passes:
// CHECK-NEXT:   canonicalize  (opt level 0)  Fold ops and apply canonicalization patterns until nothing changes.
// CHECK-NEXT:       max-iterations: int = 10
// CHECK-NEXT:       max-num-rewrites: int = -1
// CHECK-NEXT:       top-down: bool = true
// CHECK-NEXT:       fold: bool = true
// CHECK-NEXT:       enable-patterns: tuple = {{$}}
// CHECK-NEXT:       disable-patterns: tuple = {{$}}
// CHECK-NEXT:       test-convergence: bool = false
// CHECK-NEXT:   cse  (opt level 3)  Eliminate common subexpressions (dominance-scoped; side-effecting ops are kept).
// CHECK-NEXT:   dce  (opt level 1)  Erase unused side-effect-free ops and unreachable blocks.
// Installed packages add theirs (mlc-dialect-graph's graph-* passes), in name order.
// CHECK-NEXT:   graph-alter-op-layout  (opt level 3)
// CHECK:        graph-fuse-ops  (opt level 1)
// CHECK-NEXT:       max-depth: int = -1
// CHECK-NEXT:       opt-level: int = -1
// CHECK-NEXT:       remarks: bool = false
// CHECK:        print-ir  (opt level 0)  Print the IR to stderr, with an optional label.
// CHECK-NEXT:       label: str = {{$}}
// CHECK-NEXT:   reconcile-unrealized-casts  (opt level 0)  Remove unrealized conversion casts that cancel out; fail on any left.
// CHECK-NEXT:   symbol-dce  (opt level 1)  Erase private symbols nothing live references.
// CHECK-NEXT:   test-legalize-full  (opt level 0)  (test) full conversion of the test dialect
// CHECK-NEXT:   test-legalize-partial  (opt level 0)  (test) partial conversion of the test dialect
// CHECK:      Pipelines:
// CHECK-NEXT:   graph-optimize  The default graph pipeline
// CHECK-NEXT:       = graph-simplify-inference,canonicalize,graph-fold-constant,graph-fold-scale-axis,cse,dce,graph-fuse-ops

func.func @not_printed() {
  return
}
// CHECK-NOT: func.func
