// The broadcast rules, with mlir-opt-22's words.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @dimension_mismatch(%x: vector<4xf32>) {
  // expected-error@+1 {{'vector.broadcast' op dimension mismatch (4 vs. 3)}}
  %0 = vector.broadcast %x : vector<4xf32> to vector<3xf32>
  return
}

// -----

func.func @rank_too_high(%x: vector<2x4xf32>) {
  // expected-error@+1 {{'vector.broadcast' op source rank higher than destination rank}}
  %0 = vector.broadcast %x : vector<2x4xf32> to vector<4xf32>
  return
}

// -----

func.func @element_type(%x: f32) {
  // expected-error@+1 {{'vector.broadcast' op failed to verify that source operand and result have same element type}}
  %0 = vector.broadcast %x : f32 to vector<4xi32>
  return
}

// -----

func.func @scalable_to_fixed(%x: vector<[4]xf32>) {
  // expected-error@+1 {{'vector.broadcast' op dimension mismatch ([4] vs. 4)}}
  %0 = vector.broadcast %x : vector<[4]xf32> to vector<2x4xf32>
  return
}

// -----

func.func @not_a_vector(%x: tensor<4xf32>) {
  // expected-error@+1 {{'vector.broadcast' op source type is not a vector}}
  %0 = vector.broadcast %x : tensor<4xf32> to vector<2x4xf32>
  return
}
