// arith.constant: integers of every width (printed as written, within range), index,
// booleans, floats of every width (%e with six digits, hex for NaN and infinities,
// the shortest round-tripping form where six digits are not enough), dense splats and
// lists on tensors and vectors.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @integers() {
func.func @integers() {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c-5 = arith.constant -5 : index
  %c-5 = arith.constant -5 : index
  // CHECK-NEXT: %c-128_i8 = arith.constant -128 : i8
  %c-128_i8 = arith.constant -128 : i8
  // CHECK-NEXT: %c127_i8 = arith.constant 127 : i8
  %c127_i8 = arith.constant 127 : i8
  // CHECK-NEXT: %c42_i32 = arith.constant 42 : i32
  // GENERIC: %{{.+}} = "arith.constant"() <{value = 42 : i32}> : () -> i32
  %c42_i32 = arith.constant 42 : i32
  // CHECK-NEXT: %c9223372036854775807_i64 = arith.constant 9223372036854775807 : i64
  %c9223372036854775807_i64 = arith.constant 9223372036854775807 : i64
  // CHECK-NEXT: %c-9223372036854775808_i64 = arith.constant -9223372036854775808 : i64
  %c-9223372036854775808_i64 = arith.constant -9223372036854775808 : i64
  // CHECK-NEXT: %c1_i128 = arith.constant 1 : i128
  %c1_i128 = arith.constant 1 : i128
  // CHECK-NEXT: %c31_i16 = arith.constant 31 : i16
  %c31_i16 = arith.constant 0x1F : i16
  // CHECK-NEXT: %false = arith.constant false
  // GENERIC: %{{.+}} = "arith.constant"() <{value = false}> : () -> i1
  %false = arith.constant false
  // CHECK-NEXT: %true = arith.constant true
  %true = arith.constant true
  // CHECK-NEXT: %true_0 = arith.constant true
  %true_0 = arith.constant 1 : i1
  return
}

// CHECK-LABEL: func.func @floats() {
func.func @floats() {
  // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f16
  %cst = arith.constant 1.5 : f16
  // CHECK-NEXT: %cst_0 = arith.constant 3.000000e+00 : bf16
  %cst_0 = arith.constant 3.0 : bf16
  // CHECK-NEXT: %cst_1 = arith.constant 1.000000e-300 : f64
  %cst_1 = arith.constant 1.0e-300 : f64
  // CHECK-NEXT: %cst_2 = arith.constant 0x7F800000 : f32
  %cst_2 = arith.constant 0x7F800000 : f32
  // CHECK-NEXT: %cst_3 = arith.constant 0x7FC00000 : f32
  %cst_3 = arith.constant 0x7FC00000 : f32
  // CHECK-NEXT: %cst_4 = arith.constant 0xFF800000 : f32
  %cst_4 = arith.constant 0xFF800000 : f32
  // CHECK-NEXT: %cst_5 = arith.constant 1.000000e+00 : f16
  %cst_5 = arith.constant 0x3C00 : f16
  // CHECK-NEXT: %cst_6 = arith.constant 1.000000e-07 : f32
  %cst_6 = arith.constant 1.0e-7 : f32
  // CHECK-NEXT: %cst_7 = arith.constant 3.14159265358979 : f64
  %cst_7 = arith.constant 3.14159265358979 : f64
  // CHECK-NEXT: %cst_8 = arith.constant -0.000000e+00 : f32
  %cst_8 = arith.constant -0.0 : f32
  // CHECK-NEXT: %cst_9 = arith.constant 0x7FF0000000000000 : f64
  %cst_9 = arith.constant 0x7FF0000000000000 : f64
  // CHECK-NEXT: %cst_10 = arith.constant 0x7F800000 : f32
  %cst_10 = arith.constant 1.0e39 : f32
  // CHECK-NEXT: %cst_11 = arith.constant 6.550400e+04 : f16
  %cst_11 = arith.constant 65504.0 : f16
  // CHECK-NEXT: %cst_12 = arith.constant 2.500000e-01 : f32
  %cst_12 = arith.constant 0.25 : f32
  // CHECK-NEXT: %cst_13 = arith.constant 1.000000e+00 : f64
  // GENERIC: %{{.+}} = "arith.constant"() <{value = 1.000000e+00 : f64}> : () -> f64
  %cst_13 = arith.constant 1.0 : f64
  return
}

// CHECK-LABEL: func.func @shaped() {
func.func @shaped() {
  // CHECK-NEXT: %cst = arith.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
  %cst = arith.constant dense<[1.5, -2.0]> : tensor<2xf16>
  // CHECK-NEXT: %cst_0 = arith.constant dense<true> : vector<4xi1>
  %cst_0 = arith.constant dense<true> : vector<4xi1>
  // CHECK-NEXT: %cst_1 = arith.constant dense<{{\[}}[1], [2]]> : tensor<2x1xi8>
  %cst_1 = arith.constant dense<[[1], [2]]> : tensor<2x1xi8>
  // CHECK-NEXT: %cst_2 = arith.constant dense<0.000000e+00> : tensor<2x2xbf16>
  %cst_2 = arith.constant dense<0.0> : tensor<2x2xbf16>
  // CHECK-NEXT: %cst_3 = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
  %cst_3 = arith.constant dense<"0x01020304"> : tensor<4xi8>
  // CHECK-NEXT: %cst_4 = arith.constant dense<-1> : tensor<i32>
  %cst_4 = arith.constant dense<-1> : tensor<i32>
  // A list whose elements are all equal prints as a splat.
  // CHECK-NEXT: %cst_5 = arith.constant dense<7> : tensor<3xi32>
  %cst_5 = arith.constant dense<[7, 7, 7]> : tensor<3xi32>
  // CHECK-NEXT: %cst_6 = arith.constant dense<[0x7FC00000, 0x7F800000, 1.000000e+00]> : vector<3xf32>
  %cst_6 = arith.constant dense<[0x7FC00000, 0x7F800000, 1.0]> : vector<3xf32>
  // CHECK-NEXT: %cst_7 = arith.constant dense<[1, 2]> : tensor<2xindex>
  %cst_7 = arith.constant dense<[1, 2]> : tensor<2xindex>
  // CHECK-NEXT: %cst_8 = arith.constant dense<{{\[}}[true, false], [false, true]]> : tensor<2x2xi1>
  %cst_8 = arith.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  // GENERIC: "arith.constant"() <{value = dense<{{\[}}[true, false], [false, true]]> : tensor<2x2xi1>}> : () -> tensor<2x2xi1>
  return
}
