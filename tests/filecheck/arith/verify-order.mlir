// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}
// What arith's verifier reports, in MLIR's order and words (each case checked against
// mlir-opt-22): the attributes, then the operand and result types, then the predicates
// of the declaration (all types match, the comparison's i1 result, the select's
// condition), then the other traits, then the op's own checks.

func.func @unsigned_constant() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 7 : ui16
  return
}

// -----

func.func @signed_constant_generic() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = "arith.constant"() <{value = -3 : si8}> : () -> si8
  return
}

// -----

func.func @constant_of_another_type() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 2.5 : f64}> : () -> f16
  return
}

// -----

func.func @constant_string_value() {
  // expected-error@+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = "arith.constant"() <{value = "seven" : i8}> : () -> i8
  return
}

// -----

func.func @constant_untyped_value() {
  // expected-error@+1 {{'arith.constant' op attribute 'value' failed to satisfy constraint: TypedAttr instance}}
  %0 = "arith.constant"() {value = [7]} : () -> i8
  return
}

// -----

func.func @scalable_constants() {
  %splat = arith.constant dense<3> : vector<[4]xi8>
  // expected-error@+1 {{'arith.constant' op intializing scalable vectors with elements attribute is not supported unless it's a vector splat}}
  %0 = arith.constant dense<[1, 2, 3, 4]> : vector<[4]xi8>
  return
}

// -----

func.func @attribute_before_result(%a : i8) {
  // The predicate is out of range and the result is no bool: the attribute is checked first.
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %a) {predicate = 10 : i64} : (i8, i8) -> i8
  return
}

// -----

func.func @cmpf_predicate(%a : f16) {
  // expected-error@+1 {{'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
  %0 = "arith.cmpf"(%a, %a) {predicate = 16 : i64} : (f16, f16) -> i1
  return
}

// -----

func.func @truncf_rounding_mode(%a : f64) {
  // expected-error@+1 {{'arith.truncf' op attribute 'roundingmode' failed to satisfy constraint: Floating point rounding mode}}
  %0 = "arith.truncf"(%a) {roundingmode = 5 : i32} : (f64) -> f32
  return
}

// -----

func.func @cmpi_result_shape(%a : vector<3xi32>) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (vector<3xi32>, vector<3xi32>) -> vector<4xi1>
  return
}

// -----

func.func @cmpf_result_encoding(%a : tensor<3xf32, "x">) {
  // expected-error@+1 {{'arith.cmpf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = 1 : i64}> : (tensor<3xf32, "x">, tensor<3xf32, "x">) -> tensor<3xi1>
  return
}

// -----

func.func @cmpf_operand_types(%a : f16, %b : f32) {
  // The result agrees with the first operand; the operands disagree.
  // expected-error@+1 {{'arith.cmpf' op requires all operands to have the same type}}
  %0 = "arith.cmpf"(%a, %b) <{predicate = 1 : i64}> : (f16, f32) -> i1
  return
}

// -----

func.func @select_condition_rank(%c : tensor<i1>, %a : tensor<4xf32>) {
  // expected-error@+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %a : tensor<i1>, tensor<4xf32>
  return
}

// -----

func.func @select_condition_encoding(%c : tensor<4xi1>, %a : tensor<4xf32, "e">) {
  // expected-error@+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'tensor<4xi1, "e">', but got 'tensor<4xi1>'}}
  %0 = arith.select %c, %a, %a : tensor<4xi1>, tensor<4xf32, "e">
  return
}

// -----

func.func @select_value_types(%c : i1, %a : f32, %b : f16) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %b) : (i1, f32, f16) -> f32
  return
}

// -----

func.func @index_cast_signed(%a : si16) {
  // expected-error@+1 {{'arith.index_cast' op operand #0 must be signless-integer-like or memref of signless-integer, but got 'si16'}}
  %0 = arith.index_cast %a : si16 to index
  return
}

// -----

func.func @index_castui_to_float(%a : index) {
  // expected-error@+1 {{'arith.index_castui' op result #0 must be signless-integer-like or memref of signless-integer, but got 'f16'}}
  %0 = arith.index_castui %a : index to f16
  return
}

// -----

func.func @bitcast_index_vector(%a : vector<2xindex>) {
  // expected-error@+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like or memref of signless-integer or float, but got 'vector<2xindex>'}}
  %0 = arith.bitcast %a : vector<2xindex> to vector<2xi64>
  return
}

// -----

func.func @extf_drops_encoding(%a : tensor<2xf16, "e">) {
  // expected-error@+1 {{'arith.extf' op operand type 'tensor<2xf16, "e">' and result type 'tensor<2xf32>' are cast incompatible}}
  %0 = arith.extf %a : tensor<2xf16, "e"> to tensor<2xf32>
  return
}
