// Invalid uses of the arith ops added for MLIR 22 conformance: both tools report each
// with the same words (mlc also names the casts an op allows, so the expected texts
// are the part both say).
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

func.func @f(%a: f32, %b: f32) {
  // expected-error@+1 {{must be signless-integer-like, but got 'f32'}}
  %0 = arith.shli %a, %b : f32
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{must be floating-point-like, but got 'i32'}}
  %0 = arith.maxnumf %a, %b : i32
  return
}

// -----

func.func @f(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.ceildivsi' op requires the same type for all operands and results}}
  %0 = "arith.ceildivsi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0:2 = "arith.mulsi_extended"(%a, %b) : (i32, i32) -> (i32, i64)
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = "arith.mului_extended"(%a, %b) : (i32, i32) -> (i32)
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{must be bool-like, but got 'i32'}}
  %0:2 = arith.addui_extended %a, %b : i32, i32
  return
}

// -----

// The carry of a vector sum is a vector (ElementwiseMappable).
func.func @f(%a: vector<4xi32>, %b: vector<4xi32>) {
  // expected-error@+1 {{'arith.addui_extended' op if an operand is non-scalar, then all results must be non-scalar}}
  %0:2 = arith.addui_extended %a, %b : vector<4xi32>, i1
  return
}

// -----

// `exact` is for the divisions and right shifts, `overflow` for shli: not both.
func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{expected ':'}}
  %0 = arith.shrui %a, %b exact overflow<nsw> : i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{expected ':'}}
  %0 = arith.truncf %a sideways : f32 to f16
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = arith.bitcast %a : i32 to f64
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'arith.bitcast' op requires the same shape for all operands and results}}
  %0 = arith.bitcast %a : f32 to vector<1xi32>
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error@+1 {{'arith.index_castui' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_castui %a : i32 to i64
  return
}

// -----

func.func @f(%a: index) {
  // expected-error@+1 {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return
}

// -----

// The scaling casts check the cast of their first operand; the scale only shares its
// shape.
func.func @f(%a: f32, %s: f8E8M0FNU) {
  // expected-error@+1 {{'arith.scaling_extf' op operand types 'f32', 'f8E8M0FNU' and result type 'f16' are cast incompatible}}
  %0 = arith.scaling_extf %a, %s : f32, f8E8M0FNU to f16
  return
}

// -----

func.func @f(%a: f32, %s: f8E8M0FNU) {
  // expected-error@+1 {{'arith.scaling_truncf' op operand types 'f32', 'f8E8M0FNU' and result type 'f64' are cast incompatible}}
  %0 = arith.scaling_truncf %a, %s : f32, f8E8M0FNU to f64
  return
}

// -----

func.func @f(%a: vector<4xf4E2M1FN>, %s: vector<2xf8E8M0FNU>) {
  // expected-error@+1 {{'arith.scaling_extf' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.scaling_extf %a, %s : vector<4xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<4xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf4E2M1FN>, %s: tensor<4xf8E8M0FNU>) {
  // expected-error@+1 {{'arith.scaling_extf' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.scaling_extf %a, %s : tensor<4xf4E2M1FN>, tensor<4xf8E8M0FNU> to tensor<2xf32>
  return
}

// -----

// A predicate that is no case of the enum (here, one of the other comparison's), or none
// at all: MLIR's words name the attribute and list its cases.
func.func @f(%a: f64) -> i1 {
  // expected-error@+1 {{custom op 'arith.cmpf' expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = arith.cmpf sgt, %a, %a : f64
  return %0 : i1
}

// -----

func.func @f(%a: i64) -> i1 {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi %a, %a : i64
  return %0 : i1
}

// -----

// A cast's declared operand and result types are checked before its cast rules.
func.func @f(%a: index) -> i64 {
  // expected-error@+1 {{'arith.extui' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.extui %a : index to i64
  return %0 : i64
}

// -----

func.func @f(%a: vector<3xf16>) -> vector<3xi16> {
  // expected-error@+1 {{'arith.truncf' op result #0 must be floating-point-like, but got 'vector<3xi16>'}}
  %0 = arith.truncf %a : vector<3xf16> to vector<3xi16>
  return %0 : vector<3xi16>
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() {value = 1 : i64} : () -> i32
  return
}
