// Control flow between blocks with the cf dialect: a loop, and a diamond whose two
// arms do the same thing to different values.
func.func @sum_to(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  cf.br ^head(%c0, %c0, %c0 : i32, i32, i32)
^head(%i: i32, %acc: i32, %unused: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%acc : i32), ^body
^body:
  cf.assert %true, "never fails"
  %next = arith.addi %acc, %i : i32
  %i1 = arith.addi %i, %c1 : i32
  cf.br ^head(%i1, %next, %next : i32, i32, i32)
^exit(%r: i32):
  return %r : i32
}

func.func @square_one(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^left, ^right
^left:
  %p = arith.muli %a, %a : i32
  cf.br ^join(%p : i32)
^right:
  %q = arith.muli %b, %b : i32
  cf.br ^join(%q : i32)
^join(%v: i32):
  return %v : i32
}
