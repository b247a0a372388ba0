// What the lowerings to llvm leave, reported at the op (mlc's words: mlir-opt's
// convert-to-llvm leaves such ops in place silently): math.erf on f16 has neither an
// LLVM intrinsic nor a C library function (on f32 and f64 it calls erff/erf), a truncf
// with a rounding mode needs a constrained intrinsic mlc does not have.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics --convert-to-llvm

llvm.func @no_intrinsic_for_erf(%arg0: f16) -> f16 {
  // expected-error@+1 {{convert-to-llvm cannot lower 'math.erf'}}
  %0 = math.erf %arg0 : f16
  llvm.return %0 : f16
}

// -----

llvm.func @rounding_mode(%arg0: f64) -> f32 {
  // expected-error@+1 {{convert-to-llvm cannot lower 'arith.truncf'}}
  %0 = arith.truncf %arg0 downward : f64 to f32
  llvm.return %0 : f32
}

