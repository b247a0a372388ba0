// math-polynomial-approximation: math functions of f32 scalars and vectors become
// arith and math.fma/floor/absf/copysign on the same type (no call, no intrinsic a
// vector would be split for); f64, f16 (until math-extend-to-supported-types has
// made it f32) and the ops not chosen stay. mlir-opt-22 reads what the pass writes.
// RUN: mlc-opt %s --math-polynomial-approximation | filecheck %s
// RUN: mlc-opt %s --math-extend-to-supported-types --math-polynomial-approximation | filecheck %s --check-prefix=F16
// RUN: mlc-opt %s --math-polynomial-approximation="ops=erf" | filecheck %s --check-prefix=ERF
// RUN: %if mlir-opt %{ mlc-opt %s --math-extend-to-supported-types --math-polynomial-approximation | %mlir_opt | filecheck %s --check-prefix=MLIR %}

// exp: x clamped, k = floor(x log2(e) + 1/2), r = x - k ln2 in two fmas (ln2 split
// in two f32s), e^r by a polynomial in fmas, 2^k built in the exponent bits (two
// factors), NaN put back.
// CHECK-LABEL: func.func @exp_vector(
// CHECK-SAME:      %[[X:.*]]: vector<8xf32>)
// CHECK-DAG:     %[[LOG2E:.*]] = arith.constant dense<1.442695e+00> : vector<8xf32>
// CHECK-DAG:     %[[HALF:.*]] = arith.constant dense<5.000000e-01> : vector<8xf32>
// CHECK:         %[[T:.*]] = math.fma %[[CLAMPED:.*]], %[[LOG2E]], %[[HALF]] : vector<8xf32>
// CHECK:         %[[K:.*]] = math.floor %[[T]] : vector<8xf32>
// CHECK:         %[[MINUSK:.*]] = arith.negf %[[K]] : vector<8xf32>
// CHECK:         %[[LN2HI:.*]] = arith.constant dense<6.931472e-01> : vector<8xf32>
// CHECK:         %[[R0:.*]] = math.fma %[[MINUSK]], %[[LN2HI]], %[[CLAMPED]] : vector<8xf32>
// CHECK:         %[[R:.*]] = math.fma %[[MINUSK]], %{{.*}}, %[[R0]] : vector<8xf32>
// CHECK:         arith.fptosi %[[K]] : vector<8xf32> to vector<8xi32>
// CHECK-COUNT-6: math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:         arith.shli %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK:         arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:         arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:         %[[Y:.*]] = arith.mulf
// CHECK:         %[[ISNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<8xf32>
// CHECK:         %[[RESULT:.*]] = arith.select %[[ISNAN]], %[[X]], %[[Y]] : vector<8xi1>, vector<8xf32>
// CHECK:         return %[[RESULT]]
// CHECK-NOT:     math.exp
// ERF-LABEL:   func.func @exp_vector(
// ERF:           math.exp
// MLIR-LABEL:  func.func @exp_vector(
// MLIR:          math.fma
// MLIR-NOT:      math.exp
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// erf of f16: left alone, or once extended to f32, approximated and truncated back.
// CHECK-LABEL: func.func @erf_f16(
// CHECK-NEXT:    math.erf %{{.*}} : f16
// F16-LABEL:   func.func @erf_f16(
// F16-SAME:        %[[X:.*]]: f16)
// F16:           %[[WIDE:.*]] = arith.extf %[[X]] fastmath<contract> : f16 to f32
// F16:           math.absf %[[WIDE]] : f32
// F16:           %[[Y:.*]] = math.copysign %{{.*}}, %[[WIDE]] : f32
// F16:           %[[NARROW:.*]] = arith.truncf %[[Y]] fastmath<contract> : f32 to f16
// F16:           return %[[NARROW]]
// MLIR-LABEL:  func.func @erf_f16(
// MLIR:          arith.truncf
// ERF-LABEL:   func.func @erf_f16(
// ERF-NEXT:      math.erf %{{.*}} : f16
func.func @erf_f16(%x: f16) -> f16 {
  %0 = math.erf %x : f16
  return %0 : f16
}

// f64 stays exact (the C library); tensors are not the pass's.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NEXT:    math.log %{{.*}} : f64
// CHECK-NEXT:    math.tanh %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    return
func.func @left_alone(%a: f64, %b: tensor<4xf32>) -> (f64, tensor<4xf32>) {
  %0 = math.log %a : f64
  %1 = math.tanh %b : tensor<4xf32>
  return %0, %1 : f64, tensor<4xf32>
}

// Every op the pass knows, on scalars: none is left.
// CHECK-LABEL: func.func @all_ops(
// CHECK-NOT:     math.{{(exp|exp2|expm1|log|log2|log1p|tanh|erf|sin|cos) }}
// CHECK:         return
// MLIR-LABEL:  func.func @all_ops(
// MLIR-NOT:      math.{{(exp|exp2|expm1|log|log2|log1p|tanh|erf|sin|cos) }}
// MLIR:          return
func.func @all_ops(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.exp2 %x : f32
  %2 = math.expm1 %x : f32
  %3 = math.log %x : f32
  %4 = math.log2 %x : f32
  %5 = math.log1p %x : f32
  %6 = math.tanh %x : f32
  %7 = math.erf %x : f32
  %8 = math.sin %x : f32
  %9 = math.cos %x : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}
