// arith folds and patterns on chains of casts, xori of xori, select of booleans and
// comparisons of constants (MLIR's TruncIOp/ExtSIOp/ExtUIOp/XOrIOp/SelectOp/CmpIOp/
// CmpFOp folders and the TruncIExtSIToExtSI, TruncIExtUIToExtUI, ExtSIOfExtUI and
// SelectI1ToNot patterns).
// RUN: mlc-opt %s --canonicalize | filecheck %s
// A second run changes nothing:
// RUN: mlc-opt %s --canonicalize | mlc-opt --canonicalize | filecheck %s
//
// Interop: mlc leaves the same ops, of each name, as mlir-opt's canonicalizer.
// RUN: %if mlir-opt %{ mlc-opt %s --canonicalize | %mlir_opt | grep -oE '(arith|func)\.[a-z_]+|return' | sort | uniq -c > %t.mlc-ops %}
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | grep -oE '(arith|func)\.[a-z_]+|return' | sort | uniq -c > %t.mlir-ops %}
// RUN: %if mlir-opt %{ diff %t.mlc-ops %t.mlir-ops %}

// trunci(ext(x)) is x at x's width, trunci(x) below it (in place), and one
// extension above it (the patterns).
// CHECK-LABEL: func.func @trunci_of_ext(%x: i8, %y: i32)
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %y : i32 to i8
// CHECK-NEXT:    %[[S:.*]] = arith.extsi %x : i8 to i16
// CHECK-NEXT:    %[[U:.*]] = arith.extui %x : i8 to i16
// CHECK-NEXT:    return %x, %x, %[[T]], %[[S]], %[[U]] : i8, i8, i8, i16, i16
func.func @trunci_of_ext(%x: i8, %y: i32) -> (i8, i8, i8, i16, i16) {
  %0 = arith.extsi %x : i8 to i32
  %1 = arith.trunci %0 : i32 to i8
  %2 = arith.extui %x : i8 to i32
  %3 = arith.trunci %2 : i32 to i8
  %4 = arith.extsi %y : i32 to i64
  %5 = arith.trunci %4 : i64 to i8
  %6 = arith.trunci %0 : i32 to i16
  %7 = arith.trunci %2 : i32 to i16
  return %1, %3, %5, %6, %7 : i8, i8, i8, i16, i16
}

// Two like casts are one; extsi of extui is the extui (its sign bit is 0).
// CHECK-LABEL: func.func @cast_chains(%x: i8, %y: i64)
// CHECK-NEXT:    %[[S:.*]] = arith.extsi %x : i8 to i64
// CHECK-NEXT:    %[[U:.*]] = arith.extui %x : i8 to i64
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %y : i64 to i8
// CHECK-NEXT:    %[[U2:.*]] = arith.extui %x : i8 to i64
// CHECK-NEXT:    return %[[S]], %[[U]], %[[T]], %[[U2]] : i64, i64, i8, i64
func.func @cast_chains(%x: i8, %y: i64) -> (i64, i64, i8, i64) {
  %0 = arith.extsi %x : i8 to i16
  %1 = arith.extsi %0 : i16 to i64
  %2 = arith.extui %x : i8 to i16
  %3 = arith.extui %2 : i16 to i64
  %4 = arith.trunci %y : i64 to i32
  %5 = arith.trunci %4 : i32 to i8
  %6 = arith.extsi %2 : i16 to i64
  return %1, %3, %5, %6 : i64, i64, i8, i64
}

// x ^ a ^ a is x, whichever side `a` is on, and with equal constants.
// CHECK-LABEL: func.func @xori_of_xori(%x: i32, %a: i32)
// CHECK-NEXT:    return %x, %x, %x, %x, %x : i32, i32, i32, i32, i32
func.func @xori_of_xori(%x: i32, %a: i32) -> (i32, i32, i32, i32, i32) {
  %0 = arith.xori %x, %a : i32
  %1 = arith.xori %0, %a : i32
  %2 = arith.xori %a, %x : i32
  %3 = arith.xori %2, %a : i32
  %4 = arith.xori %a, %0 : i32
  %5 = arith.xori %a, %2 : i32
  %c1 = arith.constant 5 : i32
  %c2 = arith.constant 5 : i32
  %6 = arith.xori %x, %c1 : i32
  %7 = arith.xori %6, %c2 : i32
  return %1, %3, %4, %5, %7 : i32, i32, i32, i32, i32
}

// select(c, true, false) is c; select(c, false, true) is not c. On vectors of i1
// neither applies (as in MLIR).
// CHECK-LABEL: func.func @select_of_booleans(%c: i1, %v: vector<2xi1>)
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[VT:.*]] = arith.constant dense<true> : vector<2xi1>
// CHECK-DAG:     %[[VF:.*]] = arith.constant dense<false> : vector<2xi1>
// CHECK:         %[[NOT:.*]] = arith.xori %c, %[[TRUE]] : i1
// CHECK-NEXT:    %[[V:.*]] = arith.select %v, %[[VT]], %[[VF]] : vector<2xi1>, vector<2xi1>
// CHECK-NEXT:    return %c, %[[NOT]], %[[V]] : i1, i1, vector<2xi1>
func.func @select_of_booleans(%c: i1, %v: vector<2xi1>) -> (i1, i1, vector<2xi1>) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = arith.select %c, %t, %f : i1
  %1 = arith.select %c, %f, %t : i1
  %vt = arith.constant dense<true> : vector<2xi1>
  %vf = arith.constant dense<false> : vector<2xi1>
  %2 = arith.select %v, %vt, %vf : vector<2xi1>, vector<2xi1>
  return %0, %1, %2 : i1, i1, vector<2xi1>
}

// cmpi on non-splat dense constants folds element by element (signed and unsigned
// readings of i8, a splat side broadcast); cmpf against a NaN constant is decided by
// the predicate alone.
// CHECK-LABEL: func.func @comparisons(%x: f32)
// CHECK-DAG:     %[[SLT:.*]] = arith.constant dense<[true, true, false, true]> : vector<4xi1>
// CHECK-DAG:     %[[ULT:.*]] = arith.constant dense<[true, false, false, false]> : vector<4xi1>
// CHECK-DAG:     %[[SGE:.*]] = arith.constant dense<{{\[}}[false, true], [true, true]]> : tensor<2x2xi1>
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-NOT:     arith.cmp
// CHECK:         return %[[SLT]], %[[ULT]], %[[SGE]], %[[FALSE]], %[[TRUE]] :
func.func @comparisons(%x: f32) -> (vector<4xi1>, vector<4xi1>, tensor<2x2xi1>, i1, i1) {
  %a = arith.constant dense<[1, -2, 3, -128]> : vector<4xi8>
  %b = arith.constant dense<[3, 2, 3, 127]> : vector<4xi8>
  %0 = arith.cmpi slt, %a, %b : vector<4xi8>
  %1 = arith.cmpi ult, %a, %b : vector<4xi8>
  %c = arith.constant dense<[[1, 5], [7, 9]]> : tensor<2x2xi32>
  %s = arith.constant dense<5> : tensor<2x2xi32>
  %2 = arith.cmpi sge, %c, %s : tensor<2x2xi32>
  %nan = arith.constant 0x7FC00000 : f32
  %3 = arith.cmpf olt, %x, %nan : f32
  %4 = arith.cmpf une, %nan, %x : f32
  return %0, %1, %2, %3, %4 : vector<4xi1>, vector<4xi1>, tensor<2x2xi1>, i1, i1
}
