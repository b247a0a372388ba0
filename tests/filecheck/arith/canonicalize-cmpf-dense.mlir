// cmpf on dense constants folds element by element, a splat side broadcast (as
// cmpi does). mlir-opt-22 keeps these: its CmpFOp folder reads scalar FloatAttrs
// only; the values below are IEEE-754's (ordered predicates are false against NaN,
// unordered ones true).
// RUN: mlc-opt %s --canonicalize | filecheck %s
// The difference, kept in view: mlir-opt leaves the three comparisons.
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s --check-prefix=MLIR %}

// MLIR-COUNT-3: arith.cmpf

// CHECK-LABEL: func.func @cmpf_dense()
// CHECK-DAG:     %[[OLT:.*]] = arith.constant dense<[true, false, false, false]> : vector<4xi1>
// CHECK-DAG:     %[[ULT:.*]] = arith.constant dense<[true, false, true, false]> : vector<4xi1>
// CHECK-DAG:     %[[OEQ:.*]] = arith.constant dense<[false, true, false, false]> : vector<4xi1>
// CHECK-NOT:     arith.cmpf
// CHECK:         return %[[OLT]], %[[ULT]], %[[OEQ]] :
func.func @cmpf_dense() -> (vector<4xi1>, vector<4xi1>, vector<4xi1>) {
  %a = arith.constant dense<[1.0, 2.0, 0x7FC00000, -0.0]> : vector<4xf32>
  %b = arith.constant dense<[3.0, 2.0, 1.0, 0.0]> : vector<4xf32>
  %0 = arith.cmpf olt, %a, %b : vector<4xf32>
  %1 = arith.cmpf ult, %a, %b : vector<4xf32>
  %two = arith.constant dense<2.0> : vector<4xf32>
  %2 = arith.cmpf oeq, %a, %two : vector<4xf32>
  return %0, %1, %2 : vector<4xi1>, vector<4xi1>, vector<4xi1>
}
