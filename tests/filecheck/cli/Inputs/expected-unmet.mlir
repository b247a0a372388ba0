// expected-error@above {{above the first line}}
func.func @f(%arg0: i32) -> i32 {
  // expected-error@+100 {{past the end of the file}}
  // expected-warning@+1 {{must be floating-point-like}}
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
// -----
func.func @g(%arg0: i32) -> i32 {
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
// -----
// expected-error@-4 {{must be floating-point-like}}
// expected-error@-20 {{before the first line}}
func.func @h() {
  // expected-error-re {{{{unclosed regex}}
  return
}
// expected-remark@below {{no line below holds code}}
// expected-remark@below {{nor for this one}}
