// The verifiers of the added vector ops, in MLIR 22's words (each case checked with
// mlir-opt-22 too).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @transpose_dup(%v: vector<3x7xf32>) {
  // expected-error@+1 {{'vector.transpose' op duplicate position index: 0}}
  %0 = vector.transpose %v, [0, 0] : vector<3x7xf32> to vector<3x3xf32>
  return
}

// -----

func.func @shuffle_range(%a: vector<2xf32>, %b: vector<2xf32>) {
  // expected-error@+1 {{'vector.shuffle' op mask index #2 out of range}}
  %0 = vector.shuffle %a, %b [0, 4] : vector<2xf32>, vector<2xf32>
  return
}

// -----

func.func @constant_mask_zero() {
  // expected-error@+1 {{'vector.constant_mask' op expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim}}
  %0 = vector.constant_mask [0, 2] : vector<4x3xi1>
  return
}

// -----

func.func @mask_type(%m: vector<4xi1>, %a: vector<8xi32>) -> i32 {
  // expected-error@+1 {{'vector.mask' op expects a 'vector<8xi1>' mask for the maskable operation}}
  %0 = vector.mask %m { vector.reduction <add>, %a : vector<8xi32> into i32 } : vector<4xi1> -> i32
  return %0 : i32
}

// -----

func.func @insert_rank(%a: f32, %b: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.insert' op expected position attribute rank to match the dest vector rank}}
  %0 = vector.insert %a, %b[3] : f32 into vector<4x8xf32>
  return
}
