// Regression (fixed): pass names given to --print-ir-before and --print-ir-after are not
// checked: a misspelt name (here `cess` for `cse`) is silently ignored and the run
// succeeds, printing nothing. (Pipelines do reject unknown
// names: "'cess' does not refer to a registered pass or pass pipeline".)
// mlir-opt-22 --mlir-print-ir-after=cess: "for the --mlir-print-ir-after option:
// Cannot find option named 'cess'!", exit 1.
// RUN: not mlc-opt %s -p cse --print-ir-after=cess 2>&1 | filecheck %s
// RUN: not mlc-opt %s -p cse --print-ir-before=cse,cess 2>&1 | filecheck %s

// CHECK: error: {{.*}}'cess'
func.func @f() {
  return
}
