// What mlc-translate refuses: a located diagnostic, no traceback, non-zero exit, and
// no output file.
// RUN: not mlc-translate %s -o %t.ll 2>&1 | filecheck %s
// RUN: not test -e %t.ll

// CHECK: invalid.mlir:[[# @LINE + 2]]:1: error: 'func.func' cannot be converted to LLVM IR (expected llvm.func or llvm.mlir.global at the top of the module)
// CHECK-NOT: Traceback
func.func @not_lowered() {
  return
}
