// A small function in custom syntax: mlc-opt prints it back, or in generic form.
func.func @axpy(%a: f32, %x: f32, %y: f32) -> f32 {
  %ax = arith.mulf %a, %x : f32
  %r = arith.addf %ax, %y fastmath<fast> : f32
  return %r : f32
}

func.func @clamp(%v: i32, %lo: i32, %hi: i32) -> i32 {
  %below = arith.cmpi slt, %v, %lo : i32
  %t = arith.select %below, %lo, %v : i32
  %above = arith.cmpi sgt, %t, %hi : i32
  %r = arith.select %above, %hi, %t : i32
  return %r : i32
}
