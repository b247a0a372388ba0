// arith.extf of a quiet NaN keeps its payload (shifted into the wider fraction) and its
// sign; a signaling NaN is left unfolded. Checked against mlir-opt-22's canonicalize.
// RUN: mlc-opt %s --canonicalize | filecheck %s

// CHECK-LABEL: func.func @f
func.func @f() -> (f32, f32, f64, f64, f32) {
  // CHECK-DAG: arith.constant 0x7FC02000 : f32
  %0 = arith.constant 0x7E01 : f16
  %1 = arith.extf %0 : f16 to f32
  // CHECK-DAG: arith.constant 0xFFC10000 : f32
  %2 = arith.constant 0xFFC1 : bf16
  %3 = arith.extf %2 : bf16 to f32
  // CHECK-DAG: arith.constant 0x7FF8000020000000 : f64
  %4 = arith.constant 0x7FC00001 : f32
  %5 = arith.extf %4 : f32 to f64
  // CHECK-DAG: %[[S:.*]] = arith.constant 0x7F800001 : f32
  // CHECK-DAG: arith.extf %[[S]] : f32 to f64
  %6 = arith.constant 0x7F800001 : f32
  %7 = arith.extf %6 : f32 to f64
  // CHECK-DAG: %[[H:.*]] = arith.constant 0x7D01 : f16
  // CHECK-DAG: arith.extf %[[H]] : f16 to f32
  %8 = arith.constant 0x7D01 : f16
  %9 = arith.extf %8 : f16 to f32
  return %1, %3, %5, %7, %9 : f32, f32, f64, f64, f32
}
