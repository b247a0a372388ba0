"""The integer range analysis: the range lattice, what it infers across blocks, loops and
calls, what it leaves unknown, and that what it infers holds when the program runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mlc.ir import Context, parse_module, verify
from mlc.ir.analysis.int_range import (
    IntRange,
    evaluate_predicate,
    truncate_range,
    truncation_kinds,
)
from mlc.ir.analysis.int_range_analysis import IntegerRangeAnalysis

sys.path.insert(0, str(Path(__file__).parents[1] / "property"))
from test_int_range_property import recording_interpreter  # noqa: E402


def analyse(text: str):
    module = parse_module(text, Context())
    verify(module)
    analysis = IntegerRangeAnalysis(module)
    values = {}
    for op in module.walk():
        for result in op.results:
            if result.name_hint:
                values[result.name_hint] = result
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if arg.name_hint:
                        values[arg.name_hint] = arg
    return module, analysis, values


def bounds(analysis, value) -> tuple[int, int, int, int] | None:
    range_ = analysis.range_of(value)
    return None if range_ is None else (range_.umin, range_.umax, range_.smin, range_.smax)


# ---------------------------------------------------------------------- the lattice


def test_each_reading_implies_the_other_only_without_crossing_the_sign():
    assert IntRange.from_unsigned(3, 5, 8) == IntRange(8, 3, 5, 3, 5)
    assert IntRange.from_unsigned(100, 200, 8) == IntRange(8, 100, 200, -128, 127)
    assert IntRange.from_signed(-2, -1, 8) == IntRange(8, 254, 255, -2, -1)
    assert IntRange.from_signed(-1, 1, 8) == IntRange(8, 0, 255, -1, 1)
    assert IntRange.constant(-1, 8) == IntRange(8, 255, 255, -1, -1)


def test_union_intersection_and_constants():
    a, b = IntRange.from_signed(-3, 2, 16), IntRange.from_signed(0, 9, 16)
    assert a.union(b) == IntRange(16, 0, 65535, -3, 9)
    assert a.intersection(b) == IntRange(16, 0, 9, 0, 2)
    assert IntRange.constant(7, 4).constant_value() == 7
    # Known in one reading only: still one value.
    assert IntRange(8, 0, 255, -1, -1).constant_value() == 255
    assert IntRange.max_range(8).constant_value() is None


def test_truncation_keeps_what_survives_it():
    # [256, 258] in i16 is [0, 2] in i8; [255, 257] wraps.
    assert truncate_range(IntRange.from_unsigned(256, 258, 16), 8) == IntRange(8, 0, 2, 0, 2)
    assert truncate_range(IntRange.from_unsigned(255, 257, 16), 8).umax == 255
    # A small interval around zero keeps its signed bounds.
    assert truncate_range(IntRange.from_signed(-2, 2, 16), 8).smin == -2
    assert truncation_kinds(IntRange.from_signed(-2, 2, 16), 8) == {"signed"}
    assert truncation_kinds(IntRange.from_unsigned(100, 200, 16), 8) == {"unsigned"}
    assert truncation_kinds(IntRange.from_unsigned(1, 2, 16), 8) == {"signed", "unsigned"}
    assert truncation_kinds(IntRange.from_unsigned(1, 2, 8), 8) == set()


def signed8(low: int, high: int) -> IntRange:
    return IntRange.from_signed(low, high, 8)


@pytest.mark.parametrize("predicate,lhs,rhs,expected", [
    ("slt", signed8(0, 3), signed8(4, 9), True),
    ("sge", signed8(0, 3), signed8(4, 9), False),
    ("slt", signed8(0, 5), signed8(4, 9), None),
    ("eq", signed8(4, 4), signed8(4, 4), True),
    ("eq", signed8(4, 5), signed8(4, 5), None),
    ("ne", signed8(1, 2), signed8(3, 4), True),
    # Apart as signed, but not shown apart as unsigned: not decided.
    ("ne", signed8(-1, -1), IntRange(8, 0, 255, 0, 127), None),
])
def test_comparisons_decided_by_ranges(predicate, lhs, rhs, expected):
    assert evaluate_predicate(predicate, lhs, rhs) is expected


# ---------------------------------------------------------------------- the analysis

BRANCHES = """
func.func @f(%a: i8, %c: i1) -> i8 {
  %c1 = arith.constant 1 : i8
  %c10 = arith.constant 10 : i8
  %x = arith.minui %a, %c10 : i8
  cf.cond_br %c, ^small(%x : i8), ^big(%c10 : i8)
^small(%s: i8):
  %s1 = arith.addi %s, %c1 : i8
  cf.br ^join(%s1 : i8)
^big(%b: i8):
  cf.br ^join(%b : i8)
^join(%j: i8):
  return %j : i8
^dead(%d: i8):
  %dd = arith.addi %d, %c1 : i8
  cf.br ^join(%dd : i8)
}
"""


def test_block_arguments_join_their_predecessors_and_unreachable_blocks_stay_unknown():
    _, analysis, v = analyse(BRANCHES)
    assert bounds(analysis, v["a"]) == (0, 255, -128, 127)
    assert bounds(analysis, v["x"]) == (0, 10, 0, 10)
    assert bounds(analysis, v["s1"]) == (1, 11, 1, 11)
    assert bounds(analysis, v["b"]) == (10, 10, 10, 10)
    assert bounds(analysis, v["j"]) == (1, 11, 1, 11)
    dead = v["d"].owner
    assert not analysis.is_live(dead) and analysis.range_of(v["dd"]) is None


LOOP = """
func.func @count(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  cf.br ^head(%c0, %c5 : i32, i32)
^head(%i: i32, %same: i32):
  %more = arith.cmpi slt, %i, %n : i32
  cf.cond_br %more, ^body, ^exit
^body:
  %next = arith.addi %i, %c1 : i32
  cf.br ^head(%next, %same : i32, i32)
^exit:
  return %i, %same : i32, i32
}
"""


def test_a_value_growing_around_a_loop_is_widened_and_an_unchanged_one_kept():
    _, analysis, v = analyse(LOOP)
    # %next grew from [1, 1] on its second visit: widened to anything at once.
    assert analysis.range_of(v["next"]) == IntRange.max_range(32)
    assert analysis.range_of(v["i"]) == IntRange.max_range(32)
    assert bounds(analysis, v["same"]) == (5, 5, 5, 5)


def test_calls_and_function_arguments_may_be_anything_and_floats_have_no_range():
    _, analysis, v = analyse("""
    func.func private @g(index) -> index
    func.func @f(%x: index, %y: f32) -> (index, f32) {
      %c1 = arith.constant 1 : index
      %r = func.call @g(%c1) : (index) -> index
      %z = arith.negf %y : f32
      return %r, %z : index, f32
    }""")
    assert analysis.range_of(v["r"]) == IntRange.max_range(64)
    assert analysis.range_of(v["x"]) == IntRange.max_range(64)
    assert analysis.range_of(v["z"]) is None and analysis.range_of(v["y"]) is None


def test_a_loop_induction_variable_lies_between_its_bounds():
    _, analysis, v = analyse("""
    func.func @f(%m: memref<?xindex>) {
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c10 = arith.constant 10 : index
      test.for %c2 to %c10 step %c3 {
      ^bb0(%i: index):
        test.store %i, %m[%i] : index, memref<?xindex>
        test.yield
      }
      return
    }""")
    assert bounds(analysis, v["i"]) == (2, 9, 2, 9)


@pytest.mark.parametrize("args", [(0, 0), (3, 1), (-1, 1), (200, 0), (127, 1)])
def test_what_is_inferred_holds_when_the_branches_run(args):
    module, analysis, _ = analyse(BRANCHES + LOOP.replace("@count", "@count_unused"))
    seen = []
    interpreter = recording_interpreter(module, seen)
    interpreter.call(interpreter.lookup_function("f"), list(args))
    assert seen
    for op, results in seen:
        if not op.results:
            continue  # a terminator: it branches or returns
        for result, value in zip(op.results, results):
            range_ = analysis.range_of(result)
            width = range_.width
            assert range_.umin <= value % (1 << width) <= range_.umax
