// reconcile-unrealized-casts: a chain of casts that ends at the type it started
// from folds to its source (A -> B -> A, A -> B -> C -> A, N:M casts), unused casts
// are erased, and a cast that is still used afterwards is an error at the cast.
// (The casts are in generic form: see builtin/xfail-unrealized-cast-custom.mlir.)
// RUN: mlc-opt %s --reconcile-unrealized-casts --split-input-file --verify-diagnostics | filecheck %s
// RUN: not mlc-opt %s --reconcile-unrealized-casts --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @round_trip(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32
func.func @round_trip(%arg0: i32) -> i32 {
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
  %1 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> i32
  return %1 : i32
}

// CHECK-LABEL: func.func @longer_chain(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32
func.func @longer_chain(%arg0: i32) -> i32 {
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
  %1 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> f32
  %2 = "builtin.unrealized_conversion_cast"(%1) : (f32) -> i32
  return %2 : i32
}

// CHECK-LABEL: func.func @fan_out(%arg0: i32)
// CHECK-NEXT:    return %arg0, %arg0 : i32, i32
func.func @fan_out(%arg0: i32) -> (i32, i32) {
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
  %1 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> i32
  %2 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> i32
  return %1, %2 : i32, i32
}

// N:M casts (as a 1:N type conversion leaves them).
// CHECK-LABEL: func.func @multiple_values(%arg0: i32, %arg1: f32)
// CHECK-NEXT:    return %arg0, %arg1 : i32, f32
func.func @multiple_values(%arg0: i32, %arg1: f32) -> (i32, f32) {
  %0 = "builtin.unrealized_conversion_cast"(%arg0, %arg1) : (i32, f32) -> tuple<i32, f32>
  %1:2 = "builtin.unrealized_conversion_cast"(%0) : (tuple<i32, f32>) -> (i32, f32)
  return %1#0, %1#1 : i32, f32
}

// CHECK-LABEL: func.func @unused(%arg0: i32)
// CHECK-NEXT:    return %arg0 : i32
func.func @unused(%arg0: i32) -> i32 {
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
  %1 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> f32
  return %arg0 : i32
}

// -----

// A cast still in use: every one is reported, and the run fails. (mlir-opt-22
// keeps such casts and succeeds; mlc follows the older MLIR behaviour.)
// ERR: reconcile-unrealized-casts.mlir:[[# @LINE + 8]]:8: error: failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal
// ERR: reconcile-unrealized-casts.mlir:[[# @LINE + 14]]:8: error: failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal
// ERR: reconcile-unrealized-casts.mlir:[[# @LINE + 15]]:8: error: failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal
// ERR-NOT: error
// ERR-NOT: module

func.func @live(%arg0: i32) -> i64 {
  // expected-error@+1 {{failed to legalize operation 'builtin.unrealized_conversion_cast' that was explicitly marked illegal}}
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
  return %0 : i64
}
// A chain that does not come back to its source type stays: both casts are
// reported.
func.func @live_chain(%arg0: i32) -> f32 {
  // expected-error@+1 {{failed to legalize operation}}
  %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
  // expected-error@+1 {{failed to legalize operation}}
  %1 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> f32
  return %1 : f32
}
