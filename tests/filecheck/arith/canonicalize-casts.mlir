// Folds and patterns of the casts: index_castui, bitcast, and truncf/extf with their
// rounding modes and fastmath flags, and the patterns that rewrite chains of casts.
// The CHECK lines, written from mlir-opt-22's output, hold for it too; MLC lines are
// where mlc differs on purpose.
// RUN: mlc-opt %s --canonicalize | filecheck %s --check-prefixes=CHECK,MLC
// RUN: mlc-opt %s --canonicalize | mlc-opt --canonicalize | filecheck %s --check-prefixes=CHECK,MLC
// RUN: %if mlir-opt %{ %mlir_opt %s --canonicalize | filecheck %s %}

// index_castui of constants: zero-extended (as index, 64 bits) or truncated.
// CHECK-LABEL: func.func @index_castui(
// CHECK-DAG: %[[C4294967295_INDEX:.*]] = arith.constant 4294967295 : index
// CHECK-DAG: %[[C255_INDEX:.*]] = arith.constant 255 : index
// CHECK-DAG: %[[C44_I8:.*]] = arith.constant 44 : i8
// CHECK-DAG: %[[CM1_I64:.*]] = arith.constant -1 : i64
// CHECK: return %[[C4294967295_INDEX]], %[[C255_INDEX]], %[[C44_I8]], %[[CM1_I64]] : index, index, i8, i64
func.func @index_castui() -> (index, index, i8, i64) {
  %c-1_i32 = arith.constant -1 : i32
  %c-1_i8 = arith.constant -1 : i8
  %c300 = arith.constant 300 : index
  %c-1 = arith.constant -1 : index
  %0 = arith.index_castui %c-1_i32 : i32 to index
  %1 = arith.index_castui %c-1_i8 : i8 to index
  %2 = arith.index_castui %c300 : index to i8
  %3 = arith.index_castui %c-1 : index to i64
  return %0, %1, %2, %3 : index, index, i8, i64
}

// Widening to index and back is the original (IndexCastUIOfIndexCastUI), a zero
// extension first is dropped (IndexCastUIOfExtUI); i64 to index to i32 truncates.
// CHECK-LABEL: func.func @index_castui_chains(
// CHECK: %[[FROM_I8:.*]] = arith.index_castui %arg1 : i8 to index
// CHECK: %[[FROM_I64:.*]] = arith.index_castui %arg2 : i64 to index
// CHECK: %[[TO_I32:.*]] = arith.index_castui %[[FROM_I64]] : index to i32
// CHECK: return %arg0, %[[FROM_I8]], %[[TO_I32]] : i32, index, i32
func.func @index_castui_chains(%arg0: i32, %arg1: i8, %arg2: i64) -> (i32, index, i32) {
  %0 = arith.index_castui %arg0 : i32 to index
  %1 = arith.index_castui %0 : index to i32
  %2 = arith.extui %arg1 : i8 to i32
  %3 = arith.index_castui %2 : i32 to index
  %4 = arith.index_castui %arg2 : i64 to index
  %5 = arith.index_castui %4 : index to i32
  return %1, %3, %5 : i32, index, i32
}

// Through a narrower type the round trip truncates, so it stays. (mlir-opt-22 folds
// it to %arg0, as it does index_cast's: llvm/llvm-project#90296, fixed upstream.)
// MLC-LABEL: func.func @index_castui_narrowing_round_trip(
// MLC: %[[NARROW:.*]] = arith.index_castui %arg0 : index to i32
// MLC: %[[BACK:.*]] = arith.index_castui %[[NARROW]] : i32 to index
// MLC: return %[[BACK]] : index
func.func @index_castui_narrowing_round_trip(%arg0: index) -> index {
  %0 = arith.index_castui %arg0 : index to i32
  %1 = arith.index_castui %0 : i32 to index
  return %1 : index
}

