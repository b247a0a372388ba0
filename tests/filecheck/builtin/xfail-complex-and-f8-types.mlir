// BUG (missing feature): `complex<f32>` is rejected on purpose ("complex types are
// not supported", reported at 1:1 instead of at the type) and the 8-bit float types
// (f8E4M3FN, f8E5M2, ...) are not known. mlir-opt-22 prints them back unchanged.
// XFAIL: *
// RUN: mlc-opt %s | filecheck %s

// CHECK: func.func private @complex(complex<f32>, tensor<2xcomplex<f64>>)
func.func private @complex(complex<f32>, tensor<2xcomplex<f64>>)
// CHECK: func.func private @f8(f8E4M3FN, f8E5M2)
func.func private @f8(f8E4M3FN, f8E5M2)
