// The llvm dialect's intrinsics, printed as mlir-opt-22 prints them: most as a call
// with a functional type, fast-math flags in the attribute dictionary; `abs`, `ctlz`,
// `cttz`, the integer reductions and the accumulating float reductions have no custom
// form in MLIR and print generically.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt - | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: llvm.func @float_intrinsics(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: vector<4xf32>, %arg4: i32) -> f32 {
// CHECK-NEXT:    %0 = llvm.intr.exp(%arg0) : (f32) -> f32
// CHECK-NEXT:    %1 = llvm.intr.exp2(%arg0) : (f32) -> f32
// CHECK-NEXT:    %2 = llvm.intr.exp10(%arg0) : (f32) -> f32
// CHECK-NEXT:    %3 = llvm.intr.log(%arg0) : (f32) -> f32
// CHECK-NEXT:    %4 = llvm.intr.log2(%arg0) : (f32) -> f32
// CHECK-NEXT:    %5 = llvm.intr.log10(%arg0) : (f32) -> f32
// CHECK-NEXT:    %6 = llvm.intr.sqrt(%arg0) : (f32) -> f32
// CHECK-NEXT:    %7 = llvm.intr.sin(%arg0) : (f32) -> f32
// CHECK-NEXT:    %8 = llvm.intr.cos(%arg0) : (f32) -> f32
// CHECK-NEXT:    %9 = llvm.intr.tan(%arg0) : (f32) -> f32
// CHECK-NEXT:    %10 = llvm.intr.asin(%arg0) : (f32) -> f32
// CHECK-NEXT:    %11 = llvm.intr.acos(%arg0) : (f32) -> f32
// CHECK-NEXT:    %12 = llvm.intr.atan(%arg0) : (f32) -> f32
// CHECK-NEXT:    %13 = llvm.intr.sinh(%arg0) : (f32) -> f32
// CHECK-NEXT:    %14 = llvm.intr.cosh(%arg0) : (f32) -> f32
// CHECK-NEXT:    %15 = llvm.intr.tanh(%arg0) : (f32) -> f32
// CHECK-NEXT:    %16 = llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK-NEXT:    %17 = llvm.intr.floor(%arg0) : (f32) -> f32
// CHECK-NEXT:    %18 = llvm.intr.ceil(%arg0) : (f32) -> f32
// CHECK-NEXT:    %19 = llvm.intr.round(%arg0) : (f32) -> f32
// CHECK-NEXT:    %20 = llvm.intr.roundeven(%arg0) : (f32) -> f32
// CHECK-NEXT:    %21 = llvm.intr.trunc(%arg0) : (f32) -> f32
// CHECK-NEXT:    %22 = llvm.intr.rint(%arg0) : (f32) -> f32
// CHECK-NEXT:    %23 = llvm.intr.nearbyint(%arg0) : (f32) -> f32
// CHECK-NEXT:    %24 = llvm.intr.sqrt(%arg3) {fastmathFlags = #llvm.fastmath<fast>} : (vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %25 = llvm.intr.pow(%arg0, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %26 = llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %27 = llvm.intr.minnum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %28 = llvm.intr.maximum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %29 = llvm.intr.minimum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %30 = llvm.intr.copysign(%arg0, %arg1) : (f32, f32) -> f32
// CHECK-NEXT:    %31 = llvm.intr.fma(%arg0, %arg1, %arg2) : (f32, f32, f32) -> f32
// CHECK-NEXT:    %32 = llvm.intr.fmuladd(%arg0, %arg1, %arg2) {fastmathFlags = #llvm.fastmath<contract>} : (f32, f32, f32) -> f32
// CHECK-NEXT:    %33 = llvm.intr.powi(%arg0, %arg4) : (f32, i32) -> f32
// CHECK-NEXT:    %34 = llvm.intr.vector.reduce.fmax(%arg3) : (vector<4xf32>) -> f32
// CHECK-NEXT:    %35 = llvm.intr.vector.reduce.fmin(%arg3) : (vector<4xf32>) -> f32
// CHECK-NEXT:    %36 = llvm.intr.vector.reduce.fmaximum(%arg3) : (vector<4xf32>) -> f32
// CHECK-NEXT:    %37 = llvm.intr.vector.reduce.fminimum(%arg3) : (vector<4xf32>) -> f32
// CHECK-NEXT:    %38 = "llvm.intr.vector.reduce.fadd"(%arg0, %arg3) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:    %39 = "llvm.intr.vector.reduce.fmul"(%arg0, %arg3) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:    llvm.return %0 : f32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @integer_intrinsics(%arg0: i32, %arg1: i32, %arg2: vector<4xi32>) -> i32 {
// CHECK-NEXT:    %0 = llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:    %1 = llvm.intr.smin(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:    %2 = llvm.intr.umax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:    %3 = llvm.intr.umin(%arg0, %arg1) : (i32, i32) -> i32
// CHECK-NEXT:    %4 = llvm.intr.ctpop(%arg0) : (i32) -> i32
// CHECK-NEXT:    %5 = llvm.intr.bitreverse(%arg0) : (i32) -> i32
// CHECK-NEXT:    %6 = llvm.intr.bswap(%arg0) : (i32) -> i32
// CHECK-NEXT:    %7 = "llvm.intr.abs"(%arg0) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK-NEXT:    %8 = "llvm.intr.ctlz"(%arg0) <{is_zero_poison = true}> : (i32) -> i32
// CHECK-NEXT:    %9 = "llvm.intr.cttz"(%arg2) <{is_zero_poison = false}> : (vector<4xi32>) -> vector<4xi32>
// CHECK-NEXT:    %10 = "llvm.intr.vector.reduce.add"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %11 = "llvm.intr.vector.reduce.mul"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %12 = "llvm.intr.vector.reduce.and"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %13 = "llvm.intr.vector.reduce.or"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %14 = "llvm.intr.vector.reduce.xor"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %15 = "llvm.intr.vector.reduce.smax"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %16 = "llvm.intr.vector.reduce.smin"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %17 = "llvm.intr.vector.reduce.umax"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %18 = "llvm.intr.vector.reduce.umin"(%arg2) : (vector<4xi32>) -> i32
// CHECK-NEXT:    llvm.return %0 : i32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @masked(%arg0: !llvm.ptr, %arg1: vector<8xi1>, %arg2: vector<8xf32>) {
// CHECK-NEXT:    %0 = llvm.intr.masked.load %arg0, %arg1, %arg2 {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
// CHECK-NEXT:    %1 = llvm.intr.masked.load %arg0, %arg1 {alignment = 32 : i32, nontemporal} : (!llvm.ptr, vector<8xi1>) -> vector<8xf32>
// CHECK-NEXT:    llvm.intr.masked.store %0, %arg0, %arg1 {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }

