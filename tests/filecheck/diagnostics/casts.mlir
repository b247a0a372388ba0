// Casts are checked by the Cast interface, from the (source, target) types each cast
// op declares. mlir-opt-22 reports the same errors, with the same words (mlc adds
// which casts the op allows).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %a : f32 to f64
  return
}

// -----

func.func @f(%a: i64) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = arith.extsi %a : i64 to i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

func.func @f(%a: i16) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i16' and result type 'i32' are cast incompatible}}
  %0 = arith.trunci %a : i16 to i32
  return
}

// -----

func.func @f(%a: index) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_cast %a : index to index
  return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error@+1 {{'arith.extf' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extf %a : tensor<4xf32> to tensor<5xf64>
  return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error@+1 {{'arith.extf' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.extf %a : tensor<4xf32> to vector<4xf64>
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.extf' op requires the same shape for all operands and results}}
  %0 = arith.extf %a : f32 to vector<4xf64>
  return
}

// -----

// Allowed: elementwise on vectors and tensors (dynamic dimensions too), i1 and bf16.
func.func @f(%a: vector<4xf16>, %b: tensor<2x?xi8>, %c: index, %d: i1) {
  %0 = arith.extf %a : vector<4xf16> to vector<4xf32>
  %1 = arith.extsi %b : tensor<2x?xi8> to tensor<2x?xi64>
  %2 = arith.index_cast %c : index to i1
  %3 = arith.uitofp %d : i1 to bf16
  %4 = arith.fptosi %3 : bf16 to i8
  %5 = arith.truncf %0 : vector<4xf32> to vector<4xf16>
  return
}
