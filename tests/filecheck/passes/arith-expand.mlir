// arith-expand: the rounding divisions, the integer and float extrema and the scaling
// casts become plain arith ops; the include-* options expand the casts of bf16,
// f8E8M0FNU and f4E2M1FN to integer ops on their bits. An op it must expand and cannot
// (a scale that is no f8E8M0FNU and narrower than 16 bits) fails the pass, the IR left
// as it was. The CHECK lines, written from mlir-opt-22's output, hold for it too.
// RUN: mlc-opt %s --arith-expand --split-input-file --verify-diagnostics | filecheck %s
// RUN: mlc-opt %s --arith-expand="include-bf16=true include-f8e8m0=true include-f4e2m1=true" --split-input-file --verify-diagnostics | filecheck %s --check-prefix=FMT
// RUN: %if mlir-opt %{ %mlir_opt %s --arith-expand --split-input-file --verify-diagnostics | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir_opt %s --arith-expand="include-bf16=true include-f8e8m0=true include-f4e2m1=true" --split-input-file --verify-diagnostics | filecheck %s --check-prefix=FMT %}

// A tensor operand: the constants are splats of its type.
// CHECK-LABEL: func.func @ceildivsi_tensor(
// CHECK-SAME:      %[[A:.*]]: tensor<2xi8>, %[[B:.*]]: tensor<2xi8>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0> : tensor<2xi8>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant dense<1> : tensor<2xi8>
// CHECK:         %[[Q:.*]] = arith.divsi %[[A]], %[[B]] : tensor<2xi8>
// CHECK:         %[[P:.*]] = arith.muli %[[Q]], %[[B]] : tensor<2xi8>
// CHECK:         %[[INEXACT:.*]] = arith.cmpi ne, %[[A]], %[[P]] : tensor<2xi8>
// CHECK:         %[[ANEG:.*]] = arith.cmpi slt, %[[A]], %[[ZERO]] : tensor<2xi8>
// CHECK:         %[[BNEG:.*]] = arith.cmpi slt, %[[B]], %[[ZERO]] : tensor<2xi8>
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %[[ANEG]], %[[BNEG]] : tensor<2xi1>
// CHECK:         %[[UP:.*]] = arith.andi %[[INEXACT]], %[[SAME]] : tensor<2xi1>
// CHECK:         %[[Q1:.*]] = arith.addi %[[Q]], %[[ONE]] : tensor<2xi8>
// CHECK:         %[[R:.*]] = arith.select %[[UP]], %[[Q1]], %[[Q]] : tensor<2xi1>, tensor<2xi8>
// CHECK:         return %[[R]]
func.func @ceildivsi_tensor(%a: tensor<2xi8>, %b: tensor<2xi8>) -> tensor<2xi8> {
  %0 = arith.ceildivsi %a, %b : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

// Each op of a chain is expanded, in place, in order; other arith ops stay.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK:         %[[LT:.*]] = arith.cmpi ult, %[[A]], %[[B]] : i64
// CHECK:         %[[MIN:.*]] = arith.select %[[LT]], %[[A]], %[[B]] : i64
// CHECK:         %[[SUM:.*]] = arith.addi %[[MIN]], %[[B]] : i64
// CHECK:         %[[GT:.*]] = arith.cmpi sgt, %[[SUM]], %[[A]] : i64
// CHECK:         %[[MAX:.*]] = arith.select %[[GT]], %[[SUM]], %[[A]] : i64
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         %[[ISZERO:.*]] = arith.cmpi eq, %[[MAX]], %[[ZERO]] : i64
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i64
// CHECK:         %[[DEC:.*]] = arith.subi %[[MAX]], %[[ONE]] : i64
// CHECK:         %[[DIV:.*]] = arith.divui %[[DEC]], %[[B]] : i64
// CHECK:         %[[INC:.*]] = arith.addi %[[DIV]], %[[ONE]] : i64
// CHECK:         %[[R:.*]] = arith.select %[[ISZERO]], %[[ZERO]], %[[INC]] : i64
// CHECK:         return %[[R]] : i64
func.func @chain(%a: i64, %b: i64) -> i64 {
  %0 = arith.minui %a, %b : i64
  %1 = arith.addi %0, %b : i64
  %2 = arith.maxsi %1, %a : i64
  %3 = arith.ceildivui %2, %b : i64
  return %3 : i64
}

// -----

// The float extrema keep no fastmath flags; a NaN-ignoring op checks its lhs.
// CHECK-LABEL: func.func @minnumf_fastmath(
// CHECK-SAME:      %[[A:.*]]: f64, %[[B:.*]]: f64)
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf ult, %[[A]], %[[B]] : f64
// CHECK-NEXT:    %[[PICK:.*]] = arith.select %[[LT]], %[[A]], %[[B]] : f64
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[A]], %[[A]] : f64
// CHECK-NEXT:    %[[R:.*]] = arith.select %[[NAN]], %[[B]], %[[PICK]] : f64
// CHECK-NEXT:    return %[[R]] : f64
func.func @minnumf_fastmath(%a: f64, %b: f64) -> f64 {
  %0 = arith.minnumf %a, %b fastmath<nnan> : f64
  return %0 : f64
}

// -----

