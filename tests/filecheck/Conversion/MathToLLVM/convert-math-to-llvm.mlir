// convert-math-to-llvm: the math ops LLVM has intrinsics for become them, fast-math
// flags kept; rsqrt is 1 / sqrt, log1p log(1 + x), expm1 exp(x) - 1. The expected output is mlir-opt-22's for the same pass.
// RUN: mlc-opt %s --convert-math-to-llvm | filecheck %s
// RUN: mlc-opt %s --convert-math-to-llvm --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-math-to-llvm | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --convert-math-to-llvm --print-op-generic | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: func.func @m(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: vector<4xf32>) -> f32 {
// CHECK-NEXT:    %0 = llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK-NEXT:    %1 = llvm.intr.sin(%0) : (f32) -> f32
// CHECK-NEXT:    %2 = llvm.intr.cos(%1) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT:    %3 = llvm.intr.exp(%2) : (f32) -> f32
// CHECK-NEXT:    %4 = llvm.intr.exp2(%3) : (f32) -> f32
// CHECK-NEXT:    %5 = llvm.intr.log(%4) : (f32) -> f32
// CHECK-NEXT:    %6 = llvm.intr.log2(%5) : (f32) -> f32
// CHECK-NEXT:    %7 = llvm.intr.sqrt(%6) : (f32) -> f32
// CHECK-NEXT:    %8 = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:    %9 = llvm.intr.sqrt(%7) : (f32) -> f32
// CHECK-NEXT:    %10 = llvm.fdiv %8, %9 : f32
// CHECK-NEXT:    %11 = llvm.intr.floor(%10) : (f32) -> f32
// CHECK-NEXT:    %12 = llvm.intr.ceil(%11) : (f32) -> f32
// CHECK-NEXT:    %13 = llvm.intr.round(%12) : (f32) -> f32
// CHECK-NEXT:    %14 = llvm.intr.pow(%13, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %15 = llvm.intr.copysign(%14, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %16 = llvm.intr.fma(%15, %arg1, %arg2) : (f32, f32, f32) -> f32
// CHECK-NEXT:    %17 = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT:    %18 = llvm.intr.sqrt(%arg3) : (vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %19 = llvm.fdiv %17, %18 : vector<4xf32>
// CHECK-NEXT:    %20 = llvm.intr.tanh(%16) : (f32) -> f32
// CHECK-NEXT:    return %16 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @r(%arg0: f32) -> f32 {
// CHECK-NEXT:    %0 = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:    %1 = llvm.intr.sqrt(%arg0) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT:    %2 = llvm.fdiv %0, %1 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:    return %2 : f32
// CHECK-NEXT:  }

func.func @m(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: vector<4xf32>) -> f32 {
  %0 = math.absf %arg0 : f32
  %1 = math.sin %0 : f32
  %2 = math.cos %1 fastmath<fast> : f32
  %3 = math.exp %2 : f32
  %4 = math.exp2 %3 : f32
  %5 = math.log %4 : f32
  %6 = math.log2 %5 : f32
  %7 = math.sqrt %6 : f32
  %8 = math.rsqrt %7 : f32
  %9 = math.floor %8 : f32
  %10 = math.ceil %9 : f32
  %11 = math.round %10 : f32
  %12 = math.powf %11, %arg1 : f32
  %13 = math.copysign %12, %arg1 : f32
  %14 = math.fma %13, %arg1, %arg2 : f32
  %15 = math.rsqrt %arg3 : vector<4xf32>
  %16 = math.tanh %14 : f32
  return %14 : f32
}
func.func @r(%arg0: f32) -> f32 { %0 = math.rsqrt %arg0 fastmath<fast> : f32
 return %0 : f32 }

// log1p is log(1 + x) and expm1 exp(x) - 1, each op with the flags; the trigonometric
// and hyperbolic functions and roundeven are intrinsics.
// CHECK-LABEL: func.func @through_one(%arg0: f32, %arg1: vector<4xf32>) -> (f32, vector<4xf32>, f32) {
// CHECK-NEXT:    %0 = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:    %1 = llvm.fadd %0, %arg0 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:    %2 = llvm.intr.log(%1) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT:    %3 = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT:    %4 = llvm.intr.exp(%arg1) : (vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %5 = llvm.fsub %4, %3 : vector<4xf32>
// CHECK-NEXT:    %6 = llvm.intr.tan(%arg0) : (f32) -> f32
// CHECK-NEXT:    %7 = llvm.intr.asin(%6) : (f32) -> f32
// CHECK-NEXT:    %8 = llvm.intr.acos(%7) : (f32) -> f32
// CHECK-NEXT:    %9 = llvm.intr.atan(%8) {fastmathFlags = #llvm.fastmath<nnan>} : (f32) -> f32
// CHECK-NEXT:    %10 = llvm.intr.sinh(%9) : (f32) -> f32
// CHECK-NEXT:    %11 = llvm.intr.cosh(%10) : (f32) -> f32
// CHECK-NEXT:    %12 = llvm.intr.roundeven(%11) : (f32) -> f32
// CHECK-NEXT:    return %2, %5, %12 : f32, vector<4xf32>, f32
func.func @through_one(%arg0: f32, %arg1: vector<4xf32>) -> (f32, vector<4xf32>, f32) {
  %0 = math.log1p %arg0 fastmath<fast> : f32
  %1 = math.expm1 %arg1 : vector<4xf32>
  %2 = math.tan %arg0 : f32
  %3 = math.asin %2 : f32
  %4 = math.acos %3 : f32
  %5 = math.atan %4 fastmath<nnan> : f32
  %6 = math.sinh %5 : f32
  %7 = math.cosh %6 : f32
  %8 = math.roundeven %7 : f32
  return %0, %1, %8 : f32, vector<4xf32>, f32
}
