// Invalid IR (arith.addf on integers): parsed with --no-verify, it fails the
// verification after the first pass (see verify-each.mlir).
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addf %arg0, %arg0 : i32
  return %0 : i32
}
