func.func @good(%arg0: f32) -> f32 {
  %0 = arith.addf %arg0, %arg0 : f32
  return %0 : f32
}