// Bit casts of constants keep the bit pattern (a NaN's payload too, dense operands
// elementwise); two casts are one (BitcastOfBitcast), and a cast to the operand's own
// type is the operand.
// CHECK-LABEL: func.func @bitcasts(
// CHECK-DAG: %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[CM1071644672_I32:.*]] = arith.constant -1071644672 : i32
// CHECK-DAG: %[[CM4194303_I32:.*]] = arith.constant -4194303 : i32
// CHECK-DAG: %[[CST2:.*]] = arith.constant dense<[15360, -32768]> : vector<2xi16>
// CHECK: %[[BITCAST:.*]] = arith.bitcast %arg1 : f16 to bf16
// CHECK: return %[[CST]], %[[CM1071644672_I32]], %[[CM4194303_I32]], %[[CST2]], %[[BITCAST]], %arg0, %arg1 : f32, i32, i32, vector<2xi16>, bf16, i32, f16
func.func @bitcasts(%arg0: i32, %arg1: f16) -> (f32, i32, i32, vector<2xi16>, bf16, i32, f16) {
  %c1065353216_i32 = arith.constant 1065353216 : i32
  %cst = arith.constant -2.500000e+00 : f32
  %cst_0 = arith.constant 0xFFC00001 : f32
  %cst_1 = arith.constant dense<[1.000000e+00, -0.000000e+00]> : vector<2xf16>
  %0 = arith.bitcast %c1065353216_i32 : i32 to f32
  %1 = arith.bitcast %cst : f32 to i32
  %2 = arith.bitcast %cst_0 : f32 to i32
  %3 = arith.bitcast %cst_1 : vector<2xf16> to vector<2xi16>
  %4 = arith.bitcast %arg1 : f16 to i16
  %5 = arith.bitcast %4 : i16 to bf16
  %6 = arith.bitcast %arg0 : i32 to f32
  %7 = arith.bitcast %6 : f32 to i32
  %8 = arith.bitcast %4 : i16 to f16
  return %0, %1, %2, %3, %5, %7, %8 : f32, i32, i32, vector<2xi16>, bf16, i32, f16
}

// truncf folds a constant only when it converts exactly (so the rounding mode never
// matters): 1.5, infinity and a quiet NaN whose dropped payload bits are zero fold;
// 1.1, an overflow and a NaN that would lose payload bits stay.
// CHECK-LABEL: func.func @truncf_constants(
// CHECK-DAG: %[[CST:.*]] = arith.constant 0x7C00 : f16
// CHECK-DAG: %[[CST2:.*]] = arith.constant 0x7FC0 : bf16
// CHECK-DAG: %[[CST3:.*]] = arith.constant 1.100000e+00 : f32
// CHECK-DAG: %[[CST4:.*]] = arith.constant 1.000000e+10 : f32
// CHECK-DAG: %[[CST5:.*]] = arith.constant 0x7FC00001 : f32
// CHECK-DAG: %[[CST6:.*]] = arith.constant 1.500000e+00 : f16
// CHECK: %[[TRUNCF:.*]] = arith.truncf %[[CST3]] : f32 to f16
// CHECK: %[[TRUNCF2:.*]] = arith.truncf %[[CST4]] upward : f32 to f16
// CHECK: %[[TRUNCF3:.*]] = arith.truncf %[[CST5]] : f32 to f16
// CHECK: return %[[CST6]], %[[CST6]], %[[TRUNCF]], %[[TRUNCF2]], %[[CST2]], %[[TRUNCF3]], %[[CST]] : f16, f16, f16, f16, bf16, f16, f16
func.func @truncf_constants() -> (f16, f16, f16, f16, bf16, f16, f16) {
  %cst = arith.constant 1.500000e+00 : f32
  %cst_0 = arith.constant 1.100000e+00 : f32
  %cst_1 = arith.constant 1.000000e+10 : f32
  %cst_2 = arith.constant 0x7FC00000 : f32
  %cst_3 = arith.constant 0x7FC00001 : f32
  %cst_4 = arith.constant 0x7F800000 : f32
  %0 = arith.truncf %cst : f32 to f16
  %1 = arith.truncf %cst downward : f32 to f16
  %2 = arith.truncf %cst_0 : f32 to f16
  %3 = arith.truncf %cst_1 upward : f32 to f16
  %4 = arith.truncf %cst_2 : f32 to bf16
  %5 = arith.truncf %cst_3 : f32 to f16
  %6 = arith.truncf %cst_4 toward_zero : f32 to f16
  return %0, %1, %2, %3, %4, %5, %6 : f16, f16, f16, f16, bf16, f16, f16
}

