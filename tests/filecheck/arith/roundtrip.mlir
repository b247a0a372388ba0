// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s

// CHECK-LABEL: func.func @float_ops(%arg0: f32, %arg1: f32)
func.func @float_ops(%arg0: f32, %arg1: f32) -> f32 {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
  %0 = arith.addf %arg0, %arg1 : f32
  // CHECK-NEXT: %1 = arith.subf %0, %arg1 fastmath<fast> : f32
  %1 = arith.subf %0, %arg1 fastmath<fast> : f32
  // CHECK-NEXT: %2 = arith.mulf %1, %1 fastmath<nnan,ninf> : f32
  %2 = arith.mulf %1, %1 fastmath<nnan,ninf> : f32
  // CHECK-NEXT: %3 = arith.divf %2, %arg0 : f32
  %3 = arith.divf %2, %arg0 : f32
  // CHECK-NEXT: %4 = arith.negf %3 : f32
  %4 = arith.negf %3 : f32
  // CHECK-NEXT: %5 = arith.maximumf %4, %arg0 : f32
  %5 = arith.maximumf %4, %arg0 : f32
  // CHECK-NEXT: %6 = arith.cmpf oge, %5, %arg1 : f32
  %6 = arith.cmpf oge, %5, %arg1 : f32
  // CHECK-NEXT: %7 = arith.select %6, %5, %arg1 : f32
  %7 = arith.select %6, %5, %arg1 : f32
  // CHECK-NEXT: return %7 : f32
  return %7 : f32
}

// CHECK-LABEL: func.func @int_ops
func.func @int_ops(%a: i32, %b: i32, %i: index) -> i64 {
  // CHECK: %c7_i32 = arith.constant 7 : i32
  %c7_i32 = arith.constant 7 : i32
  // CHECK: arith.addi %a, %c7_i32 overflow<nsw> : i32
  %0 = arith.addi %a, %c7_i32 overflow<nsw> : i32
  // CHECK: arith.cmpi ult, %0, %b : i32
  %1 = arith.cmpi ult, %0, %b : i32
  // CHECK: arith.index_cast %i : index to i64
  %2 = arith.index_cast %i : index to i64
  // CHECK: arith.extsi %a : i32 to i64
  %3 = arith.extsi %a : i32 to i64
  // CHECK: arith.xori %2, %3 : i64
  %4 = arith.xori %2, %3 : i64
  return %4 : i64
}

// CHECK-LABEL: func.func @constants
func.func @constants() -> tensor<2x2xf32> {
  // CHECK: arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: arith.constant dense<0x7FC00000> : tensor<4xf32>
  %1 = arith.constant dense<0x7FC00000> : tensor<4xf32>
  // CHECK: arith.constant true
  %2 = arith.constant true
  // CHECK: arith.constant -0.000000e+00 : f64
  %3 = arith.constant -0.0 : f64
  return %0 : tensor<2x2xf32>
}
