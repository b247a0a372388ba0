"""The cf dialect: block use lists (predecessors), the BranchLike interface, the
interpreter's control flow, and canonicalization (patterns and region
simplification) checked against the interpreter: a program computes the same
before and after."""

import itertools

import pytest

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.core.ir import Block, IRError
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.interpreter import AssertionFailure, InterpreterError, evaluate
from mlc.ir.passes.manager import run_pipeline


def _parse(text: str):
    module = parse_module(text, Context())
    verify(module)
    return module


def _function(module, index: int = 0):
    return list(module.regions[0].ops())[index]


# ---------------------------------------------------------------------- block uses

DIAMOND = """
func.func @f(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2(%x : i32)
^bb1:
  cf.br ^bb2(%x : i32)
^bb2(%y: i32):
  return %y : i32
}
"""


def test_predecessors_follow_successor_edits():
    module = _parse(DIAMOND)
    entry, left, join = _function(module).regions[0].blocks
    assert join.predecessors == [entry, left]
    assert join.single_predecessor is None and join.unique_predecessor is None
    assert left.single_predecessor is entry
    branch = entry.terminator
    branch.set_successor(0, join)  # both ways now go to the join
    assert not left.has_predecessors()
    assert join.unique_predecessor is None  # entry twice, and the left block
    left.terminator.erase()
    assert join.unique_predecessor is entry and join.single_predecessor is None
    assert left.uses == {}


def test_erasing_a_branched_to_block_is_an_error():
    module = _parse(DIAMOND)
    join = _function(module).regions[0].blocks[2]
    with pytest.raises(IRError, match="still branch to"):
        join.erase()


def test_clone_remaps_successors_and_their_uses():
    module = _parse(DIAMOND)
    function = _function(module)
    copy = function.clone()
    entry, left, join = copy.regions[0].blocks
    assert join.predecessors == [entry, left]
    assert all(b not in function.regions[0].blocks for b in entry.successors)


def test_branch_like_successor_operands_of_a_switch():
    module = _parse("""
    func.func @f(%flag: i32, %a: i32, %b: i32) {
      cf.switch %flag : i32, [
        default: ^bb1(%a : i32),
        1: ^bb2(%a, %b : i32, i32),
        2: ^bb1(%b : i32)
      ]
    ^bb1(%x: i32):
      return
    ^bb2(%y: i32, %z: i32):
      return
    }
    """)
    switch = _function(module).regions[0].blocks[0].terminator
    branch = BranchLike.get(switch)
    a, b = switch.operands[1], switch.operands[3]
    assert [branch.successor_operands(switch, i) for i in range(3)] == [[a], [a, b], [b]]
    assert branch.successor_for_operand(switch, 0) is None  # the flag
    assert branch.successor_for_operand(switch, 3) == (1, 1)
    branch.set_successor_operands(switch, 1, [b, a])
    branch.set_successor_operands(switch, 0, [b])
    assert [branch.successor_operands(switch, i) for i in range(3)] == [[b], [b, a], [b]]
    assert switch.attributes["case_operand_segments"].values == (2, 1)
    verify(module)


# ---------------------------------------------------------------------- interpreter

PROGRAMS = """
func.func @sum_to(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^head(%c0, %c0 : i32, i32)
^head(%i: i32, %acc: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^exit(%acc : i32), ^body
^body:
  %next = arith.addi %acc, %i : i32
  %i1 = arith.addi %i, %c1 : i32
  cf.br ^head(%i1, %next : i32, i32)
^exit(%r: i32):
  return %r : i32
}

func.func @classify(%x: i8) -> i32 {
  %t = arith.constant true
  %c10 = arith.constant 10 : i32
  %c20 = arith.constant 20 : i32
  %c30 = arith.constant 30 : i32
  cf.switch %x : i8, [
    default: ^out(%c30 : i32),
    -1: ^out(%c10 : i32),
    5: ^same(%c20 : i32),
    6: ^same(%c20 : i32)
  ]
^same(%v: i32):
  cf.cond_br %t, ^out(%v : i32), ^out(%c10 : i32)
^out(%r: i32):
  return %r : i32
}

func.func @checked(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %x, %c0 : i32
  cf.assert %positive, "x must be positive"
  return %x : i32
}

func.func @diamond(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^l, ^r
^l:
  %p = arith.muli %a, %a : i32
  cf.br ^join(%p, %a : i32, i32)
^r:
  %q = arith.muli %b, %b : i32
  cf.br ^join(%q, %a : i32, i32)
^join(%v: i32, %w: i32):
  %s = arith.addi %v, %w : i32
  return %s : i32
}
"""

CASES = [("sum_to", [n]) for n in (0, 1, 5, 10)] + \
    [("classify", [x]) for x in (-1, 5, 6, 7, 255)] + \
    [("checked", [3])] + \
    [("diamond", [c, a, b]) for c, a, b in itertools.product((0, 1), (3, -2), (7,))]


def test_interpreter_follows_branches():
    module = _parse(PROGRAMS)
    assert evaluate(module, "sum_to", [5]) == [10]
    assert evaluate(module, "classify", [255]) == [10]  # -1 as an i8 is 255
    assert evaluate(module, "classify", [6]) == [20]
    assert evaluate(module, "classify", [0]) == [30]
    assert evaluate(module, "diamond", [1, 3, 7]) == [12]
    with pytest.raises(AssertionFailure, match="x must be positive"):
        evaluate(module, "checked", [0])


def test_interpreter_stops_endless_loops():
    module = _parse("func.func @spin() {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n}")
    from mlc.ir.interpreter import Interpreter

    interpreter = Interpreter(module, max_branches=100)
    with pytest.raises(InterpreterError, match="more than 100 branches"):
        interpreter.call(interpreter.lookup_function("spin"), [])


@pytest.mark.parametrize("level", ["disabled", "normal", "aggressive"])
def test_canonicalize_keeps_what_programs_compute(level):
    before = _parse(PROGRAMS)
    after = _parse(PROGRAMS)
    assert run_pipeline(after, f"builtin.module(func.func(canonicalize{{region-simplify={level}}}))").success
    verify(after)
    for name, args in CASES:
        assert evaluate(after, name, args) == evaluate(before, name, args), (name, args)
    # The branch on a constant and the cases like the default are gone.
    text = print_op(after)
    assert "cf.cond_br %true" not in text
    diamond = _function(after, 3)
    if level == "aggressive":
        # The two arms of @diamond differ only in what they square: they merge, the
        # branch then goes one way with a select, and the blocks fold into one.
        assert len(diamond.regions[0].blocks) == 1
        assert "arith.select %c, %a, %b" in print_op(diamond)
    else:
        assert len(diamond.regions[0].blocks) == 4


def test_region_dce_erases_dead_arguments_and_what_feeds_them():
    module = _parse("""
    func.func @f(%a: i32, %c: i1) -> i32 {
      cf.br ^loop(%a, %a : i32, i32)
    ^loop(%live: i32, %dead: i32):
      %d = arith.addi %dead, %dead : i32
      cf.cond_br %c, ^loop(%live, %d : i32, i32), ^exit
    ^exit:
      return %live : i32
    }
    """)
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    loop = _function(module).regions[0].blocks[1]
    assert [a.name_hint for a in loop.args] == ["live"]
    assert "arith.addi" not in print_op(module)
    assert evaluate(module, "f", [4, 0]) == [4]


def test_new_block_has_no_uses():
    assert Block().uses == {} and not Block().has_predecessors()
