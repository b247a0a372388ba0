// dense_resource attributes and the file-level resource section, which is printed
// back after the module; --elide-elementsattrs-if-larger and
// --print-elementsattrs-with-hex-if-larger.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --elide-elementsattrs-if-larger 2 | filecheck %s --check-prefix=ELIDE
// RUN: mlc-opt %s --print-elementsattrs-with-hex-if-larger 2 | filecheck %s --check-prefix=HEX
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @f() -> tensor<2xi32> {
// ELIDE-LABEL: func.func @f() -> tensor<2xi32> {
// HEX-LABEL: func.func @f() -> tensor<2xi32> {
func.func @f() -> tensor<2xi32> {
  // CHECK-NEXT: %cst = arith.constant dense_resource<blob1> : tensor<2xi32>
  // ELIDE-NEXT: %cst = arith.constant dense_resource<blob1> : tensor<2xi32>
  // HEX-NEXT: %cst = arith.constant dense_resource<blob1> : tensor<2xi32>
  %cst = arith.constant dense_resource<blob1> : tensor<2xi32>
  // CHECK-NEXT: %cst_0 = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  // ELIDE-NEXT: %cst_0 = arith.constant dense_resource<__elided__> : tensor<5xi32>
  // HEX-NEXT: %cst_0 = arith.constant dense<"0x0100000002000000030000000400000005000000"> : tensor<5xi32>
  %cst_0 = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  // A splat is one element: neither elided nor printed as hex.
  // CHECK-NEXT: %cst_1 = arith.constant dense<7> : tensor<8xi32>
  // ELIDE-NEXT: %cst_1 = arith.constant dense<7> : tensor<8xi32>
  // HEX-NEXT: %cst_1 = arith.constant dense<7> : tensor<8xi32>
  %cst_1 = arith.constant dense<7> : tensor<8xi32>
  // At the limit: two elements are kept.
  // CHECK-NEXT: %cst_2 = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // ELIDE-NEXT: %cst_2 = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // HEX-NEXT: %cst_2 = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %cst_2 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK-NEXT: %cst_3 = arith.constant dense_resource<blob2> : tensor<3xf32>
  %cst_3 = arith.constant dense_resource<blob2> : tensor<3xf32>
  return %cst : tensor<2xi32>
}

// GENERIC: "arith.constant"() <{value = dense_resource<blob1> : tensor<2xi32>}> : () -> tensor<2xi32>

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob1: "0x040000000100000002000000",
// CHECK-NEXT:       blob2: "0x040000000000803F0000004000004040"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
// ELIDE: blob1: "0x040000000100000002000000"
// HEX: blob1: "0x040000000100000002000000"
// GENERIC: blob2: "0x040000000000803F0000004000004040"
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000",
      blob2: "0x040000000000803F0000004000004040"
    }
  }
#-}
