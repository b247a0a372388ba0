// vector.extract, vector.insert, their strided-slice forms and vector.shape_cast
// round-trip in MLIR's custom and generic forms; the CHECK lines, from mlir-opt-22's
// output, hold for it too. A bad position or shape is a verifier error.
// RUN: mlc-opt %s --split-input-file | filecheck %s
// RUN: mlc-opt %s --split-input-file --print-op-generic | mlc-opt --split-input-file | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file | filecheck %s %}
// RUN: %if mlir-opt %{ mlc-opt %s --split-input-file --print-op-generic | %mlir_opt --split-input-file | filecheck %s %}

// CHECK-LABEL: func.func @parts(
// CHECK-SAME:      %[[A:.*]]: vector<4x2xi32>, %[[B:.*]]: vector<2xi32>, %[[C:.*]]: i32)
// CHECK:         %[[S:.*]] = vector.extract_strided_slice %[[A]] {offsets = [1, 1], sizes = [3, 1], strides = [1, 1]} : vector<4x2xi32> to vector<3x1xi32>
// CHECK:         vector.extract %[[B]][1] : i32 from vector<2xi32>
// CHECK:         vector.extract %[[A]][3] : vector<2xi32> from vector<4x2xi32>
// CHECK:         vector.extract %[[A]][3, 0] : i32 from vector<4x2xi32>
// CHECK:         vector.insert %[[C]], %[[B]] [0] : i32 into vector<2xi32>
// CHECK:         vector.insert_strided_slice %[[S]], %[[A]] {offsets = [0, 0], strides = [1, 1]} : vector<3x1xi32> into vector<4x2xi32>
// CHECK:         vector.shape_cast %[[S]] : vector<3x1xi32> to vector<3xi32>
func.func @parts(%a: vector<4x2xi32>, %b: vector<2xi32>, %c: i32) {
  %0 = vector.extract_strided_slice %a {offsets = [1, 1], sizes = [3, 1], strides = [1, 1]} : vector<4x2xi32> to vector<3x1xi32>
  %1 = vector.extract %b[1] : i32 from vector<2xi32>
  %2 = vector.extract %a[3] : vector<2xi32> from vector<4x2xi32>
  %3 = vector.extract %a[3, 0] : i32 from vector<4x2xi32>
  %4 = vector.insert %c, %b [0] : i32 into vector<2xi32>
  %5 = vector.insert_strided_slice %0, %a {offsets = [0, 0], strides = [1, 1]} : vector<3x1xi32> into vector<4x2xi32>
  %6 = vector.shape_cast %0 : vector<3x1xi32> to vector<3xi32>
  return
}
