// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @integer_operand(%x: i32) {
  // expected-error@+1 {{must be floating-point-like, but got 'i32'}}
  %0 = "math.sin"(%x) : (i32) -> i32
  return
}

// -----

func.func @different_types(%x: f32, %y: f64) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = "math.powf"(%x, %y) : (f32, f64) -> f32
  return
}

// -----

func.func @float_integer_power(%x: f32) {
  // expected-error@+1 {{must be signless-integer-like, but got 'f32'}}
  %0 = "math.ipowi"(%x, %x) : (f32, f32) -> f32
  return
}
