// graph-fold-constant on the edges of the graph ops' semantics (graph.md says what
// each op does with integers and NaN): integer division and powers computed in
// integers, empty reductions, float-to-integer casts, single rounding to bf16,
// sigmoid's tiny values. Where the result is undefined (an index out of range, an
// integer division by zero, NaN cast to an integer) the op is left unfolded, and
// nothing — no traceback, no numpy warning — reaches stderr.
// RUN: mlc-opt %s --split-input-file --graph-fold-constant | filecheck %s
// RUN: mlc-opt %s --split-input-file --graph-fold-constant --pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file --graph-fold-constant 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: {{.}}

// Gather indices must lie in [-n, n): 3 and -4 are outside an axis of extent 3 (not
// folded); -3 and 2 are inside.
// CHECK-LABEL: func.func @gather(
// CHECK:         %0 = graph.gather %d, %above
// CHECK:         %1 = graph.gather %d, %below
// CHECK:         %2 = graph.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    return %0, %1, %2
func.func @gather() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %d = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %above = graph.constant dense<[0, 3]> : tensor<2xi64>
  %below = graph.constant dense<[-1, -4]> : tensor<2xi32>
  %ok = graph.constant dense<[-3, 2]> : tensor<2xi64>
  %0 = graph.gather %d, %above : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32>
  %1 = graph.gather %d, %below : (tensor<3xf32>, tensor<2xi32>) -> tensor<2xf32>
  %2 = graph.gather %d, %ok : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Integer powers: a negative exponent is 1/x^n truncated (2^-1 = 0, (-1)^-3 = -1,
// 1^-7 = 1, (-1)^-2 = 1), x^0 = 1 (0^0 too), and 3^40 wraps modulo 2^32 to
// 689956897. 0 to a negative power is a division by zero: not folded.
// CHECK-LABEL: func.func @power(
// CHECK:         %0 = graph.constant dense<[0, -1, 1, 1, 1, 1, 689956897]> : tensor<7xi32>
// CHECK:         %1 = graph.power %z, %n
func.func @power() -> (tensor<7xi32>, tensor<2xi32>) {
  %a = graph.constant dense<[2, -1, 1, -1, 5, 0, 3]> : tensor<7xi32>
  %b = graph.constant dense<[-1, -3, -7, -2, 0, 0, 40]> : tensor<7xi32>
  %0 = graph.power %a, %b : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>
  %z = graph.constant dense<[0, 2]> : tensor<2xi32>
  %n = graph.constant dense<[-1, 2]> : tensor<2xi32>
  %1 = graph.power %z, %n : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1 : tensor<7xi32>, tensor<2xi32>
}

// -----

// Integer division truncates toward zero and is exact above 2^53 (no float64
// detour): INT64_MAX / 1 and (2^53 + 1) / 1 are themselves, INT64_MIN / -1 wraps to
// INT64_MIN. Unsigned 255 / 2 is 127. A division by zero is not folded.
// CHECK-LABEL: func.func @divide(
// CHECK:         %0 = graph.constant dense<[3, -3, -3, 3, -9223372036854775808, 9223372036854775807, 9007199254740993]> : tensor<7xi64>
// CHECK:         %1 = graph.constant dense<[127, 2]> : tensor<2xui8>
// CHECK:         %2 = graph.divide %e, %f
func.func @divide() -> (tensor<7xi64>, tensor<2xui8>, tensor<2xi32>) {
  %a = graph.constant dense<[7, -7, 7, -7, -9223372036854775808, 9223372036854775807, 9007199254740993]> : tensor<7xi64>
  %b = graph.constant dense<[2, 2, -2, -2, -1, 1, 1]> : tensor<7xi64>
  %0 = graph.divide %a, %b : (tensor<7xi64>, tensor<7xi64>) -> tensor<7xi64>
  %c = graph.constant dense<[255, 7]> : tensor<2xui8>
  %d = graph.constant dense<[2, 3]> : tensor<2xui8>
  %1 = graph.divide %c, %d : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %e = graph.constant dense<[1, 2]> : tensor<2xi32>
  %f = graph.constant dense<[1, 0]> : tensor<2xi32>
  %2 = graph.divide %e, %f : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1, %2 : tensor<7xi64>, tensor<2xui8>, tensor<2xi32>
}

// -----

// Reductions over an axis of extent 0: the sum is 0, the product 1, the float mean
// NaN (0/0); the integer mean has no value, so it stays.
// CHECK-LABEL: func.func @empty(
// CHECK-DAG:     %0 = graph.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-DAG:     %1 = graph.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-DAG:     %2 = graph.constant dense<0x{{7|F}}FC00000> : tensor<3xf32>
// CHECK-DAG:     %3 = graph.constant dense<0> : tensor<3xi32>
// CHECK-DAG:     %4 = graph.mean %i
func.func @empty() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>) {
  %f = graph.constant dense<> : tensor<3x0xf32>
  %i = graph.constant dense<> : tensor<3x0xi32>
  %0 = graph.sum %f {axes = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  %1 = graph.prod %f {axes = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  %2 = graph.mean %f {axes = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  %3 = graph.sum %i {axes = array<i64: 1>} : tensor<3x0xi32> -> tensor<3xi32>
  %4 = graph.mean %i {axes = array<i64: 1>} : tensor<3x0xi32> -> tensor<3xi32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>
}

// -----

// Casts. Float to integer truncates toward zero; NaN and 3e9 (past i32) have no
// defined result and stay. To bf16, rounding happens once: 2^24 + 2^16 + 1 is
// 16908288 (through f32 it would tie down to 16777216), and 1 + 2^-8 + 2^-40 is
// 1.0078125 (through f32, 1.0).
// CHECK-LABEL: func.func @casts(
// CHECK:         %0 = graph.constant dense<[-2, 2, 0]> : tensor<3xi32>
// CHECK:         %1 = graph.cast %nan
// CHECK:         %2 = graph.cast %big
// CHECK:         %3 = graph.constant dense<1.690829e+07> : tensor<1xbf16>
// CHECK-NEXT:    %4 = graph.constant dense<1.007812e+00> : tensor<1xbf16>
func.func @casts() -> (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xbf16>, tensor<1xbf16>) {
  %f = graph.constant dense<[-2.7, 2.7, -0.5]> : tensor<3xf32>
  %0 = graph.cast %f : tensor<3xf32> to i32
  %nan = graph.constant dense<0x7FC00000> : tensor<1xf32>
  %1 = graph.cast %nan : tensor<1xf32> to i32
  %big = graph.constant dense<3.0e9> : tensor<1xf32>
  %2 = graph.cast %big : tensor<1xf32> to i32
  %i = graph.constant dense<16842753> : tensor<1xi64>
  %3 = graph.cast %i : tensor<1xi64> to bf16
  %d = graph.constant dense<1.0039062500009095> : tensor<1xf64>
  %4 = graph.cast %d : tensor<1xf64> to bf16
  return %0, %1, %2, %3, %4 : tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xbf16>, tensor<1xbf16>
}

// -----

// sigmoid(-89) = 2.2273636e-39 is an f32 subnormal and sigmoid(-11.5) =
// 1.013e-5 an f16 one (1/(1+e^-x) in the input type overflows e^-x and gives 0);
// sigmoid(-104) is below f32's smallest subnormal: 0. exp overflows to inf silently.
// CHECK-LABEL: func.func @sigmoid(
// CHECK:         %0 = graph.constant dense<[2.227364e-39, 0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %1 = graph.constant dense<1.013279e-05> : tensor<1xf16>
// CHECK-NEXT:    %2 = graph.constant dense<[0x7F800000, 0.36787945]> : tensor<2xf32>
func.func @sigmoid() -> (tensor<2xf32>, tensor<1xf16>, tensor<2xf32>) {
  %x = graph.constant dense<[-89.0, -104.0]> : tensor<2xf32>
  %0 = graph.sigmoid %x : tensor<2xf32>
  %h = graph.constant dense<-11.5> : tensor<1xf16>
  %1 = graph.sigmoid %h : tensor<1xf16>
  %e = graph.constant dense<[100.0, -1.0]> : tensor<2xf32>
  %2 = graph.exp %e : tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<1xf16>, tensor<2xf32>
}

// STATS:      graph-fold-constant
// STATS-NEXT:   (14) num-folded - ops folded into constants
// STATS-NEXT:   (0) num-too-large
// STATS-NEXT:   (7) num-undefined - ops not folded: their result is undefined on these constants
