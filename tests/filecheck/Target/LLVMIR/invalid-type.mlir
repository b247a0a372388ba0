// A type mlc cannot write in LLVM IR (f128; mlir-translate writes fp128) is refused at
// the function.
// RUN: not mlc-translate %s 2>&1 | filecheck %s

// CHECK: invalid-type.mlir:[[# @LINE + 1]]:1: error: type f128 has no LLVM IR counterpart
llvm.func @f(%a: f128) -> f128 {
  llvm.return %a : f128
}
