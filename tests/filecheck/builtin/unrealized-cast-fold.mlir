// --canonicalize folds a `builtin.unrealized_conversion_cast` to the types its inputs
// already have, and one that takes every result of another cast back to that cast's
// input types (one-to-one, N-to-N or through an N-to-one cast); a chain ending in
// another type, a reordered or partial use of the other cast's results, and a cast
// without inputs stay. As mlir-opt-22 --canonicalize does.
// RUN: mlc-opt %s --canonicalize | filecheck %s

// CHECK-LABEL: func.func @identity
// CHECK-SAME:    (%[[A:.*]]: i32, %[[B:.*]]: f32)
// CHECK-NEXT:    return %[[A]], %[[B]] : i32, f32
func.func @identity(%a: i32, %b: f32) -> (i32, f32) {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, f32 to i32, f32
  return %0#0, %0#1 : i32, f32
}

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME:    (%[[A:.*]]: i32)
// CHECK-NEXT:    return %[[A]] : i32
func.func @round_trip(%a: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
  return %1 : i32
}

// CHECK-LABEL: func.func @through_n_to_one
// CHECK-SAME:    (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT:    return %[[A]], %[[B]] : i32, i32
func.func @through_n_to_one(%a: i32, %b: i32) -> (i32, i32) {
  %0 = builtin.unrealized_conversion_cast %a, %b : i32, i32 to i64
  %1:2 = builtin.unrealized_conversion_cast %0 : i64 to i32, i32
  return %1#0, %1#1 : i32, i32
}

// CHECK-LABEL: func.func @to_a_third_type
// CHECK-NEXT:    builtin.unrealized_conversion_cast %{{.*}} : i32 to i64
// CHECK-NEXT:    builtin.unrealized_conversion_cast %{{.*}} : i64 to f32
func.func @to_a_third_type(%a: i32) -> f32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to f32
  return %1 : f32
}

// CHECK-LABEL: func.func @swapped
// CHECK-NEXT:    %[[C:.*]]:2 = builtin.unrealized_conversion_cast
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[C]]#1, %[[C]]#0
func.func @swapped(%a: i32, %b: i32) -> (i32, i32) {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, i32 to i64, i64
  %1:2 = builtin.unrealized_conversion_cast %0#1, %0#0 : i64, i64 to i32, i32
  return %1#0, %1#1 : i32, i32
}

// CHECK-LABEL: func.func @one_of_two
// CHECK-NEXT:    %[[C:.*]]:2 = builtin.unrealized_conversion_cast
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[C]]#0 : i64 to i32
func.func @one_of_two(%a: i32, %b: i32) -> i32 {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, i32 to i64, i64
  %1 = builtin.unrealized_conversion_cast %0#0 : i64 to i32
  return %1 : i32
}

// CHECK-LABEL: func.func @no_inputs
// CHECK-NEXT:    builtin.unrealized_conversion_cast to i32
func.func @no_inputs() -> i32 {
  %0 = builtin.unrealized_conversion_cast to i32
  return %0 : i32
}
