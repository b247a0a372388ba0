// An op of another dialect inside an llvm.func is named at its location, with a hint.
// RUN: not mlc-translate %s 2>&1 | filecheck %s

llvm.func @f(%a: i32) -> i32 {
  // CHECK: invalid-op.mlir:[[# @LINE + 1]]:8: error: 'arith.addi' cannot be converted to LLVM IR
  %0 = arith.addi %a, %a : i32
  // CHECK: note: mlc-translate reads the llvm dialect; lower a module first with mlc-opt -p convert-scf-to-cf,convert-to-llvm
  llvm.return %0 : i32
}
