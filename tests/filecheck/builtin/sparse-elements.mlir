// `sparse<indices, values>` attributes: the elements at the indices have the values,
// the others are zero. Splat indices (one index) and splat values (one per index),
// `sparse<>`, and a space before `<`; printed as mlir-opt-22 prints them.
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --print-op-generic | mlc-opt - --allow-unregistered-dialect | filecheck %s

// CHECK: a = sparse<{{\[\[}}0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>
// CHECK-SAME: b = sparse<> : tensor<3xf32>
// CHECK-SAME: c = sparse<0, 1.500000e+00> : tensor<2xf32>
// CHECK-SAME: d = sparse<1, -2.000000e+00> : vector<2x2xf16>
// CHECK-SAME: e = sparse<[1, 2], 7> : tensor<4xi8>
// CHECK-SAME: f = sparse<0, (1.000000e+00,2.000000e+00)> : tensor<1x1xcomplex<f32>>
"t.op"() {a = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>,
          b = sparse<> : tensor<3xf32>,
          c = sparse<0, 1.5> : tensor<2xf32>,
          d = sparse<[[1, 1]], [-2.0]> : vector<2x2xf16>,
          e = sparse <[1, 2], 7> : tensor<4xi8>,
          f = sparse<[[0, 0]], [(1.0, 2.0)]> : tensor<1x1xcomplex<f32>>} : () -> ()