// GENERIC: "llvm.intr.exp"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32) -> f32
// GENERIC: "llvm.intr.sqrt"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32) -> f32
// GENERIC: "llvm.intr.sqrt"({{.*}}) <{fastmathFlags = #llvm.fastmath<fast>}> : (vector<4xf32>) -> vector<4xf32>
// GENERIC: "llvm.intr.fma"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32, f32) -> f32
// GENERIC: "llvm.intr.powi"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, i32) -> f32
// GENERIC: "llvm.intr.vector.reduce.fmax"({{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xf32>) -> f32
// GENERIC: "llvm.intr.smax"({{.*}}) : (i32, i32) -> i32
// GENERIC: "llvm.intr.masked.store"({{.*}}) <{alignment = 4 : i32}> : (vector<8xf32>, !llvm.ptr, vector<8xi1>) -> ()

llvm.func @float_intrinsics(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: vector<4xf32>, %arg4: i32) -> f32 {
  %0 = llvm.intr.exp(%arg0) : (f32) -> f32
  %1 = llvm.intr.exp2(%arg0) : (f32) -> f32
  %2 = llvm.intr.exp10(%arg0) : (f32) -> f32
  %3 = llvm.intr.log(%arg0) : (f32) -> f32
  %4 = llvm.intr.log2(%arg0) : (f32) -> f32
  %5 = llvm.intr.log10(%arg0) : (f32) -> f32
  %6 = llvm.intr.sqrt(%arg0) : (f32) -> f32
  %7 = llvm.intr.sin(%arg0) : (f32) -> f32
  %8 = llvm.intr.cos(%arg0) : (f32) -> f32
  %9 = llvm.intr.tan(%arg0) : (f32) -> f32
  %10 = llvm.intr.asin(%arg0) : (f32) -> f32
  %11 = llvm.intr.acos(%arg0) : (f32) -> f32
  %12 = llvm.intr.atan(%arg0) : (f32) -> f32
  %13 = llvm.intr.sinh(%arg0) : (f32) -> f32
  %14 = llvm.intr.cosh(%arg0) : (f32) -> f32
  %15 = llvm.intr.tanh(%arg0) : (f32) -> f32
  %16 = llvm.intr.fabs(%arg0) : (f32) -> f32
  %17 = llvm.intr.floor(%arg0) : (f32) -> f32
  %18 = llvm.intr.ceil(%arg0) : (f32) -> f32
  %19 = llvm.intr.round(%arg0) : (f32) -> f32
  %20 = llvm.intr.roundeven(%arg0) : (f32) -> f32
  %21 = llvm.intr.trunc(%arg0) : (f32) -> f32
  %22 = llvm.intr.rint(%arg0) : (f32) -> f32
  %23 = llvm.intr.nearbyint(%arg0) : (f32) -> f32
  %24 = llvm.intr.sqrt(%arg3) {fastmathFlags = #llvm.fastmath<fast>} : (vector<4xf32>) -> vector<4xf32>
  %25 = llvm.intr.pow(%arg0, %arg1) : (f32, f32) -> f32
  %26 = llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
  %27 = llvm.intr.minnum(%arg0, %arg1) : (f32, f32) -> f32
  %28 = llvm.intr.maximum(%arg0, %arg1) : (f32, f32) -> f32
  %29 = llvm.intr.minimum(%arg0, %arg1) : (f32, f32) -> f32
  %30 = llvm.intr.copysign(%arg0, %arg1) : (f32, f32) -> f32
  %31 = llvm.intr.fma(%arg0, %arg1, %arg2) : (f32, f32, f32) -> f32
  %32 = llvm.intr.fmuladd(%arg0, %arg1, %arg2) {fastmathFlags = #llvm.fastmath<contract>} : (f32, f32, f32) -> f32
  %33 = llvm.intr.powi(%arg0, %arg4) : (f32, i32) -> f32
  %34 = llvm.intr.vector.reduce.fmax(%arg3) : (vector<4xf32>) -> f32
  %35 = llvm.intr.vector.reduce.fmin(%arg3) : (vector<4xf32>) -> f32
  %36 = llvm.intr.vector.reduce.fmaximum(%arg3) : (vector<4xf32>) -> f32
  %37 = llvm.intr.vector.reduce.fminimum(%arg3) : (vector<4xf32>) -> f32
  %38 = "llvm.intr.vector.reduce.fadd"(%arg0, %arg3) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32
  %39 = "llvm.intr.vector.reduce.fmul"(%arg0, %arg3) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
  llvm.return %0 : f32
}
llvm.func @integer_intrinsics(%arg0: i32, %arg1: i32, %arg2: vector<4xi32>) -> i32 {
  %0 = llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
  %1 = llvm.intr.smin(%arg0, %arg1) : (i32, i32) -> i32
  %2 = llvm.intr.umax(%arg0, %arg1) : (i32, i32) -> i32
  %3 = llvm.intr.umin(%arg0, %arg1) : (i32, i32) -> i32
  %4 = llvm.intr.ctpop(%arg0) : (i32) -> i32
  %5 = llvm.intr.bitreverse(%arg0) : (i32) -> i32
  %6 = llvm.intr.bswap(%arg0) : (i32) -> i32
  %7 = "llvm.intr.abs"(%arg0) <{is_int_min_poison = false}> : (i32) -> i32
  %8 = "llvm.intr.ctlz"(%arg0) <{is_zero_poison = true}> : (i32) -> i32
  %9 = "llvm.intr.cttz"(%arg2) <{is_zero_poison = false}> : (vector<4xi32>) -> vector<4xi32>
  %10 = "llvm.intr.vector.reduce.add"(%arg2) : (vector<4xi32>) -> i32
  %11 = "llvm.intr.vector.reduce.mul"(%arg2) : (vector<4xi32>) -> i32
  %12 = "llvm.intr.vector.reduce.and"(%arg2) : (vector<4xi32>) -> i32
  %13 = "llvm.intr.vector.reduce.or"(%arg2) : (vector<4xi32>) -> i32
  %14 = "llvm.intr.vector.reduce.xor"(%arg2) : (vector<4xi32>) -> i32
  %15 = "llvm.intr.vector.reduce.smax"(%arg2) : (vector<4xi32>) -> i32
  %16 = "llvm.intr.vector.reduce.smin"(%arg2) : (vector<4xi32>) -> i32
  %17 = "llvm.intr.vector.reduce.umax"(%arg2) : (vector<4xi32>) -> i32
  %18 = "llvm.intr.vector.reduce.umin"(%arg2) : (vector<4xi32>) -> i32
  llvm.return %0 : i32
}
llvm.func @masked(%arg0: !llvm.ptr, %arg1: vector<8xi1>, %arg2: vector<8xf32>) {
  %0 = llvm.intr.masked.load %arg0, %arg1, %arg2 {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  %1 = llvm.intr.masked.load %arg0, %arg1 {alignment = 32 : i32, nontemporal} : (!llvm.ptr, vector<8xi1>) -> vector<8xf32>
  llvm.intr.masked.store %0, %arg0, %arg1 {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
  llvm.return
}
