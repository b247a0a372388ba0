// Dense elements of complex type: `(re,im)` elements, splats, hex, every part type;
// printed as mlir-opt-22 prints them (checked against it).
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt - --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-elementsattrs-with-hex-if-larger=1 | filecheck %s --check-prefix=HEX

// CHECK: a = dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
// HEX: a = dense<"0x0000803F000000400000404000008040"> : tensor<2xcomplex<f32>>
// CHECK-SAME: b = dense<(1,2)> : tensor<2x2xcomplex<i16>>
// CHECK-SAME: c = dense<{{\[\[}}(1,2)], [(3,4)]]> : tensor<2x1xcomplex<i8>>
// HEX-SAME: c = dense<"0x01020304"> : tensor<2x1xcomplex<i8>>
// CHECK-SAME: d = dense<(1.000000e+00,2.000000e+00)> : tensor<1xcomplex<f64>>
// CHECK-SAME: e = dense<> : tensor<0xcomplex<f32>>
// CHECK-SAME: f = dense<(0x7FC00001,1.000000e+00)> : tensor<complex<f32>>
// CHECK-SAME: g = dense<(1,255)> : tensor<1xcomplex<ui8>>
// CHECK-SAME: h = dense<(true,false)> : tensor<1xcomplex<i1>>
// CHECK-SAME: i = dense<(1.500000e+00,2.000000e+00)> : tensor<2xcomplex<bf16>>
// CHECK-SAME: j = dense<[(1.000000e+01,5.000000e+00), (1.000000e+01,4.000000e+00)]> : tensor<2xcomplex<f32>>
"t.op"() {a = dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>,
          b = dense<(1, 2)> : tensor<2x2xcomplex<i16>>,
          c = dense<[[(1,2)],[(3,4)]]> : tensor<2x1xcomplex<i8>>,
          d = dense<[(1.0,2.0)]> : tensor<1xcomplex<f64>>,
          e = dense<> : tensor<0xcomplex<f32>>,
          f = dense<(0x7FC00001, 1.0)> : tensor<complex<f32>>,
          g = dense<[(1, 255)]> : tensor<1xcomplex<ui8>>,
          h = dense<[(true, false)]> : tensor<1xcomplex<i1>>,
          i = dense<[(1.5, 2.0), (1.5, 2.0)]> : tensor<2xcomplex<bf16>>,
          j = dense<"0x000020410000A0400000204100008040"> : tensor<2xcomplex<f32>>} : () -> ()
