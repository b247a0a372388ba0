// The memref verifiers, in mlir-opt-22's words.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @load_indices(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op incorrect number of indices for load, expected 2 but got 1}}
  %0 = memref.load %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @store_indices(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{'memref.store' op store index operand count not equal to memref rank}}
  memref.store %v, %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @alloc_sizes(%i: index) {
  // expected-error@+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = memref.alloc(%i) : memref<4x4xf32>
  return
}

// -----

func.func @cast_shape(%m: memref<4x4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4x4xf32>' and result type 'memref<4x5xf32>' are cast incompatible}}
  %0 = memref.cast %m : memref<4x4xf32> to memref<4x5xf32>
  return
}

// -----

func.func @cast_element(%m: memref<4x4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4x4xf32>' and result type 'memref<4x4xi32>' are cast incompatible}}
  %0 = memref.cast %m : memref<4x4xf32> to memref<4x4xi32>
  return
}

// -----

func.func @cast_layout(%m: memref<4x4xf32, strided<[4, 1], offset: 2>>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4x4xf32, strided<[4, 1], offset: 2>>' and result type 'memref<4x4xf32, strided<[4, 1], offset: 3>>' are cast incompatible}}
  %0 = memref.cast %m : memref<4x4xf32, strided<[4, 1], offset: 2>> to memref<4x4xf32, strided<[4, 1], offset: 3>>
  return
}

// -----

func.func @copy_shape(%a: memref<4x4xf32>, %b: memref<4x3xf32>) {
  // expected-error@+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4x4xf32> to memref<4x3xf32>
  return
}

// -----

// expected-error@+1 {{'memref.global' op type should be static shaped memref, but got 'memref<?xf32>'}}
"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()

// -----

// expected-error@+1 {{'memref.global' op initial value shape expected to be 2, 3 but was 3, 3}}
"memref.global"() <{sym_name = "g", type = memref<2x3xf32>, initial_value = dense<1.0> : tensor<3x3xf32>}> : () -> ()

// -----

// expected-error@+1 {{'memref.global' op initial value element expected to be of type 'f32', but was of type 'i32'}}
"memref.global"() <{sym_name = "g", type = memref<2xf32>, initial_value = dense<1> : tensor<2xi32>}> : () -> ()

// -----

func.func @no_global() {
  // expected-error@+1 {{'memref.get_global' op 'nope' does not reference a valid global memref}}
  %0 = memref.get_global @nope : memref<2xf32>
  return
}

// -----

memref.global @g : memref<2xf32>
func.func @global_type() {
  // expected-error@+1 {{'memref.get_global' op result type 'memref<3xf32>' does not match type 'memref<2xf32>' of the global memref @g}}
  %0 = memref.get_global @g : memref<3xf32>
  return
}

// -----

func.func @subview_layout(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<2x2xf32, strided<[4, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x2xf32>'}}
  %0 = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32>
  return
}

// -----

func.func @subview_sizes(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<2x2xf32, strided<[4, 1]>>' or a rank-reduced version. (mismatch of result sizes), but got 'memref<2x3xf32, strided<[4, 1]>>'}}
  %0 = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x3xf32, strided<[4, 1]>>
  return
}

// -----

func.func @subview_ranks(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.}}
  %0 = memref.subview %m[0][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  return
}

// -----

func.func @subview_bounds(%m: memref<4x4xf32>) {
  // expected-error@+1 {{slice along dimension 0 runs out-of-bounds: 4 >= 4}}
  %0 = memref.subview %m[3, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 12>>
  return
}

// -----

func.func @subview_negative(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected offsets to be non-negative, but got -1}}
  %0 = memref.subview %m[-1, 0][1, 2][1, 1] : memref<4x4xf32> to memref<2xf32, strided<[1], offset: 3>>
  return
}

// -----

func.func @subview_rank_reduced_layout(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{expected result type to be 'memref<1x2xf32, strided<[4, 1], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2xf32, strided<[1], offset: 3>>'}}
  %0 = memref.subview %m[%i, 0][1, 2][1, 1] : memref<4x4xf32> to memref<2xf32, strided<[1], offset: 3>>
  return
}

// -----

func.func @view_of_wide_elements(%s: memref<64xi16>, %c0: index) {
  // expected-error@+1 {{'memref.view' op operand #0 must be 1D memref of 8-bit signless integer values, but got 'memref<64xi16>'}}
  %v = memref.view %s[%c0][] : memref<64xi16> to memref<4x2xf32>
  return
}

// -----

func.func @view_sizes(%s: memref<64xi8>, %c0: index, %n: index) {
  // expected-error@+1 {{'memref.view' op incorrect number of dynamic sizes, has 1, expected 0}}
  %v = memref.view %s[%c0][%n] : memref<64xi8> to memref<4x2xf32>
  return
}

// -----

func.func @view_layout(%s: memref<64xi8>, %c0: index) {
  // expected-error@+1 {{unsupported map for result memref type 'memref<4x2xf32, strided<[4, 1]>>'}}
  %v = memref.view %s[%c0][] : memref<64xi8> to memref<4x2xf32, strided<[4,1]>>
  return
}

// -----

func.func @atomic_rmw_float_kind_on_integers(%m: memref<3xi64>, %v: i64, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op with kind 'addf' expects a floating-point type}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (i64, memref<3xi64>) -> i64
  return
}

// -----

func.func @atomic_rmw_integer_kind_on_floats(%m: memref<3xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op with kind 'addi' expects an integer type}}
  %0 = memref.atomic_rmw addi %v, %m[%i] : (f32, memref<3xf32>) -> f32
  return
}

// -----

func.func @atomic_rmw_subscripts(%m: memref<3xi64>, %v: i64, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %0 = memref.atomic_rmw addi %v, %m[%i, %i] : (i64, memref<3xi64>) -> i64
  return
}

// -----

func.func @atomic_rmw_value_type(%m: memref<3xi64>, %v: i32, %i: index) {
  // expected-error@+1 {{'memref.atomic_rmw' op failed to verify that value type matches element type of memref}}
  %0 = memref.atomic_rmw addi %v, %m[%i] : (i32, memref<3xi64>) -> i32
  return
}
