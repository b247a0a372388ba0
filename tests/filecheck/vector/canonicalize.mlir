// Folds and canonicalizations of the vector ops, as MLIR 22's: transpose of a
// transpose composes, shape_cast of a shape_cast is one cast (none when it undoes
// itself), extract of a broadcast is what was broadcast, create_mask of constants is
// a constant_mask (clamped), a full or empty constant_mask a splat constant.
// RUN: mlc-opt %s --split-input-file -canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file -canonicalize | filecheck %s %}

// CHECK-LABEL: func.func @folds(
// CHECK-SAME:      %[[V:[a-z0-9]*]]: vector<2x3x4xf32>, %[[S:[a-z0-9]*]]: vector<4xf32>, %[[X:[a-z0-9]*]]: f32)
// CHECK-NEXT:    %[[T:.*]] = vector.transpose %[[V]], [2, 0, 1] : vector<2x3x4xf32> to vector<4x2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = vector.shape_cast %[[V]] : vector<2x3x4xf32> to vector<24xf32>
// CHECK-NEXT:    return %[[T]], %[[C]], %[[S]], %[[X]], %[[V]]
func.func @folds(%v: vector<2x3x4xf32>, %s: vector<4xf32>, %x: f32) -> (vector<4x2x3xf32>, vector<24xf32>, vector<4xf32>, f32, vector<2x3x4xf32>) {
  %0 = vector.transpose %v, [1, 0, 2] : vector<2x3x4xf32> to vector<3x2x4xf32>
  %1 = vector.transpose %0, [2, 1, 0] : vector<3x2x4xf32> to vector<4x2x3xf32>
  %2 = vector.shape_cast %v : vector<2x3x4xf32> to vector<6x4xf32>
  %3 = vector.shape_cast %2 : vector<6x4xf32> to vector<24xf32>
  %4 = vector.broadcast %s : vector<4xf32> to vector<3x4xf32>
  %5 = vector.extract %4[1] : vector<4xf32> from vector<3x4xf32>
  %6 = vector.broadcast %x : f32 to vector<3x4xf32>
  %7 = vector.extract %6[1, 2] : f32 from vector<3x4xf32>
  %8 = vector.shape_cast %3 : vector<24xf32> to vector<2x3x4xf32>
  return %1, %3, %5, %7, %8 : vector<4x2x3xf32>, vector<24xf32>, vector<4xf32>, f32, vector<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @masks(
// CHECK-DAG:     vector.constant_mask [2, 3] : vector<4x3xi1>
// CHECK-DAG:     arith.constant dense<true> : vector<4xi1>
// CHECK-DAG:     arith.constant dense<false> : vector<2x2xi1>
func.func @masks() -> (vector<4x3xi1>, vector<4xi1>, vector<2x2xi1>) {
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %cm1 = arith.constant -1 : index
  %0 = vector.create_mask %c2, %c9 : vector<4x3xi1>
  %1 = vector.constant_mask [4] : vector<4xi1>
  %2 = vector.create_mask %cm1, %c2 : vector<2x2xi1>
  return %0, %1, %2 : vector<4x3xi1>, vector<4xi1>, vector<2x2xi1>
}
