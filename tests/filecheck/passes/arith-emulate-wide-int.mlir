// arith-emulate-wide-int: with widest-int-supported=16, i32 values become
// vector<2xi16> pairs (low, high) and vector<2xi32> ones vector<2x2xi16>; the ops on
// them work on the halves, through functions and calls. Narrower integers, index and
// floats stay. The CHECK lines, written from mlir-opt-22's output, hold for it too.
// RUN: mlc-opt %s --arith-emulate-wide-int="widest-int-supported=16" | filecheck %s
// RUN: %if mlir-opt %{ %mlir_opt %s --arith-emulate-wide-int="widest-int-supported=16" | filecheck %s %}

// CHECK-LABEL: func.func @narrow_stays(
// CHECK-SAME:      %[[A:.*]]: i16, %{{.*}}: index) -> i16
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[A]], %[[A]] : i16
// CHECK-NEXT:    return %[[S]] : i16
func.func @narrow_stays(%a: i16, %i: index) -> i16 {
  %0 = arith.addi %a, %a : i16
  return %0 : i16
}

// The wide constant is split; the comparison takes the high halves' signed order
// unless they are equal, then the low halves' unsigned order.
// CHECK-LABEL: func.func @less_than_constant(
// CHECK-SAME:      %[[A:.*]]: vector<2xi16>) -> i1
// CHECK:         %[[K:.*]] = arith.constant dense<[-1, 1]> : vector<2xi16>
// CHECK:         %[[AL:.*]] = vector.extract %[[A]][0] : i16 from vector<2xi16>
// CHECK:         %[[AH:.*]] = vector.extract %[[A]][1] : i16 from vector<2xi16>
// CHECK:         %[[KL:.*]] = vector.extract %[[K]][0] : i16 from vector<2xi16>
// CHECK:         %[[KH:.*]] = vector.extract %[[K]][1] : i16 from vector<2xi16>
// CHECK:         %[[LOW:.*]] = arith.cmpi ult, %[[AL]], %[[KL]] : i16
// CHECK:         %[[HIGH:.*]] = arith.cmpi slt, %[[AH]], %[[KH]] : i16
// CHECK:         %[[EQ:.*]] = arith.cmpi eq, %[[AH]], %[[KH]] : i16
// CHECK:         %[[R:.*]] = arith.select %[[EQ]], %[[LOW]], %[[HIGH]] : i1
// CHECK:         return %[[R]] : i1
func.func @less_than_constant(%a: i32) -> i1 {
  %k = arith.constant 131071 : i32
  %0 = arith.cmpi slt, %a, %k : i32
  return %0 : i1
}

// A call and its callee's signature both change; a vector<2xi32> is a 2x2 of halves.
// CHECK-LABEL: func.func @callee(
// CHECK-SAME:      %{{.*}}: vector<2x2xi16>) -> vector<2x2xi16>
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[V:.*]]: vector<2x2xi16>) -> vector<2x2xi16>
// CHECK:         %[[R:.*]] = call @callee(%[[V]]) : (vector<2x2xi16>) -> vector<2x2xi16>
// CHECK:         return %[[R]] : vector<2x2xi16>
func.func @callee(%v: vector<2xi32>) -> vector<2xi32> {
  return %v : vector<2xi32>
}
func.func @caller(%v: vector<2xi32>) -> vector<2xi32> {
  %0 = func.call @callee(%v) : (vector<2xi32>) -> vector<2xi32>
  return %0 : vector<2xi32>
}

// Truncation keeps the low half; extension from i8 sign-extends into it and fills
// the high half with its sign.
// CHECK-LABEL: func.func @trunc_then_ext(
// CHECK-SAME:      %[[A:.*]]: vector<2xi16>) -> vector<2xi16>
// CHECK:         %[[LOW:.*]] = vector.extract %[[A]][0] : i16 from vector<2xi16>
// CHECK:         %[[T:.*]] = arith.trunci %[[LOW]] : i16 to i8
// CHECK:         %[[E:.*]] = arith.extsi %[[T]] : i8 to i16
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[E]], %{{.*}} : i16
// CHECK:         %[[SIGN:.*]] = arith.extsi %[[NEG]] : i1 to i16
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : vector<2xi16>
// CHECK:         %[[P0:.*]] = vector.insert %[[E]], %[[Z]] [0] : i16 into vector<2xi16>
// CHECK:         %[[P1:.*]] = vector.insert %[[SIGN]], %[[P0]] [1] : i16 into vector<2xi16>
// CHECK:         return %[[P1]] : vector<2xi16>
func.func @trunc_then_ext(%a: i32) -> i32 {
  %0 = arith.trunci %a : i32 to i8
  %1 = arith.extsi %0 : i8 to i32
  return %1 : i32
}
