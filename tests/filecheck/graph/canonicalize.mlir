// The graph dialect's canonicalization patterns (canonicalization/algebra.py) under
// the core canonicalize pass: arithmetic identities, reshape and transpose chains,
// identity and round-trip casts; and the cases that must stay.
// RUN: mlc-opt %s --split-input-file --canonicalize | filecheck %s
// Canonical IR is a fixpoint:
// RUN: mlc-opt %s --split-input-file --canonicalize | mlc-opt --split-input-file --canonicalize | filecheck %s
// The patterns are listed as DAGs:
// RUN: mlc-opt --list-patterns | filecheck %s --check-prefix=LIST

// LIST: AddZero: (graph.add:$root $x, (constant $c)) -> $x where is_splat_zero($c), result_has_type_of($root, $x)
// LIST: CastRoundTrip: (graph.cast:$root (graph.cast:$inner $x)) -> $x where result_has_type_of($root, $x), cast_is_lossless($inner)
// LIST: TransposeOfTranspose: (graph.transpose:$outer (graph.transpose:$inner $x)) -> (graph.transpose {axes = composed_permutation($inner, $outer)} $x)

// x*1, 1*x, x+0, 0+x, x+(-0), x-0, x/1 and -(-x) are x (the constant moves right
// first, as for every commutative op, then the pattern applies).
// CHECK-LABEL: func.func @identities(
// CHECK-NEXT:    return %x, %x, %x, %x, %x, %x, %x
func.func @identities(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %one = graph.constant dense<1.0> : tensor<f32>
  %ones = graph.constant dense<1.0> : tensor<3xf32>
  %zero = graph.constant dense<0.0> : tensor<2x3xf32>
  %nzero = graph.constant dense<-0.0> : tensor<1x3xf32>
  %0 = graph.multiply %x, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = graph.multiply %ones, %x : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.add %zero, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.add %x, %nzero : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %4 = graph.subtract %x, %zero : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.divide %x, %ones : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = graph.neg %x : tensor<2x3xf32>
  %7 = graph.neg %6 : tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Negative: ones that broadcast x to a larger shape, a constant that is not all
// ones, 0 - x, and x * 0 (NaN * 0 is NaN) stay.
// CHECK-LABEL: func.func @not_identities(
// CHECK:         graph.multiply %x, %{{.*}} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    graph.multiply %x, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    graph.subtract %{{.*}}, %x
// CHECK-NEXT:    graph.multiply %x, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    return
func.func @not_identities(%x: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %ones = graph.constant dense<1.0> : tensor<2x3xf32>
  %mixed = graph.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
  %zero = graph.constant dense<0.0> : tensor<3xf32>
  %0 = graph.multiply %x, %ones : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.multiply %x, %mixed : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = graph.subtract %zero, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = graph.multiply %x, %zero : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Reshape-like chains become one reshape to the last shape (with 0 and -1 resolved
// against the right operand); one back to the operand's shape disappears, and so
// does squeeze(expand_dims(x)).
// CHECK-LABEL: func.func @reshapes(
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x {shape = array<i64: 4, 6>} : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %[[F:.*]] = graph.flatten %x
// CHECK-NEXT:    return %[[R]], %x, %[[F]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x12xf32>) {
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %1 = graph.reshape %0 {shape = array<i64: 0, -1>} : tensor<6x4xf32> -> tensor<6x4xf32>
  %2 = graph.reshape %1 {shape = array<i64: 4, -1>} : tensor<6x4xf32> -> tensor<4x6xf32>
  %3 = graph.flatten %x : tensor<2x3x4xf32> -> tensor<2x12xf32>
  %4 = graph.reshape %3 {shape = array<i64: 2, 3, 4>} : tensor<2x12xf32> -> tensor<2x3x4xf32>
  %5 = graph.expand_dims %3 {axis = 1 : i64, num_newaxis = 2 : i64} : tensor<2x12xf32> -> tensor<2x1x1x12xf32>
  %6 = graph.squeeze %5 {axes = array<i64: 1, 2>} : tensor<2x1x1x12xf32> -> tensor<2x12xf32>
  return %2, %4, %6 : tensor<4x6xf32>, tensor<2x3x4xf32>, tensor<2x12xf32>
}

// -----

// A chain ending in an extent of 0 folds (to a reshape with allowzero: without it the
// 0 would copy the operand's extent, 5, and the reshape would not verify); its result
// holds no element, so it is then the empty constant (canonicalize-empty.mlir).
// CHECK-LABEL: func.func @reshape_to_zero_extent(
// CHECK-NEXT:    %[[R:.*]] = graph.constant dense<> : tensor<5x0xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reshape_to_zero_extent(%x: tensor<0x5xf32>) -> tensor<5x0xf32> {
  %a = graph.expand_dims %x {axis = 2} : tensor<0x5xf32> -> tensor<0x5x1xf32>
  %b = graph.reshape %a {shape = array<i64: 5, -1>} : tensor<0x5x1xf32> -> tensor<5x0xf32>
  return %b : tensor<5x0xf32>
}

// -----

// Two transposes compose into one; a composition that is the identity disappears.
// CHECK-LABEL: func.func @transposes(
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %x {axes = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT:    return %[[T]], %x
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<2x3x4xf32>) {
  %0 = graph.transpose %x {axes = array<i64: 1, 0, 2>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {axes = array<i64: 0, 2, 1>} : tensor<3x2x4xf32> -> tensor<3x4x2xf32>
  %2 = graph.transpose %x : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
  %3 = graph.transpose %2 : tensor<4x3x2xf32> -> tensor<2x3x4xf32>
  return %1, %3 : tensor<3x4x2xf32>, tensor<2x3x4xf32>
}

// -----

// A cast to the operand's type, and a round trip through a type holding every value
// (f32 -> f64 -> f32, i8 -> f32 -> i8), are the operand. Negative: f32 -> f16 -> f32
// rounds, so it stays.
// CHECK-LABEL: func.func @casts(
// CHECK-NEXT:    %[[H:.*]] = graph.cast %x : tensor<4xf32> to f16
// CHECK-NEXT:    %[[B:.*]] = graph.cast %[[H]] : tensor<4xf16> to f32
// CHECK-NEXT:    return %x, %[[B]], %i, %x
func.func @casts(%x: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xf32>) {
  %0 = graph.cast %x : tensor<4xf32> to f64
  %1 = graph.cast %0 : tensor<4xf64> to f32
  %2 = graph.cast %x : tensor<4xf32> to f16
  %3 = graph.cast %2 : tensor<4xf16> to f32
  %4 = graph.cast %i : tensor<4xi8> to f32
  %5 = graph.cast %4 : tensor<4xf32> to i8
  %6 = graph.cast %x : tensor<4xf32> to f32
  return %1, %3, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>, tensor<4xf32>
}

// -----

// Integers through floats: i32 -> f64 -> i32 is exact, i64 -> f64 -> i64 is not
// (2^53 + 1 comes back as 2^53), whatever numpy's "safe" casting says, and neither
// is i16 -> f16 -> i16 (f16 holds 11 significant bits).
// CHECK-LABEL: func.func @integer_round_trips(
// CHECK-NEXT:    %[[F:.*]] = graph.cast %l : tensor<4xi64> to f64
// CHECK-NEXT:    %[[L:.*]] = graph.cast %[[F]] : tensor<4xf64> to i64
// CHECK-NEXT:    %[[H:.*]] = graph.cast %s : tensor<4xi16> to f16
// CHECK-NEXT:    %[[S:.*]] = graph.cast %[[H]] : tensor<4xf16> to i16
// CHECK-NEXT:    return %i, %[[L]], %[[S]]
func.func @integer_round_trips(%i: tensor<4xi32>, %l: tensor<4xi64>, %s: tensor<4xi16>) -> (tensor<4xi32>, tensor<4xi64>, tensor<4xi16>) {
  %0 = graph.cast %i : tensor<4xi32> to f64
  %1 = graph.cast %0 : tensor<4xf64> to i32
  %2 = graph.cast %l : tensor<4xi64> to f64
  %3 = graph.cast %2 : tensor<4xf64> to i64
  %4 = graph.cast %s : tensor<4xi16> to f16
  %5 = graph.cast %4 : tensor<4xf16> to i16
  return %1, %3, %5 : tensor<4xi32>, tensor<4xi64>, tensor<4xi16>
}
