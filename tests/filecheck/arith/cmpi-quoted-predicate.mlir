// An enum attribute of an op's custom form may be written as a string, as MLIR's enum
// parsers read a keyword or a string; it prints as the keyword.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics | filecheck %s %}

// CHECK-LABEL: func.func @quoted
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i8
// CHECK: arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
func.func @quoted(%a: i8, %b: i8, %x: f32, %y: f32) -> (i1, i1) {
  %c = arith.cmpi "eq", %a, %b : i8
  %d = arith.cmpf "ogt", %x, %y : f32
  return %c, %d : i1, i1
}

// -----

func.func @unknown_keyword(%a: i8, %b: i8) -> i1 {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %c = arith.cmpi equal, %a, %b : i8
  return %c : i1
}

// -----

func.func @unknown_string(%a: i8, %b: i8) -> i1 {
  // expected-error@+1 {{invalid predicate attribute specification: "equal"}}
  %c = arith.cmpi "equal", %a, %b : i8
  return %c : i1
}
