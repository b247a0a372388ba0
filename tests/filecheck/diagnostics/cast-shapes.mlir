// Elementwise casts that change the shape: MLIR's two messages, in its order (the
// tensor-dimensions constraint where a tensor is involved, then the
// SameOperandsAndResultShape trait); checked against mlir-opt-22 too.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @vectors(%a: vector<4xf32>) {
  // expected-error@+1 {{'arith.extf' op requires the same shape for all operands and results}}
  %0 = arith.extf %a : vector<4xf32> to vector<2xf64>
  return
}

// -----

func.func @scalable(%a: vector<4xf32>) {
  // expected-error@+1 {{requires the same shape for all operands and results}}
  %0 = arith.extf %a : vector<4xf32> to vector<[4]xf64>
  return
}

// -----

func.func @scalar_to_tensor(%a: f32) {
  // expected-error@+1 {{requires the same shape for all operands and results}}
  %0 = arith.extf %a : f32 to tensor<f64>
  return
}

// -----

func.func @tensors(%a: tensor<4xf32>) {
  // expected-error@+1 {{failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extf %a : tensor<4xf32> to tensor<?xf64>
  return
}

// -----

func.func @tensor_to_vector(%a: tensor<4xf32>) {
  // expected-error@+1 {{failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extf %a : tensor<4xf32> to vector<4xf64>
  return
}

// -----

func.func @unranked(%a: tensor<*xf32>) {
  // expected-error@+1 {{failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extf %a : tensor<*xf32> to tensor<2xf64>
  return
}
