// An error nothing expected and an expectation nothing met both fail the run, each
// reported where it is.
// RUN: not mlc-translate %s --verify-diagnostics 2>&1 | filecheck %s

// CHECK: verify-diagnostics-unmet.mlir:[[# @LINE + 3]]:1: error: unexpected error: 'func.func' cannot be converted to LLVM IR
// CHECK: verify-diagnostics-unmet.mlir:[[# @LINE + 1]]:4: error: expected error "a message mlc does not write" was not produced
// expected-error @below{{a message mlc does not write}}
func.func @not_lowered() {
  return
}
