// Complex types and every small float type MLIR 22 has, with constants rounded and
// printed as mlir-opt-22 does (checked against its output): out-of-range values become
// infinity, NaN or the largest finite value by the type's rules; FNUZ types have no -0.
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @complex(complex<f32>, tensor<2xcomplex<f64>>)
func.func private @complex(complex<f32>, tensor<2xcomplex<f64>>)
// CHECK: func.func private @f8(f8E4M3FN, f8E5M2, f8E4M3, f8E3M4, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN)
func.func private @f8(f8E4M3FN, f8E5M2, f8E4M3, f8E3M4, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN)

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK: arith.constant 1.500000e+00 : f8E4M3FN
  %0 = arith.constant 1.5 : f8E4M3FN
  // CHECK: arith.constant 4.480000e+02 : f8E4M3FN
  %1 = arith.constant 448.0 : f8E4M3FN
  // CHECK: arith.constant 0x7F : f8E4M3FN
  %2 = arith.constant 500.0 : f8E4M3FN
  // CHECK: arith.constant 0.000000e+00 : f8E5M2FNUZ
  %3 = arith.constant -0.0 : f8E5M2FNUZ
  // CHECK: arith.constant 9.375000e-02 : f8E5M2
  %4 = arith.constant 0.1 : f8E5M2
  // CHECK: arith.constant 3.000000e+00 : f4E2M1FN
  %5 = arith.constant 3.0 : f4E2M1FN
  // CHECK: arith.constant 6.000000e+00 : f4E2M1FN
  %6 = arith.constant 100.0 : f4E2M1FN
  // CHECK: arith.constant 4.000000e+00 : f8E8M0FNU
  %7 = arith.constant 3.0 : f8E8M0FNU
  // CHECK: arith.constant 7.812500e-03 : f8E8M0FNU
  %8 = arith.constant 0.01 : f8E8M0FNU
  // CHECK: arith.constant 0x78 : f8E4M3
  %9 = arith.constant 1.0e10 : f8E4M3
  // CHECK: arith.constant -0.000000e+00 : f8E4M3FN
  %10 = arith.constant -1.0e-9 : f8E4M3FN
  // CHECK: arith.constant 0x80 : f8E4M3FNUZ
  %11 = arith.constant 0x80 : f8E4M3FNUZ
  // CHECK: arith.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf8E4M3FNUZ>
  %12 = arith.constant dense<[1.0, 2.5]> : tensor<2xf8E4M3FNUZ>
  // CHECK: arith.constant 3.125000e-01 : f6E3M2FN
  %13 = arith.constant 0.3 : f6E3M2FN
  return
}
