func.func @f(%arg0: i32) -> i32 {
  // expected-error@+1 {{unterminated
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
// -----
func.func @g() {
  // expected-error@x {{no such designator}}
  // expected-error@+ {{no line count}}
  // expected-error@above1 {{not above}}
  // expected-error@below: {{not below}}
  // expected-warning@+1 no braces
  // expected-note {{text}} and more after it
  return
}
