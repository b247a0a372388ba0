// Dense constants of integers wider than 64 bits are read, folded and printed (their
// elements are kept as Python ints). The CHECK lines, written from mlir-opt-22's
// output, hold for it too.
// RUN: mlc-opt %s --canonicalize | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// CHECK-LABEL: func.func @f()
// CHECK-DAG:     %[[SUM:.*]] = arith.constant dense<[8, 4]> : vector<2xi128>
// CHECK-DAG:     %[[MAX:.*]] = arith.constant dense<[1, 170141183460469231731687303715884105727]> : tensor<2xi128>
// CHECK-DAG:     %[[F:.*]] = arith.constant false
// CHECK:         return %[[SUM]], %[[F]], %[[MAX]] : vector<2xi128>, i1, tensor<2xi128>
func.func @f() -> (vector<2xi128>, i1, tensor<2xi128>) {
  %0 = arith.constant dense<[1, -3]> : vector<2xi128>
  %1 = arith.constant dense<7> : vector<2xi128>
  %2 = arith.addi %0, %1 : vector<2xi128>
  %3 = arith.constant dense<0> : vector<2xi128>
  %4 = arith.cmpi eq, %2, %3 : vector<2xi128>
  %5 = vector.extract %4[0] : i1 from vector<2xi1>
  %6 = arith.constant dense<[1, 170141183460469231731687303715884105727]> : tensor<2xi128>
  return %2, %5, %6 : vector<2xi128>, i1, tensor<2xi128>
}
