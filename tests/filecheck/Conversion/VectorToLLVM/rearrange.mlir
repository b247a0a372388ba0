// convert-vector-to-llvm on the ops that rearrange 1-D vectors: shuffle, interleave and
// deinterleave become shufflevectors, from_elements insertelements, to_elements
// extractelements, bitcast llvm.bitcast; mlir-opt-22 gives the same.
// RUN: mlc-opt %s --convert-vector-to-llvm | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --convert-vector-to-llvm | filecheck %s %}

// CHECK-LABEL: func.func @rearrange(
// CHECK-SAME:      %[[A:[a-z0-9]*]]: vector<4xf32>, %[[B:[a-z0-9]*]]: vector<4xf32>, %[[S:[a-z0-9]*]]: f32)
// CHECK:         %[[SHUFFLE:.*]] = llvm.shufflevector %[[A]], %[[B]] [0, 5, -1] : vector<4xf32>
// CHECK:         %[[INTERLEAVED:.*]] = llvm.shufflevector %[[A]], %[[B]] [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>
// CHECK:         %[[P:.*]] = llvm.mlir.poison : vector<4xf32>
// CHECK:         %[[EVEN:.*]] = llvm.shufflevector %[[A]], %[[P]] [0, 2] : vector<4xf32>
// CHECK:         %[[ODD:.*]] = llvm.shufflevector %[[A]], %[[P]] [1, 3] : vector<4xf32>
// CHECK:         %[[P2:.*]] = llvm.mlir.poison : vector<2xf32>
// CHECK:         %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK:         %[[V0:.*]] = llvm.insertelement %[[S]], %[[P2]][%[[C0]] : i64] : vector<2xf32>
// CHECK:         %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[V1:.*]] = llvm.insertelement %[[S]], %[[V0]][%[[C1]] : i64] : vector<2xf32>
// CHECK:         %[[E:.*]] = llvm.extractelement %[[A]][%{{.*}} : i64] : vector<4xf32>
// CHECK:         %[[CAST:.*]] = llvm.bitcast %[[A]] : vector<4xf32> to vector<8xf16>
// CHECK:         return %[[SHUFFLE]], %[[INTERLEAVED]], %[[EVEN]], %[[ODD]], %[[V1]], %[[E]], %[[CAST]]
func.func @rearrange(%a: vector<4xf32>, %b: vector<4xf32>, %s: f32) -> (vector<3xf32>, vector<8xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, f32, vector<8xf16>) {
  %0 = vector.shuffle %a, %b [0, 5, -1] : vector<4xf32>, vector<4xf32>
  %1 = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
  %2, %3 = vector.deinterleave %a : vector<4xf32> -> vector<2xf32>
  %4 = vector.from_elements %s, %s : vector<2xf32>
  %5:4 = vector.to_elements %a : vector<4xf32>
  %6 = vector.bitcast %a : vector<4xf32> to vector<8xf16>
  return %0, %1, %2, %3, %4, %5#2, %6 : vector<3xf32>, vector<8xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>, f32, vector<8xf16>
}

// An extract or insert at an `index` value is an extract/insertelement at it.
// CHECK-LABEL: func.func @dynamic_position(
// CHECK-SAME:      %[[V:[a-z0-9]*]]: vector<4xf32>, %[[I:[a-z0-9]*]]: index, %[[S:[a-z0-9]*]]: f32)
// CHECK:         %[[N:.*]] = builtin.unrealized_conversion_cast %[[I]] : index to i64
// CHECK:         %[[E:.*]] = llvm.extractelement %[[V]][%[[N]] : i64] : vector<4xf32>
// CHECK:         %[[R:.*]] = llvm.insertelement %[[S]], %[[V]][%[[N]] : i64] : vector<4xf32>
// CHECK:         return %[[E]], %[[R]]
func.func @dynamic_position(%v: vector<4xf32>, %i: index, %s: f32) -> (f32, vector<4xf32>) {
  %0 = vector.extract %v[%i] : f32 from vector<4xf32>
  %1 = vector.insert %s, %v [%i] : f32 into vector<4xf32>
  return %0, %1 : f32, vector<4xf32>
}
