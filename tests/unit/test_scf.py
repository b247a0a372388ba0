"""The scf dialect: the interpreter's semantics of each op (checked against results
worked out by hand), canonicalization keeping what programs compute while removing
what MLIR's patterns remove, memory effects and speculatability seen through the
ops' regions, and loop-invariant-code-motion out of scf loops."""

import pytest

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interfaces.side_effects import is_speculatable, is_trivially_dead
from mlc.ir.interpreter import InterpreterError, UndefinedBehavior, evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

PROGRAMS = """
func.func @sum(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
    %b = arith.addi %a, %x : i32
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @stepped(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c2 iter_args(%a = %x) -> (i32) {
    %b = arith.muli %a, %a : i32
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @unsigned_loop(%x: i32) -> i32 {
  %lb = arith.constant 1 : i8
  %ub = arith.constant -56 : i8
  %s = arith.constant 100 : i8
  %r = scf.for unsigned %i = %lb to %ub step %s iter_args(%a = %x) -> (i32) : i8 {
    %b = arith.addi %a, %x : i32
    scf.yield %b : i32
  }
  return %r : i32
}
func.func @collatz(%v: i32) -> i32 {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %zero = arith.constant 0 : i32
  %r:2 = scf.while (%x = %v, %steps = %zero) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi sgt, %x, %one : i32
    scf.condition(%c) %x, %steps : i32, i32
  } do {
  ^bb0(%x: i32, %s: i32):
    %rem = arith.remsi %x, %two : i32
    %even = arith.cmpi eq, %rem, %zero : i32
    %n = scf.if %even -> (i32) {
      %h = arith.divsi %x, %two : i32
      scf.yield %h : i32
    } else {
      %t = arith.muli %x, %three : i32
      %t1 = arith.addi %t, %one : i32
      scf.yield %t1 : i32
    }
    %s1 = arith.addi %s, %one : i32
    scf.yield %n, %s1 : i32, i32
  }
  return %r#1 : i32
}
func.func @products(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) init (%c0) -> index {
    %p = arith.muli %i, %j : index
    scf.reduce(%p : index) {
    ^bb0(%l: index, %rr: index):
      %s = arith.addi %l, %rr : index
      scf.reduce.return %s : index
    }
  }
  return %r : index
}
func.func @switch(%i: index) -> i32 {
  %a = arith.constant 10 : i32
  %b = arith.constant 20 : i32
  %c = arith.constant 30 : i32
  %r = scf.index_switch %i -> i32
  case 1 {
    scf.yield %a : i32
  }
  case 5 {
    scf.yield %b : i32
  }
  default {
    scf.yield %c : i32
  }
  return %r : i32
}
func.func @branches(%c: i1, %a: i32, %b: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %a : i32
  ^bb2:
    scf.yield %b : i32
  }
  return %r : i32
}
"""


def _parse(text: str):
    module = parse_module(text, Context())
    verify(module)
    return module


@pytest.mark.parametrize("name, args, expected", [
    ("sum", [0, 3], [0]), ("sum", [5, 3], [15]),
    ("stepped", [3], [81]),  # two iterations: 3 -> 9 -> 81
    ("unsigned_loop", [2], [6]),  # 1 and 101 are below 200 (-56 unsigned); signed, none is
    ("collatz", [27], [111]), ("collatz", [1], [0]),
    ("products", [4], [36]), ("products", [0], [0]),
    ("switch", [1], [10]), ("switch", [5], [20]), ("switch", [7], [30]),
    ("branches", [1, 4, 9], [4]), ("branches", [0, 4, 9], [9]),
])
def test_interpreter_runs_scf_ops(name, args, expected):
    assert evaluate(_parse(PROGRAMS), name, args) == expected


def test_a_step_that_is_not_positive_is_undefined():
    module = _parse("""
    func.func @f(%s: index) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      scf.for %i = %c0 to %c4 step %s {
      }
      return
    }""")
    with pytest.raises(UndefinedBehavior):
        evaluate(module, "f", [0])


