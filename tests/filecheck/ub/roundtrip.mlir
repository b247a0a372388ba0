// ub.poison in its custom and generic forms, read back by mlc-opt and by mlir-opt-22,
// which must print the same.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt - | filecheck %s
// RUN: mlc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: %if mlir-opt %{ mlc-opt %s | %mlir_opt | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}

// CHECK-LABEL: func.func @poisons()
// CHECK-NEXT: %0 = ub.poison : i32
// CHECK-NEXT: %1 = ub.poison : vector<4xf32>
// CHECK-NEXT: %2 = ub.poison : index
// CHECK-NEXT: return %0, %1, %2 : i32, vector<4xf32>, index
// GENERIC: "ub.poison"() <{value = #ub.poison}> : () -> i32
// GENERIC: "ub.poison"() <{value = #ub.poison}> : () -> vector<4xf32>
func.func @poisons() -> (i32, vector<4xf32>, index) {
  %0 = ub.poison : i32
  %1 = ub.poison : vector<4xf32>
  %2 = "ub.poison"() <{value = #ub.poison}> : () -> index
  return %0, %1, %2 : i32, vector<4xf32>, index
}
