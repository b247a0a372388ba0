// Regression (fixed): arith.trunci lacks the overflowFlags property MLIR 22 gives it: the custom
// form `arith.trunci %arg0 overflow<nsw> : i64 to i8` does not parse ("unexpected
// 'overflow', expected ':', '{'"), and mlir-opt-22's generic form
// `"arith.trunci"(%arg0) <{overflowFlags = #arith.overflow<none>}>` is read with the
// property turned into a discardable attribute, printed back as
// `arith.trunci %arg0 {overflowFlags = #arith.overflow<none>} : i64 to i8`.
// REQUIRES: mlir-opt
// RUN: mlc-opt %s | filecheck %s
// RUN: %mlir_opt %s --mlir-print-op-generic | mlc-opt - | filecheck %s

// CHECK-LABEL: func.func @f(%arg0: i64) {
func.func @f(%arg0: i64) {
  // CHECK-NEXT: %{{.+}} = arith.trunci %arg0 : i64 to i8
  %0 = arith.trunci %arg0 : i64 to i8
  // CHECK-NEXT: %{{.+}} = arith.trunci %arg0 overflow<nsw> : i64 to i16
  %1 = arith.trunci %arg0 overflow<nsw> : i64 to i16
  return
}