// Without include-bf16 the bf16 casts stay. With it, extf is a shift of the bits, and
// the truncf, illegal, is first folded as MLIR's conversion driver folds an illegal op:
// truncf(extf(x)) is x. (The expanded extf stays, dead.)
// CHECK-LABEL: func.func @bf16_round_trip(
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// FMT-LABEL:   func.func @bf16_round_trip(
// FMT-SAME:        %[[X:.*]]: bf16)
// FMT:           %[[BITS:.*]] = arith.bitcast %[[X]] : bf16 to i16
// FMT:           %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// FMT:           %[[C16:.*]] = arith.constant 16 : i32
// FMT:           %[[SHL:.*]] = arith.shli %[[WIDE]], %[[C16]] : i32
// FMT:           arith.bitcast %[[SHL]] : i32 to f32
// FMT-NEXT:      return %[[X]] : bf16
func.func @bf16_round_trip(%x: bf16) -> bf16 {
  %0 = arith.extf %x : bf16 to f32
  %1 = arith.truncf %0 : f32 to bf16
  return %1 : bf16
}

// -----

// FMT-LABEL: func.func @truncf_to_bf16(
// FMT-SAME:      %[[X:.*]]: f32)
// FMT-DAG:     %[[ISNAN:.*]] = arith.cmpf une, %[[X]], %[[X]] : f32
// FMT-DAG:     %[[C7FFF:.*]] = arith.constant 32767 : i32
// FMT-DAG:     %[[QNAN:.*]] = arith.constant 32704 : i16
// FMT-DAG:     %[[C16:.*]] = arith.constant 16 : i32
// FMT-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// FMT:         %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// FMT:         %[[SHR:.*]] = arith.shrui %[[BITS]], %[[C16]] : i32
// FMT:         %[[LSB:.*]] = arith.andi %[[SHR]], %[[C1]] : i32
// FMT:         %[[BIAS:.*]] = arith.addi %[[LSB]], %[[C7FFF]] : i32
// FMT:         %[[SUM:.*]] = arith.addi %[[BITS]], %[[BIAS]] : i32
// FMT:         %[[HIGH:.*]] = arith.shrui %[[SUM]], %[[C16]] : i32
// FMT:         %[[NARROW:.*]] = arith.trunci %[[HIGH]] : i32 to i16
// FMT:         %[[SEL:.*]] = arith.select %[[ISNAN]], %[[QNAN]], %[[NARROW]] : i16
// FMT:         %[[R:.*]] = arith.bitcast %[[SEL]] : i16 to bf16
// FMT:         return %[[R]] : bf16
func.func @truncf_to_bf16(%x: f32) -> bf16 {
  %0 = arith.truncf %x : f32 to bf16
  return %0 : bf16
}

// -----

// An f64 scale is truncated to f8E8M0FNU first; that truncation, under
// include-f8e8m0, goes through f32.
// CHECK-LABEL: func.func @scaling_extf_f64_scale(
// CHECK-SAME:      %[[X:.*]]: f8E5M2, %[[S:.*]]: f64)
// CHECK:         %[[S8:.*]] = arith.truncf %[[S]] : f64 to f8E8M0FNU
// CHECK:         %[[SCALE:.*]] = arith.extf %[[S8]] : f8E8M0FNU to f64
// CHECK:         %[[XW:.*]] = arith.extf %[[X]] : f8E5M2 to f64
// CHECK:         %[[R:.*]] = arith.mulf %[[XW]], %[[SCALE]] : f64
// CHECK:         return %[[R]] : f64
// FMT-LABEL:   func.func @scaling_extf_f64_scale(
// FMT:           %[[S32:.*]] = arith.truncf %{{.*}} : f64 to f32
// FMT:           arith.bitcast %[[S32]] : f32 to i32
// FMT:           arith.bitcast %{{.*}} : i8 to f8E8M0FNU
// FMT:           arith.bitcast %{{.*}} : f8E8M0FNU to i8
// FMT:           %[[F32:.*]] = arith.bitcast %{{.*}} : i32 to f32
// FMT:           %[[SCALE:.*]] = arith.extf %[[F32]] : f32 to f64
// FMT:           %[[XW:.*]] = arith.extf %{{.*}} : f8E5M2 to f64
// FMT:           arith.mulf %[[XW]], %[[SCALE]] : f64
func.func @scaling_extf_f64_scale(%x: f8E5M2, %s: f64) -> f64 {
  %0 = arith.scaling_extf %x, %s : f8E5M2, f64 to f64
  return %0 : f64
}

// -----

// An f8E4M3FN scale is neither f8E8M0FNU nor wide enough to truncate: the pass
// fails and the function is left as it was.
func.func @scaling_truncf_bad_scale(%x: f32, %s: f8E4M3FN) -> f8E5M2 {
  // expected-error@+1 {{failed to legalize operation 'arith.scaling_truncf' that was explicitly marked illegal}}
  %0 = arith.scaling_truncf %x, %s : f32, f8E4M3FN to f8E5M2
  return %0 : f8E5M2
}

// -----

// f4E2M1FN to f16 goes through f32: the last step is a truncf, which stays.
// FMT-LABEL: func.func @f4_to_f16(
// FMT:         arith.bitcast %{{.*}} : f4E2M1FN to i4
// FMT:         %[[F32:.*]] = arith.bitcast %{{.*}} : i32 to f32
// FMT:         %[[R:.*]] = arith.truncf %[[F32]] : f32 to f16
// FMT:         return %[[R]] : f16
func.func @f4_to_f16(%x: f4E2M1FN) -> f16 {
  %0 = arith.extf %x : f4E2M1FN to f16
  return %0 : f16
}
