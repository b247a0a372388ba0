// test.with_bounds and test.reflect_bounds, MLIR's test ops for the integer range
// analysis: custom and generic forms, read by both tools alike.
// RUN: mlc-opt %s | filecheck %s
// RUN: mlc-opt %s --print-op-generic | mlc-opt | filecheck %s
// RUN: %if mlir-opt %{ mlc-opt %s --print-op-generic | %mlir_opt | filecheck %s %}
// Errors: int-range-test-ops-invalid.mlir.

// CHECK-LABEL: func.func @forms
// CHECK-NEXT:    %[[B:.*]] = test.with_bounds {smax = 4 : i16, smin = -3 : i16, umax = -1 : i16, umin = 0 : i16} : i16
// CHECK-NEXT:    %[[V:.*]] = test.with_bounds {smax = 1 : index, smin = 0 : index, umax = 1 : index, umin = 0 : index} : vector<4xindex>
// CHECK-NEXT:    %[[R:.*]] = test.reflect_bounds %[[B]] : i16
// CHECK-NEXT:    %{{.*}} = test.reflect_bounds {smax = 4 : si16, smin = -3 : si16, umax = 65535 : ui16, umin = 0 : ui16} %[[R]] : i16
func.func @forms() -> (i16, vector<4xindex>, i16) {
  %b = test.with_bounds {umin = 0 : i16, umax = 65535 : i16, smin = -3 : i16, smax = 4 : i16} : i16
  %v = test.with_bounds {umin = 0 : index, umax = 1 : index, smin = 0 : index, smax = 1 : index} : vector<4xindex>
  %r = test.reflect_bounds %b : i16
  %s = test.reflect_bounds {umin = 0 : ui16, umax = 65535 : ui16, smin = -3 : si16, smax = 4 : si16} %r : i16
  return %b, %v, %s : i16, vector<4xindex>, i16
}
