// convert-ub-to-llvm: ub.poison becomes llvm.mlir.poison of the converted type, as
// mlir-opt-22 makes it.
// RUN: mlc-opt %s --convert-ub-to-llvm | filecheck %s
// RUN: mlc-opt %s --convert-ub-to-llvm --print-op-generic | mlc-opt - | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-ub-to-llvm | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --convert-ub-to-llvm --print-op-generic | %mlir_opt - | filecheck %s %}

// CHECK-LABEL: func.func @u() -> (i32, index, vector<4xf32>) {
// CHECK-NEXT:    %0 = llvm.mlir.poison : i32
// CHECK-NEXT:    %1 = llvm.mlir.poison : i64
// CHECK-NEXT:    %2 = builtin.unrealized_conversion_cast %1 : i64 to index
// CHECK-NEXT:    %3 = llvm.mlir.poison : vector<4xf32>
// CHECK-NEXT:    return %0, %2, %3 : i32, index, vector<4xf32>
// CHECK-NEXT:  }

func.func @u() -> (i32, index, vector<4xf32>) {
  %0 = ub.poison : i32
  %1 = ub.poison : index
  %2 = ub.poison : vector<4xf32>
  return %0, %1, %2 : i32, index, vector<4xf32>
}
