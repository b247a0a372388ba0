// Regression (fixed): a quoted pass option value does not parse:
//   mlc-opt %s -p 'print-ir{label="after canon"}'
//   <pipeline>:1:28: error: expected a pass or op name, found '"'
// MLIR's pipeline syntax accepts values quoted with "..." (as well as {...});
// mlir-opt-22 -p 'builtin.module(print-ir{label="after canon"})' prints
// "// -----// IR Dump after canon //----- //".
// RUN: mlc-opt %s -p 'print-ir{label="after canon"}' 2>&1 >/dev/null | filecheck %s

// CHECK: // -----// IR Dump after canon //----- //
func.func @f() {
  return
}
