// RUN: mlc-opt %s | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s | filecheck %s %}
// The test dialect allows unknown ops, as MLIR's does (its tests use ops it does not
// define): one is read and printed as an unregistered op, without a flag.

// CHECK-LABEL: func.func @f
// CHECK: "test.not_declared"(%{{.*}}) {note = 1 : i64} : (f16) -> i8
func.func @f(%a : f16) -> i8 {
  %0 = "test.not_declared"(%a) {note = 1} : (f16) -> i8
  return %0 : i8
}
