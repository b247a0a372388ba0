func.func @f(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
  // expected-error@+1 {{redefinition of SSA value '%0'}}
  %0 = arith.addf %arg0, %arg0 : f32
  return %0 : f32
}
