func.func @softplus_of_zero(%x: f32) -> (f32, f32, vector<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = math.exp %zero : f32
  %s = arith.addf %e, %one : f32
  %softplus = math.log %s : f32
  %p = ub.poison : f32
  %y = arith.mulf %x, %p : f32
  %v = vector.broadcast %softplus : f32 to vector<4xf32>
  return %softplus, %y, %v : f32, f32, vector<4xf32>
}
