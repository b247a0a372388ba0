// arith-int-range-narrowing: an integer op whose operands and results all fit one of
// the supported widths (tried in the order given) is computed in it, between casts:
// trunci/extsi/extui, or index_cast/index_castui to and from index. A value fitting
// only the signed reading is sign-extended back, else zero-extended. A cast chain
// through index back to a supported width folds away.
// RUN: mlc-opt %s --arith-int-range-narrowing=int-bitwidths-supported=1,8,16,24,32 --split-input-file | filecheck %s --check-prefixes=CHECK,MLC
//
// The CHECK lines hold for mlir-opt-22's pass too; MLC lines are where mlc differs on
// purpose (MLIR narrows comparisons and min/max in the wrong reading).
// RUN: %if mlir-opt %{ %mlir_opt %s --arith-int-range-narrowing=int-bitwidths-supported=1,8,16,24,32 --split-input-file | filecheck %s --check-prefixes=CHECK,MLIR %}

// i8 values zero-extended to i32: their sum needs 9 bits, so i16 it is (i8 is too
// narrow, 1 is tried first and fails too).
// CHECK-LABEL: func.func @sum_of_bytes
// CHECK-SAME:    (%[[A:.*]]: i8, %[[B:.*]]: i8)
// CHECK-NEXT:    %[[WA:.*]] = arith.extui %[[A]] : i8 to i32
// CHECK-NEXT:    %[[WB:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK-NEXT:    %[[NA:.*]] = arith.trunci %[[WA]] : i32 to i16
// CHECK-NEXT:    %[[NB:.*]] = arith.trunci %[[WB]] : i32 to i16
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[NA]], %[[NB]] : i16
// CHECK-NEXT:    %[[BACK:.*]] = arith.extui %[[SUM]] : i16 to i32
// CHECK-NEXT:    return %[[BACK]] : i32
func.func @sum_of_bytes(%a: i8, %b: i8) -> i32 {
  %wa = arith.extui %a : i8 to i32
  %wb = arith.extui %b : i8 to i32
  %sum = arith.addi %wa, %wb : i32
  return %sum : i32
}

// -----

// A difference may be negative: back through extsi.
// CHECK-LABEL: func.func @difference_of_bytes
// CHECK:         %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i16
// CHECK-NEXT:    %[[BACK:.*]] = arith.extsi %[[D]] : i16 to i32
// CHECK-NEXT:    return %[[BACK]] : i32
func.func @difference_of_bytes(%a: i8, %b: i8) -> i32 {
  %wa = arith.extui %a : i8 to i32
  %wb = arith.extui %b : i8 to i32
  %d = arith.subi %wa, %wb : i32
  return %d : i32
}

// -----

// The product of two 16-bit values needs 32 bits: nothing to narrow.
// CHECK-LABEL: func.func @wide_product
// CHECK:         %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    return %[[P]] : i32
func.func @wide_product(%a: i16, %b: i16) -> i32 {
  %wa = arith.extsi %a : i16 to i32
  %wb = arith.extsi %b : i16 to i32
  %p = arith.muli %wa, %wb : i32
  return %p : i32
}

// -----

// index values: index_castui for a value that is non-negative, index_cast for one
// that may be negative; the result, in [-1, 1], goes back signed.
// CHECK-LABEL: func.func @index_sum
// CHECK:         %[[P:.*]] = test.with_bounds {smax = 1 : index, smin = 0 : index, umax = 1 : index, umin = 0 : index} : index
// CHECK-NEXT:    %[[N:.*]] = test.with_bounds {smax = 0 : index, smin = -1 : index, umax = -1 : index, umin = 0 : index} : index
// CHECK-NEXT:    %[[P8:.*]] = arith.index_castui %[[P]] : index to i8
// CHECK-NEXT:    %[[N8:.*]] = arith.index_cast %[[N]] : index to i8
// CHECK-NEXT:    %[[S8:.*]] = arith.addi %[[P8]], %[[N8]] : i8
// CHECK-NEXT:    %[[S:.*]] = arith.index_cast %[[S8]] : i8 to index
// CHECK-NEXT:    return %[[S]] : index
func.func @index_sum() -> index {
  %p = test.with_bounds {umin = 0 : index, umax = 1 : index, smin = 0 : index, smax = 1 : index} : index
  %n = test.with_bounds {umin = 0 : index, umax = -1 : index, smin = -1 : index, smax = 0 : index} : index
  %s = arith.addi %p, %n : index
  return %s : index
}

// -----

// Vectors narrow elementwise; a comparison of small values too.
// CHECK-LABEL: func.func @vectors
// CHECK:         %[[A8:.*]] = arith.index_castui %{{.*}} : vector<4xindex> to vector<4xi8>
// CHECK-NEXT:    %[[B8:.*]] = arith.index_castui %{{.*}} : vector<4xindex> to vector<4xi8>
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[A8]], %[[B8]] : vector<4xi8>
// CHECK-NEXT:    return %[[LT]] : vector<4xi1>
func.func @vectors() -> vector<4xi1> {
  %a = test.with_bounds {umin = 0 : index, umax = 10 : index, smin = 0 : index, smax = 10 : index} : vector<4xindex>
  %b = test.with_bounds {umin = 3 : index, umax = 12 : index, smin = 3 : index, smax = 12 : index} : vector<4xindex>
  %lt = arith.cmpi slt, %a, %b : vector<4xindex>
  return %lt : vector<4xi1>
}

// -----

// index_cast(index_cast(x : i8 to index) : index to i8) is x.
// CHECK-LABEL: func.func @cast_chain
// CHECK-SAME:    (%[[X:.*]]: i8)
// CHECK-NEXT:    return %[[X]] : i8
func.func @cast_chain(%x: i8) -> i8 {
  %i = arith.index_cast %x : i8 to index
  %y = arith.index_cast %i : index to i8
  return %y : i8
}

// -----

// [100, 200] fits 8 bits unsigned only. Signed, 200 reads as -56 in i8: a signed
// comparison or minimum computed there would be wrong (100 < 200, yet 100 > -56),
// which MLIR does; mlc narrows only in the reading the op uses.
// CHECK-LABEL: func.func @unsigned_only
// MLC:           %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i16
// MLC:           %[[MIN:.*]] = arith.minsi %{{.*}}, %{{.*}} : i16
// MLC:           %[[ULT:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// MLC:           %[[UMIN:.*]] = arith.minui %{{.*}}, %{{.*}} : i8
// MLIR:          arith.cmpi slt, %{{.*}}, %{{.*}} : i8
// MLIR:          arith.minsi %{{.*}}, %{{.*}} : i8
func.func @unsigned_only() -> (i1, i16, i1, i16) {
  %a = test.with_bounds {umin = 100 : i16, umax = 200 : i16, smin = 100 : i16, smax = 200 : i16} : i16
  %b = test.with_bounds {umin = 100 : i16, umax = 200 : i16, smin = 100 : i16, smax = 200 : i16} : i16
  %lt = arith.cmpi slt, %a, %b : i16
  %min = arith.minsi %a, %b : i16
  %ult = arith.cmpi ult, %a, %b : i16
  %umin = arith.minui %a, %b : i16
  return %lt, %min, %ult, %umin : i1, i16, i1, i16
}
