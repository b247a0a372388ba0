// Redundant arithmetic for the pass tour: canonicalize folds `x + 0` and `x * 1` (and
// uniques and hoists constants), cse merges the repeated product, symbol-dce erases the
// private function nothing calls.
func.func @twice_product(%x: i32, %y: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %x0 = arith.addi %x, %zero : i32
  %one = arith.constant 1 : i32
  %x1 = arith.muli %x0, %one : i32
  %p = arith.muli %x1, %y : i32
  %q = arith.muli %x1, %y : i32
  %r = arith.addi %p, %q : i32
  return %r : i32
}

func.func private @unused_helper(%a: i32) -> i32 {
  return %a : i32
}
