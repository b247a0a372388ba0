// Ill-typed IR: mlc-opt reports it with the location, the source line and a caret.
func.func @f(%a: f32, %b: i32) -> f32 {
  %0 = "arith.addf"(%a, %b) : (f32, i32) -> f32
  return %0 : f32
}