def test_endless_while_stops():
    module = _parse("""
    func.func @f() {
      %t = arith.constant true
      scf.while : () -> () {
        scf.condition(%t)
      } do {
        scf.yield
      }
      return
    }""")
    from mlc.ir.interpreter import Interpreter

    interp = Interpreter(module, max_branches=1000)
    with pytest.raises(InterpreterError, match="endless"):
        interp.call(interp.lookup_function("f"), [])


CASES = {
    "sum": [[0, 3], [1, -2], [6, 7]],
    "stepped": [[3], [-1]],
    "collatz": [[27], [6]],
    "products": [[3]],
    "switch": [[1], [5], [2]],
    "branches": [[1, 4, 9], [0, 4, 9]],
}


def test_canonicalize_keeps_what_programs_compute():
    before = _parse(PROGRAMS)
    after = _parse(PROGRAMS)
    assert run_pipeline(after, "builtin.module(func.func(canonicalize))").success
    verify(after)
    for name, inputs in CASES.items():
        for args in inputs:
            assert evaluate(after, name, args) == evaluate(before, name, args), (name, args)


def test_canonicalize_removes_loops_of_known_trip_count():
    module = _parse("""
    func.func @f(%x: i32) -> (i32, i32) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %zero = scf.for %i = %c5 to %c0 step %c1 iter_args(%a = %x) -> (i32) {
        %b = arith.addi %a, %a : i32
        scf.yield %b : i32
      }
      %one = scf.for %i = %c0 to %c5 step %c5 iter_args(%a = %x) -> (i32) {
        %b = arith.muli %a, %a : i32
        scf.yield %b : i32
      }
      return %zero, %one : i32, i32
    }""")
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    text = print_op(module)
    assert "scf.for" not in text and "arith.addi" not in text
    assert evaluate(module, "f", [7]) == [7, 49]


def test_memory_effects_and_speculatability_come_from_the_regions():
    module = _parse("""
    func.func @f(%c: i1, %n: index, %m: memref<4xi32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %z = arith.constant 0 : i32
      %pure = scf.if %c -> (index) {
        scf.yield %c0 : index
      } else {
        scf.yield %c1 : index
      }
      scf.for %i = %c0 to %n step %c1 {
        "test.store"(%z, %m, %i) : (i32, memref<4xi32>, index) -> ()
      }
      %unit_step = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
        scf.yield %a : i32
      }
      %other_step = scf.for %i = %c0 to %n step %c2 iter_args(%a = %z) -> (i32) {
        scf.yield %a : i32
      }
      return
    }""")
    ops = [op for op in module.walk() if op.name.startswith("scf.") and op.regions]
    pure_if, storing_for, unit_step, other_step = ops
    assert is_trivially_dead(pure_if) and not is_trivially_dead(storing_for)
    assert is_speculatable(pure_if) and is_speculatable(unit_step)
    assert not is_speculatable(other_step)  # a step other than 1 may never end


def test_licm_hoists_invariant_ops_out_of_scf_loops():
    module = _parse("""
    func.func @f(%x: i32, %n: index) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (i32) {
        %inv = arith.muli %x, %x : i32
        %b = arith.addi %a, %inv : i32
        scf.yield %b : i32
      }
      return %r : i32
    }""")
    before = [evaluate(module, "f", [3, n]) for n in (0, 1, 4)]
    with PassContext(opt_level=3):  # the pass is at level 3
        assert run_pipeline(module, "builtin.module(func.func(loop-invariant-code-motion))").success
    text = print_op(module)
    assert text.index("arith.muli") < text.index("scf.for") < text.index("arith.addi")
    assert [evaluate(module, "f", [3, n]) for n in (0, 1, 4)] == before


def test_while_condition_is_true_in_the_after_region():
    module = parse_module("""
    func.func @f(%x: i32) -> i32 {
      %r:2 = scf.while (%a = %x) : (i32) -> (i32, i1) {
        %c = "foo.cond"(%a) : (i32) -> i1
        scf.condition(%c) %a, %c : i32, i1
      } do {
      ^bb0(%a: i32, %c: i1):
        "foo.use"(%c) : (i1) -> ()
        scf.yield %a : i32
      }
      return %r#0 : i32
    }""", Context(allow_unregistered=True))
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    assert '"foo.use"(%true)' in print_op(module)  # as mlir-opt-22 rewrites it
