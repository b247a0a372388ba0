// Hex elements of a type narrower than the byte(s) that hold each one (i4, i12, si4,
// f4E2M1FN): only the low `width` bits of each element count, sign-extended for a
// signless or signed integer, as mlir-opt-22 reads them. For ui4 the high bits are
// dropped as well, so the value stays in range (mlir-opt-22 keeps them and prints 31
// for 0x1F, which it then cannot read back).
// RUN: mlc-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt --allow-unregistered-dialect | filecheck %s

// CHECK: f4 = dense<[-6.000000e+00, 1.000000e+00, -5.000000e-01, 6.000000e+00]> : tensor<4xf4E2M1FN>
// CHECK-SAME: i12 = dense<[-1, -2048, 2047]> : tensor<3xi12>
// CHECK-SAME: i4 = dense<[-1, 7, -8, 1]> : tensor<4xi4>
// CHECK-SAME: i4_splat = dense<-1> : tensor<32xi4>
// CHECK-SAME: si4 = dense<[-1, 7, -8, 1]> : tensor<4xsi4>
// CHECK-SAME: ui4 = dense<[15, 15, 1, 8]> : tensor<4xui4>
"test.op"() {
  i4 = dense<"0x0F17F8E1"> : tensor<4xi4>,
  i4_splat = dense<"0xFF"> : tensor<32xi4>,
  i12 = dense<"0xFF0F0008FF07"> : tensor<3xi12>,
  si4 = dense<"0x0F17F8E1"> : tensor<4xsi4>,
  ui4 = dense<"0x0F1F4128"> : tensor<4xui4>,
  f4 = dense<"0x0F1259A7"> : tensor<4xf4E2M1FN>
} : () -> ()

// Written in hex, each element keeps only its low bits (0x0F for an i4 -1).
// RUN: mlc-opt %s --allow-unregistered-dialect --print-elementsattrs-with-hex-if-larger=1 | filecheck %s --check-prefix=HEX
// HEX: "test.listed"() {i12 = dense<"0xFF0F0008FF07"> : tensor<3xi12>, i4 = dense<"0x0F070801"> : tensor<4xi4>}
"test.listed"() {i4 = dense<[-1, 7, -8, 1]> : tensor<4xi4>, i12 = dense<[-1, -2048, 2047]> : tensor<3xi12>} : () -> ()
