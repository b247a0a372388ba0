// math's constant folds, as mlir-opt-22's: the C library's functions on f32 and f64
// only (f16 stays), log/sqrt of non-negative constants only, no fold of rsqrt or fma;
// absf, copysign, floor and ceil on every type.
// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// CHECK-LABEL: func.func @folds
// (sin(1.0) is checked bit for bit by tests/property/test_math_folds_vs_mlir.py; the
// tools spell floats differently.)
// CHECK-DAG: %[[SIN:.*]] = arith.constant {{0\.841470957|8\.4147096e-01}} : f32
// CHECK-DAG: %[[ABS:.*]] = arith.constant 2.500000e+00 : f64
// CHECK-DAG: %[[FLOOR:.*]] = arith.constant -3.000000e+00 : f16
// CHECK-DAG: %[[CEIL:.*]] = arith.constant -0.000000e+00 : f16
// CHECK-DAG: %[[SIGN:.*]] = arith.constant -7.500000e-01 : f32
// CHECK-DAG: %[[POW:.*]] = arith.constant 1.225000e+01 : f32
// CHECK: %[[SINH:.*]] = math.sin %{{.*}} : f16
// CHECK: %[[LOG:.*]] = math.log %{{.*}} : f32
// CHECK: %[[RSQRT:.*]] = math.rsqrt %{{.*}} : f32
// CHECK: %[[FMA:.*]] = math.fma
// CHECK: return %[[SIN]], %[[ABS]], %[[FLOOR]], %[[CEIL]], %[[SIGN]], %[[POW]], %[[SINH]], %[[LOG]], %[[RSQRT]], %[[FMA]]
func.func @folds() -> (f32, f64, f16, f16, f32, f32, f16, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %m25 = arith.constant -2.5 : f64
  %m25h = arith.constant -2.5 : f16
  %m05h = arith.constant -0.5 : f16
  %m075 = arith.constant -0.75 : f32
  %p35 = arith.constant 3.5 : f32
  %two = arith.constant 2.0 : f32
  %one_h = arith.constant 1.0 : f16
  %0 = math.sin %one : f32
  %1 = math.absf %m25 : f64
  %2 = math.floor %m25h : f16
  %3 = math.ceil %m05h : f16
  %4 = math.copysign %m075, %m075 : f32
  %5 = math.powf %p35, %two : f32
  %6 = math.sin %one_h : f16
  %7 = math.log %m075 : f32
  %8 = math.rsqrt %two : f32
  %9 = math.fma %one, %two, %p35 : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f64, f16, f16, f32, f32, f16, f32, f32, f32
}
