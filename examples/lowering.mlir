// Work for the arith lowering passes: a rounding division and a float extremum for
// arith-expand, 64-bit integer arithmetic for arith-emulate-wide-int.
func.func @average_rounded_up(%sum: i32, %count: i32) -> i32 {
  %0 = arith.ceildivsi %sum, %count : i32
  return %0 : i32
}

func.func @clamp_low(%x: f32, %low: f32) -> f32 {
  %0 = arith.maximumf %x, %low : f32
  return %0 : f32
}

func.func @multiply_add(%a: i64, %b: i64, %c: i64) -> i64 {
  %0 = arith.muli %a, %b : i64
  %1 = arith.addi %0, %c : i64
  return %1 : i64
}
