// Integer ranges: %byte is in [0, 255], %x in [0, 99].
func.func @ranges(%a: i32, %b: i8) -> (i1, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c99 = arith.constant 99 : i32
  %c100 = arith.constant 100 : i32
  %c4 = arith.constant 4 : i32
  %x = arith.minui %a, %c99 : i32
  // Always true: int-range-optimizations makes it a constant.
  %small = arith.cmpi slt, %x, %c100 : i32
  // x rem 100 is x.
  %r = arith.remui %x, %c100 : i32
  // Both operands non-negative: arith-unsigned-when-equivalent makes it divui.
  %q = arith.divsi %x, %c4 : i32
  // At most 255 + 99: arith-int-range-narrowing computes it in i16.
  %byte = arith.extui %b : i8 to i32
  %sum = arith.addi %byte, %x : i32
  %s = arith.addi %sum, %r : i32
  %t = arith.addi %s, %q : i32
  return %small, %t, %c0 : i1, i32, i32
}