// truncf of an extf is the original, or a truncf of it; extf of a truncf is the
// original when both may contract; truncf of sitofp/uitofp is one conversion when it
// rounds to nearest even (TruncFSIToFPToSIToFP, TruncFUIToFPToUIToFP).
// CHECK-LABEL: func.func @float_chains(
// CHECK: %[[TRUNCF:.*]] = arith.truncf %arg1 to_nearest_away : f32 to f16
// CHECK: %[[TRUNCF2:.*]] = arith.truncf %arg1 : f32 to bf16
// CHECK: %[[EXTF:.*]] = arith.extf %[[TRUNCF2]] fastmath<contract> : bf16 to f32
// CHECK: %[[SITOFP:.*]] = arith.sitofp %arg2 : i32 to f32
// CHECK: %[[SITOFP2:.*]] = arith.sitofp %arg2 : i32 to f16
// CHECK: %[[UITOFP:.*]] = arith.uitofp %arg3 : i64 to bf16
// CHECK: %[[TRUNCF3:.*]] = arith.truncf %[[SITOFP]] downward : f32 to f16
// CHECK: return %arg0, %[[TRUNCF]], %arg1, %[[EXTF]], %[[SITOFP2]], %[[UITOFP]], %[[TRUNCF3]] : f16, f16, f32, f32, f16, bf16, f16
func.func @float_chains(%arg0: f16, %arg1: f32, %arg2: i32, %arg3: i64) -> (f16, f16, f32, f32, f16, bf16, f16) {
  %0 = arith.extf %arg0 : f16 to f64
  %1 = arith.truncf %0 : f64 to f16
  %2 = arith.extf %arg1 : f32 to f64
  %3 = arith.truncf %2 to_nearest_away : f64 to f16
  %4 = arith.truncf %arg1 fastmath<contract> : f32 to bf16
  %5 = arith.extf %4 fastmath<contract> : bf16 to f32
  %6 = arith.extf %4 fastmath<fast> : bf16 to f32
  %7 = arith.truncf %arg1 : f32 to bf16
  %8 = arith.extf %7 fastmath<contract> : bf16 to f32
  %9 = arith.sitofp %arg2 : i32 to f32
  %10 = arith.truncf %9 : f32 to f16
  %11 = arith.uitofp %arg3 : i64 to f64
  %12 = arith.truncf %11 : f64 to bf16
  %13 = arith.truncf %9 downward : f32 to f16
  return %1, %3, %5, %8, %10, %12, %13 : f16, f16, f32, f32, f16, bf16, f16
}

// trunci drops the bits shrsi filled with the sign: shrui fills them with zeros just
// as well (TruncIShrSIToTrunciShrUI), for splat shift amounts too.
// CHECK-LABEL: func.func @trunci_of_shrsi(
// CHECK-DAG: %[[CST:.*]] = arith.constant dense<56> : vector<2xi64>
// CHECK-DAG: %[[C8_I32:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C16_I32:.*]] = arith.constant 16 : i32
// CHECK: %[[SHRUI:.*]] = arith.shrui %arg0, %[[C16_I32]] : i32
// CHECK: %[[TRUNCI:.*]] = arith.trunci %[[SHRUI]] : i32 to i16
// CHECK: %[[SHRSI:.*]] = arith.shrsi %arg0, %[[C8_I32]] : i32
// CHECK: %[[TRUNCI2:.*]] = arith.trunci %[[SHRSI]] : i32 to i16
// CHECK: %[[SHRUI2:.*]] = arith.shrui %arg1, %[[CST]] : vector<2xi64>
// CHECK: %[[TRUNCI3:.*]] = arith.trunci %[[SHRUI2]] : vector<2xi64> to vector<2xi8>
// CHECK: return %[[TRUNCI]], %[[TRUNCI2]], %[[TRUNCI3]] : i16, i16, vector<2xi8>
func.func @trunci_of_shrsi(%arg0: i32, %arg1: vector<2xi64>) -> (i16, i16, vector<2xi8>) {
  %c16_i32 = arith.constant 16 : i32
  %c8_i32 = arith.constant 8 : i32
  %cst = arith.constant dense<56> : vector<2xi64>
  %0 = arith.shrsi %arg0, %c16_i32 : i32
  %1 = arith.trunci %0 : i32 to i16
  %2 = arith.shrsi %arg0, %c8_i32 : i32
  %3 = arith.trunci %2 : i32 to i16
  %4 = arith.shrsi %arg1, %cst : vector<2xi64>
  %5 = arith.trunci %4 : vector<2xi64> to vector<2xi8>
  return %1, %3, %5 : i16, i16, vector<2xi8>
}

// index_cast sign-extends: an extsi before it is dropped (IndexCastOfExtSI).
// CHECK-LABEL: func.func @index_cast_of_extsi(
// CHECK: %[[INDEX_CAST:.*]] = arith.index_cast %arg0 : i8 to index
// CHECK: return %[[INDEX_CAST]] : index
func.func @index_cast_of_extsi(%arg0: i8) -> index {
  %0 = arith.extsi %arg0 : i8 to i32
  %1 = arith.index_cast %0 : i32 to index
  return %1 : index
}
