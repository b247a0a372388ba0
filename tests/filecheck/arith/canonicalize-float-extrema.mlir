// The float extrema fold on bit patterns as LLVM's APFloat does: maximumf/minimumf
// propagate NaN, maxnumf/minnumf ignore a quiet NaN, all four order -0.0 below +0.0.
// The CHECK lines, written from mlir-opt-22's output, hold for it too.
// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: mlc-opt %s --canonicalize | mlc-opt --canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// -0.0 orders below +0.0 in all four, whichever side it is on.
// CHECK-LABEL: func.func @zeros(
// CHECK-DAG: %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[CST2:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: return %[[CST]], %[[CST]], %[[CST2]], %[[CST2]], %[[CST]], %[[CST]], %[[CST2]], %[[CST2]] : f32, f32, f32, f32, f32, f32, f32, f32
func.func @zeros() -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %cst = arith.constant -0.000000e+00 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = arith.maxnumf %cst, %cst_0 : f32
  %1 = arith.maxnumf %cst_0, %cst : f32
  %2 = arith.minnumf %cst, %cst_0 : f32
  %3 = arith.minnumf %cst_0, %cst : f32
  %4 = arith.maximumf %cst, %cst_0 : f32
  %5 = arith.maximumf %cst_0, %cst : f32
  %6 = arith.minimumf %cst, %cst_0 : f32
  %7 = arith.minimumf %cst_0, %cst : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}

// A NaN: maximumf/minimumf give it, quieted (payload and sign kept; the first of
// two NaNs); maxnumf/minnumf give the other operand for a quiet NaN, and the quieted
// NaN for a signaling one (IEEE-754 2008's maxNum, as LLVM's APFloat folds it).
// CHECK-LABEL: func.func @nans(
// CHECK-DAG: %[[CST:.*]] = arith.constant 2.500000e+00 : f32
// CHECK-DAG: %[[CST2:.*]] = arith.constant 0x7FC00001 : f32
// CHECK-DAG: %[[CST3:.*]] = arith.constant 0xFFC00001 : f32
// CHECK-DAG: %[[CST4:.*]] = arith.constant 0x7E01 : f16
// CHECK-DAG: %[[CST5:.*]] = arith.constant 0x7FC1 : bf16
// CHECK: return %[[CST]], %[[CST]], %[[CST2]], %[[CST]], %[[CST3]], %[[CST2]], %[[CST2]], %[[CST3]], %[[CST4]], %[[CST5]] : f32, f32, f32, f32, f32, f32, f32, f32, f16, bf16
func.func @nans() -> (f32, f32, f32, f32, f32, f32, f32, f32, f16, bf16) {
  %cst = arith.constant 0xFFC00001 : f32
  %cst_0 = arith.constant 0x7F800001 : f32
  %cst_1 = arith.constant 2.500000e+00 : f32
  %cst_2 = arith.constant 0x7E01 : f16
  %cst_3 = arith.constant 1.000000e+00 : f16
  %cst_4 = arith.constant 0x7F81 : bf16
  %cst_5 = arith.constant -1.000000e+00 : bf16
  %0 = arith.maxnumf %cst, %cst_1 : f32
  %1 = arith.minnumf %cst_1, %cst : f32
  %2 = arith.maxnumf %cst_0, %cst_1 : f32
  %3 = arith.minnumf %cst_1, %cst_0 : f32
  %4 = arith.maximumf %cst, %cst_1 : f32
  %5 = arith.minimumf %cst_1, %cst_0 : f32
  %6 = arith.maximumf %cst_0, %cst : f32
  %7 = arith.minimumf %cst, %cst_0 : f32
  %8 = arith.minimumf %cst_3, %cst_2 : f16
  %9 = arith.maxnumf %cst_4, %cst_5 : bf16
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f32, f32, f32, f32, f32, f32, f32, f16, bf16
}

// Ordinary values, f16's extremes, and dense operands elementwise.
// CHECK-LABEL: func.func @values(
// CHECK-DAG: %[[CST:.*]] = arith.constant 1.500000e+00 : f64
// CHECK-DAG: %[[CST2:.*]] = arith.constant -2.000000e+00 : f64
// CHECK-DAG: %[[CST3:.*]] = arith.constant -6.550400e+04 : f16
// CHECK-DAG: %[[CST4:.*]] = arith.constant dense<[2.000000e+00, 5.000000e+00, -3.000000e+00]> : vector<3xf32>
// CHECK-DAG: %[[CST5:.*]] = arith.constant dense<[1.000000e+00, 0x7FC00000, 0x7FC00000]> : vector<3xf32>
// CHECK: return %[[CST]], %[[CST2]], %[[CST3]], %[[CST4]], %[[CST5]] : f64, f64, f16, vector<3xf32>, vector<3xf32>
func.func @values() -> (f64, f64, f16, vector<3xf32>, vector<3xf32>) {
  %cst = arith.constant 1.500000e+00 : f64
  %cst_0 = arith.constant -2.000000e+00 : f64
  %cst_1 = arith.constant 6.550400e+04 : f16
  %cst_2 = arith.constant -6.550400e+04 : f16
  %cst_3 = arith.constant dense<[1.000000e+00, 0x7FC00000, -3.000000e+00]> : vector<3xf32>
  %cst_4 = arith.constant dense<[2.000000e+00, 5.000000e+00, 0x7FC00000]> : vector<3xf32>
  %0 = arith.maxnumf %cst, %cst_0 : f64
  %1 = arith.minimumf %cst, %cst_0 : f64
  %2 = arith.minnumf %cst_1, %cst_2 : f16
  %3 = arith.maxnumf %cst_3, %cst_4 : vector<3xf32>
  %4 = arith.minimumf %cst_3, %cst_4 : vector<3xf32>
  return %0, %1, %2, %3, %4 : f64, f64, f16, vector<3xf32>, vector<3xf32>
}

// maxnumf/minnumf with a NaN, maximumf with -inf, minimumf with +inf, and any of
// them of an operand and itself give the operand; maximumf with +inf or a NaN does
// not fold (the operand may be a NaN).
// CHECK-LABEL: func.func @identities(
// CHECK-DAG: %[[CST:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[CST2:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[MAXIMUMF:.*]] = arith.maximumf %arg0, %[[CST2]] : f32
// CHECK: %[[MAXIMUMF2:.*]] = arith.maximumf %arg0, %[[CST]] : f32
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg1, %[[MAXIMUMF]], %[[MAXIMUMF2]] : f32, f32, f32, f32, f32, vector<2xf32>, f32, f32
func.func @identities(%arg0: f32, %arg1: vector<2xf32>) -> (f32, f32, f32, f32, f32, vector<2xf32>, f32, f32) {
  %cst = arith.constant 0x7FC00000 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %cst_1 = arith.constant 0x7F800000 : f32
  %cst_2 = arith.constant dense<0xFFC00000> : vector<2xf32>
  %0 = arith.maxnumf %arg0, %cst : f32
  %1 = arith.minnumf %cst, %arg0 : f32
  %2 = arith.maximumf %arg0, %cst_0 : f32
  %3 = arith.minimumf %cst_1, %arg0 : f32
  %4 = arith.maxnumf %arg0, %arg0 : f32
  %5 = arith.minnumf %arg1, %cst_2 : vector<2xf32>
  %6 = arith.maximumf %arg0, %cst_1 : f32
  %7 = arith.maximumf %arg0, %cst : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, vector<2xf32>, f32, f32
}
