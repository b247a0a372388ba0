func.func @first() {
  return
}
// -----
func.func @second(%arg0: i32) -> i32 {
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
// -----
func.func @third() {
  return
}
