// Positions, slices and shapes that do not fit are verifier errors, as in MLIR (whose
// words are in the braces where mlc's match them); dynamic positions are not read.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @position_out_of_range(%v: vector<2xi32>) {
  // expected-error@+1 {{expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension}}
  %0 = vector.extract %v[2] : i32 from vector<2xi32>
  return
}

// -----

func.func @wrong_result(%v: vector<4x2xi32>) {
  // expected-error@+1 {{result type i32 does not match the inferred type vector<2xi32>}}
  %0 = "vector.extract"(%v) <{static_position = array<i64: 1>}> : (vector<4x2xi32>) -> i32
  return
}

// -----

func.func @slice_past_the_end(%v: vector<4x2xi32>) {
  // expected-error@+1 {{expected sum(offsets, sizes) dimension 0 to be confined to [1, 5)}}
  %0 = vector.extract_strided_slice %v {offsets = [2, 0], sizes = [3, 1], strides = [1, 1]} : vector<4x2xi32> to vector<3x1xi32>
  return
}

// -----

func.func @shape_cast_count(%v: vector<4x2xi32>) {
  // expected-error@+1 {{has different number of elements at source (8) and result (6)}}
  %0 = vector.shape_cast %v : vector<4x2xi32> to vector<6xi32>
  return
}
