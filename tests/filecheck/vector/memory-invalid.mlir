// The verifiers of the vector memory and reduction ops, in mlir-opt-22's words.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @load_indices(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op requires 2 indices}}
  %0 = vector.load %m[%i] : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @load_element(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op base and result element types should match}}
  %0 = vector.load %m[%i, %i] : memref<4x4xf32>, vector<4xi32>
  return
}

// -----

func.func @reduction_rank(%v: vector<4x4xf32>) {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction rank: 2}}
  %0 = vector.reduction <add>, %v : vector<4x4xf32> into f32
  return
}

// -----

func.func @reduction_kind(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction type ''f32'' for kind 'and'}}
  %0 = vector.reduction <and>, %v : vector<4xf32> into f32
  return
}

// -----

func.func @reduction_type(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.reduction' op failed to verify that source operand and result have same element type}}
  %0 = vector.reduction <add>, %v : vector<4xf32> into f64
  return
}

// -----

func.func @transfer_indices(%m: memref<4x4xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires 2 indices}}
  %0 = vector.transfer_read %m[%i], %p : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_in_bounds(%m: memref<4x4xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %0 = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, true]} : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_projected(%m: memref<4x4xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %0 = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_map_dims(%m: memref<4x4xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with input dims of the same rank as the source type}}
  %0 = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0) -> (d0)>} : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_map_results(%m: memref<4x4xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with result dims of the same rank as the vector type}}
  %0 = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_repeated_dim(%m: memref<4x4x4xf32>, %i: index, %p: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map that is a permutation (found one dim used more than once)}}
  %0 = vector.transfer_read %m[%i, %i, %i], %p {permutation_map = affine_map<(d0, d1, d2) -> (d0, d0)>} : memref<4x4x4xf32>, vector<3x7xf32>
  return
}

// -----

func.func @transfer_write_broadcast(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op should not have broadcast dimensions}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>} : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transfer_needs_map(%m: memref<4xf32>, %i: index, %p: f32) -> vector<3x4xf32> {
  // expected-error@+1 {{expected a custom permutation_map when rank(source) != rank(destination)}}
  %0 = vector.transfer_read %m[%i], %p : memref<4xf32>, vector<3x4xf32>
  return %0 : vector<3x4xf32>
}

// -----

func.func @fma_of_ints(%v: vector<4xi32>) {
  // expected-error@+1 {{'vector.fma' op operand #0 must be vector of floating-point values}}
  %0 = vector.fma %v, %v, %v : vector<4xi32>
  return
}

// -----

func.func @store_unit_stride(%m: memref<4x4xf32, strided<[8, 2]>>, %i: index, %v: vector<2xf32>) {
  // expected-error@+1 {{'vector.store' op most minor memref dim must have unit stride}}
  vector.store %v, %m[%i, %i] : memref<4x4xf32, strided<[8, 2]>>, vector<2xf32>
  return
}

// -----

func.func @load_rank(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op destination memref has lower rank than the result vector}}
  %0 = vector.load %m[%i] : memref<4xf32>, vector<2x2xf32>
  return
}
