func.func @bad(%arg0: f32, %arg1: i32) -> f32 {
  %0 = "arith.addf"(%arg0, %arg1) : (f32, i32) -> f32
  return %0 : f32
}
