// Structured control flow: a sum over a loop, a loop that runs once, an if on a
// constant and an if whose results are computed outside it.
func.func @sum_of_squares(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = arith.index_cast %i : index to i32
    %sq = arith.muli %v, %v : i32
    %next = arith.addi %acc, %sq : i32
    scf.yield %next : i32
  }
  return %sum : i32
}

func.func @simplified(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %once = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %x) -> (i32) {
    %d = arith.muli %acc, %y : i32
    scf.yield %d : i32
  }
  %picked = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %y : i32
  }
  %dead = scf.if %true -> (i32) {
    scf.yield %once : i32
  } else {
    scf.yield %y : i32
  }
  %r = arith.addi %dead, %picked : i32
  return %r, %once : i32, i32
}
