// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// A broadcast of a constant is a splat constant; of a broadcast, one broadcast; to
// its own type, its source.
// CHECK-LABEL: func.func @broadcast_folds
// CHECK-SAME: (%[[X:[^:]*]]: f32, %[[V:[^:]*]]: vector<4xf32>)
// CHECK-DAG: %[[S:.*]] = arith.constant dense<1.500000e+00> : vector<[4]xf32>
// CHECK-DAG: %[[I:.*]] = arith.constant dense<7> : vector<2x4xi32>
// CHECK-DAG: %[[D:.*]] = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
// CHECK-DAG: %[[B:.*]] = vector.broadcast %[[D]] : vector<4xi32> to vector<2x4xi32>
// CHECK-DAG: %[[BB:.*]] = vector.broadcast %[[X]] : f32 to vector<3x2x4xf32>
// CHECK: return %[[S]], %[[I]], %[[B]], %[[BB]], %[[V]]
func.func @broadcast_folds(%x: f32, %v: vector<4xf32>)
    -> (vector<[4]xf32>, vector<2x4xi32>, vector<2x4xi32>, vector<3x2x4xf32>, vector<4xf32>) {
  %c = arith.constant 1.5 : f32
  %0 = vector.broadcast %c : f32 to vector<[4]xf32>
  %s = arith.constant dense<7> : vector<4xi32>
  %1 = vector.broadcast %s : vector<4xi32> to vector<2x4xi32>
  %d = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
  %2 = vector.broadcast %d : vector<4xi32> to vector<2x4xi32>
  %3 = vector.broadcast %x : f32 to vector<4xf32>
  %4 = vector.broadcast %3 : vector<4xf32> to vector<2x4xf32>
  %5 = vector.broadcast %4 : vector<2x4xf32> to vector<3x2x4xf32>
  %6 = vector.broadcast %v : vector<4xf32> to vector<4xf32>
  return %0, %1, %2, %5, %6
      : vector<[4]xf32>, vector<2x4xi32>, vector<2x4xi32>, vector<3x2x4xf32>, vector<4xf32>
}
