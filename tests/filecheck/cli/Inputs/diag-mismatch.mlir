func.func @f(%arg0: i32) -> i32 {
  // expected-error@+1 {{this message is not the one produced}}
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
// -----
func.func @g(%arg0: i32) -> i32 {
  // expected-error@+1 {{an error that never comes}}
  return %arg0 : i32
}
// -----
func.func @h(%arg0: i32) -> i32 {
  // expected-error@+1 {{must be floating-point-like}}
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
