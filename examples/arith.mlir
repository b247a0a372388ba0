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

// The mean of two unsigned integers, rounded down, without overflowing; and the same
// mean through the carry of their sum.
func.func @mean(%a: i32, %b: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %both = arith.andi %a, %b : i32
  %either = arith.xori %a, %b : i32
  %half = arith.shrui %either, %c1 : i32
  %r = arith.addi %both, %half : i32
  %sum:2 = arith.addui_extended %a, %b : i32, i1
  %carry = arith.extui %sum#1 : i1 to i32
  %c31 = arith.constant 31 : i32
  %top = arith.shli %carry, %c31 : i32
  %low = arith.shrui %sum#0, %c1 : i32
  %r2 = arith.ori %top, %low : i32
  return %r, %r2 : i32, i32
}
