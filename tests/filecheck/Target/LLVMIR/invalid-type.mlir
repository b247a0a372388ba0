// A type with no LLVM IR counterpart (in this LLVM) is refused at the function.
// RUN: not mlc-translate %s 2>&1 | filecheck %s

// CHECK: invalid-type.mlir:[[# @LINE + 1]]:1: error: type bf16 has no LLVM IR counterpart
llvm.func @f(%a: bf16) -> bf16 {
  llvm.return %a : bf16
}
