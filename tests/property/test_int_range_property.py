"""Property tests of the integer range analysis and the passes built on it.

* Soundness: for random arith/func programs (arith_programs.py) run by the reference
  interpreter on random inputs, every integer value an op computes lies in the range
  the analysis inferred for it, read unsigned and read signed.
* The passes never change what a program computes (inputs hitting undefined behaviour
  skipped, as in test_passes_preserve_semantics.py): int-range-optimizations,
  arith-int-range-narrowing, arith-unsigned-when-equivalent.
* The range rules are MLIR's: for random operand ranges (test.with_bounds) of each
  integer op, the ranges test.reflect_bounds reports after --int-range-optimizations
  are the ones mlir-opt-22 reports.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.analysis.int_range import IntRange, signed, storage_width, unsigned
from mlc.ir.analysis.int_range_analysis import IntegerRangeAnalysis
from mlc.ir.interfaces.int_range import infer_result_ranges
from mlc.ir.interpreter import (
    POISON,
    Interpreter,
    InterpreterError,
    UndefinedBehavior,
    evaluate,
    handler_for,
)
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
import arith_programs as P  # noqa: E402
from test_passes_preserve_semantics import check_preserves, input_sets  # noqa: E402

# The ops, types and casts the properties draw from.
TYPES = ("i8", "i16", "i32", "i64", "index", "i1")
BINARY_OPS = ("addi", "subi", "muli", "divsi", "divui", "ceildivsi", "ceildivui", "floordivsi",
              "remsi", "remui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi",
              "maxui", "minsi", "minui")
FLAGGED = ("addi", "subi", "muli", "shli")
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CASTS = {"extsi": ("i8", "i16"), "extui": ("i8", "i16"), "trunci": ("i16", "i8"),
         "index_cast": ("index", "i32"), "index_castui": ("i32", "index")}


def _width(type_name: str) -> int:
    return 64 if type_name == "index" else int(type_name[1:])


# ============================================================================ soundness


def recording_interpreter(module, seen: list) -> Interpreter:
    """An interpreter that appends (op, results) for every op it runs to `seen`."""

    def recording(handler):
        def run(interp, op, operands):
            results = handler(interp, op, operands)
            seen.append((op, results))
            return results
        return run

    op_classes = {type(op) for op in module.walk()}
    return Interpreter(module, handlers={cls: recording(handler_for(cls)) for cls in op_classes
                                         if handler_for(cls) is not None})


@given(P.programs(), st.data())
def test_every_computed_value_lies_in_its_inferred_range(program, data):
    note(program.text)
    module = parse_module(program.text, Context())
    verify(module)
    analysis = IntegerRangeAnalysis(module)
    for args in data.draw(input_sets(program)):
        seen: list = []
        interpreter = recording_interpreter(module, seen)
        try:
            interpreter.call(interpreter.lookup_function(program.entry), list(args))
        except InterpreterError:
            pass  # values computed before undefined behaviour still count
        for op, results in seen:
            for result, value in zip(op.results, results):
                width = storage_width(result.type)
                if not width or value is POISON:  # poison may be any value: in every range
                    continue
                range_ = analysis.range_of(result)
                assert range_ is not None, f"no range for a result of {op.name}"
                assert range_.umin <= unsigned(value, width) <= range_.umax and \
                    range_.smin <= signed(value, width) <= range_.smax, (
                        f"{op.name} computed {value} on inputs {args}, outside its inferred "
                        f"range {range_}")


RULE_CASES = ([f"arith.{op}" for op in BINARY_OPS] + [f"arith.cmpi {p}" for p in PREDICATES]
              + [f"arith.{op}" for op in CASTS])


@st.composite
def op_on_values(draw, spelling: str):
    """The op `spelling` (`arith.addi`, `arith.cmpi slt`, ...) on a random type with
    random flags, and a few values for each of its operands."""
    op = spelling.split()[0][len("arith."):]
    if op in CASTS:
        source, target = CASTS[op]
        text, operand_types, result = f"%r = {spelling} %a : {source} to {target}", (source,), \
            target
    else:
        type_name = draw(st.sampled_from(TYPES))
        operand_types = (type_name, type_name)
        flags = draw(st.sampled_from(["", " overflow<nsw>", " overflow<nuw>"])) \
            if op in FLAGGED else ""
        separator = "," if op == "cmpi" else ""
        result = "i1" if op == "cmpi" else type_name
        text = f"%r = {spelling}{separator} %a, %b{flags} : {type_name}"
    names = ("%a", "%b")[:len(operand_types)]
    params = ", ".join(f"{n}: {t}" for n, t in zip(names, operand_types))
    module_text = f"func.func @f({params}) -> {result} {{\n  {text}\n  return %r : {result}\n}}"
    values = []
    for type_name in operand_types:
        width = _width(type_name)
        # Around a power of two, or minus one (those where the types' readings change
        # sign and casts wrap, often): where the rules' corner cases are.
        exponents = st.one_of(st.sampled_from([k for k in (7, 8, 15, 16, 31, 32) if k < width]
                                              or [0]), st.integers(0, width - 1))
        center = draw(st.one_of(
            st.integers(0, (1 << width) - 1), st.sampled_from([0, (1 << width) - 1]),
            exponents.map(lambda k: 1 << k),
            exponents.map(lambda k, w=width: unsigned(-(1 << k), w))))
        near = st.integers(-3, 3).map(lambda d, c=center, w=width: unsigned(c + d, w))
        values.append(draw(st.lists(st.one_of(near, st.integers(0, (1 << width) - 1)),
                                    min_size=1, max_size=4)))
    return module_text, values


def _hull(values: list[int], width: int) -> IntRange:
    """The smallest range holding `values` (given as unsigned bits) in both readings."""
    readings = [signed(v, width) for v in values]
    return IntRange(width, min(values), max(values), min(readings), max(readings))


@pytest.mark.parametrize("spelling", RULE_CASES)
@settings(max_examples=200)
@given(data=st.data())
def test_range_rules_hold_for_the_values_they_bound(spelling, data):
    """Each rule's range, for operand ranges that are the hulls of a few values, holds
    the result of every combination of those values (as the interpreter computes it)."""
    module_text, values = data.draw(op_on_values(spelling))
    note(module_text)
    module = parse_module(module_text, Context())
    function = next(iter(module.regions[0].blocks[0].ops()))
    op = function.regions[0].blocks[0].first_op
    widths = [storage_width(v.type) for v in op.operands]
    ranges = [_hull(vs, w) for vs, w in zip(values, widths)]
    [range_] = infer_result_ranges(op, ranges)
    result_width = storage_width(op.results[0].type)
    for args in itertools.product(*values):
        try:
            [result] = evaluate(module, "f", [signed(a, w) for a, w in zip(args, widths)])
        except UndefinedBehavior:
            continue
        assert range_.umin <= unsigned(result, result_width) <= range_.umax and \
            range_.smin <= signed(result, result_width) <= range_.smax, (
                f"{args} -> {result}, outside {range_} (operands {[str(r) for r in ranges]})")


# ============================================================================ the passes preserve results


@given(P.programs(), st.data())
def test_int_range_optimizations_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)), "int-range-optimizations")


@given(P.programs(), st.data())
def test_int_range_narrowing_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)),
                    "arith-int-range-narrowing{int-bitwidths-supported=1,8,16,24,32}")


@given(P.programs(), st.data())
def test_unsigned_when_equivalent_preserves_results(program, data):
    check_preserves(program, data.draw(input_sets(program)), "arith-unsigned-when-equivalent")


# Random programs hardly bound their values: these do, so that the passes have work.
# Each argument is clamped to a random interval (signed or unsigned), masked, or
# extended from i8; then integer ops, comparisons and selects combine what is there.
MAIN_TYPES = {"i16": P.i16, "i32": P.i32, "i64": P.i64, "index": P.index_type}


@st.composite
def bounded_programs(draw) -> P.Program:
    type_name = draw(st.sampled_from(sorted(MAIN_TYPES)))
    width = _width(type_name)
    lines: list[str] = []
    params: list[str] = []
    arg_types = []
    values: list[str] = []
    flags: list[str] = []
    counter = iter(range(1000))

    def constant(value: int, t: str = type_name) -> str:
        name = f"%k{next(counter)}"
        lines.append(f"{name} = arith.constant {value} : {t}")
        return name

    def small() -> int:
        return draw(st.one_of(st.integers(-20, 300), st.sampled_from([0, 1, 127, 128, 255])))

    for k in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(("clamp_unsigned", "clamp_signed", "mask", "extend")))
        arg = f"%a{k}"
        value = f"%v{k}"
        if how == "extend":
            params.append(f"{arg}: i8")
            arg_types.append(P.i8)
            signed_cast = draw(st.booleans())
            op = ("index_cast" if signed_cast else "index_castui") if type_name == "index" \
                else ("extsi" if signed_cast else "extui")
            lines.append(f"{value} = arith.{op} {arg} : i8 to {type_name}")
        else:
            params.append(f"{arg}: {type_name}")
            arg_types.append(MAIN_TYPES[type_name])
            if how == "mask":
                mask = constant((1 << draw(st.integers(0, 12))) - 1)
                lines.append(f"{value} = arith.andi {arg}, {mask} : {type_name}")
            else:
                low, high = sorted((small(), small()))
                if how == "clamp_unsigned":
                    low, high = sorted((low % (1 << width), high % (1 << width)))
                kind = "u" if how == "clamp_unsigned" else "s"
                t = f"%t{k}"
                lines.append(f"{t} = arith.max{kind}i {arg}, {constant(low)} : {type_name}")
                lines.append(f"{value} = arith.min{kind}i {t}, {constant(high)} : {type_name}")
        values.append(value)
    for step in range(draw(st.integers(1, 8))):
        name = f"%s{step}"

        def operand() -> str:
            if draw(st.integers(0, 4)) == 0:
                return constant(small())
            return draw(st.sampled_from(values))

        kind = draw(st.sampled_from(("binary", "binary", "binary", "cmpi", "select")))
        if kind == "binary":
            op = draw(st.sampled_from(BINARY_OPS))
            lines.append(f"{name} = arith.{op} {operand()}, {operand()} : {type_name}")
            values.append(name)
        elif kind == "cmpi":
            predicate = draw(st.sampled_from(PREDICATES))
            lines.append(f"{name} = arith.cmpi {predicate}, {operand()}, {operand()} : {type_name}")
            flags.append(name)
        elif flags:
            lines.append(f"{name} = arith.select {draw(st.sampled_from(flags))}, {operand()}, "
                         f"{operand()} : {type_name}")
            values.append(name)
    results = values[-3:] + flags[-2:]
    result_types = [type_name] * len(values[-3:]) + ["i1"] * len(flags[-2:])
    body = "\n  ".join(lines)
    text = (f"func.func @main({', '.join(params)}) -> ({', '.join(result_types)}) {{\n  {body}\n"
            f"  return {', '.join(results)} : {', '.join(result_types)}\n}}\n")
    return P.Program(text, "main", tuple(arg_types), ())


PASSES = ("int-range-optimizations", "arith-unsigned-when-equivalent",
          "arith-int-range-narrowing{int-bitwidths-supported=1,8,16,24,32}",
          "arith-int-range-narrowing{int-bitwidths-supported=32,8}")


@pytest.mark.parametrize("pipeline", PASSES)
@settings(max_examples=150)
@given(data=st.data())
def test_passes_preserve_results_of_bounded_programs(pipeline, data):
    program = data.draw(bounded_programs())
    check_preserves(program, data.draw(input_sets(program)), pipeline)


# ============================================================================ the rules are MLIR's

@st.composite
def with_bounds(draw, type_name: str) -> str:
    """A test.with_bounds of `type_name` with ordered unsigned and signed bounds, drawn
    near the type's extremes and zero at times."""
    width = _width(type_name)
    special = st.sampled_from([0, 1, 2, 3, (1 << (width - 1)) - 1, 1 << (width - 1),
                               (1 << width) - 1, (1 << width) - 2])
    bits = st.one_of(special, st.integers(0, (1 << width) - 1), st.integers(0, 20))
    umin, umax = sorted((draw(bits), draw(bits)))
    smin, smax = sorted((signed(draw(bits), width), signed(draw(bits), width)))
    # index attributes are spelled signed; integer ones may use the unsigned spelling.
    umin_text = signed(umin, width) if type_name in ("index", "i1") else umin
    umax_text = signed(umax, width) if type_name in ("index", "i1") else umax
    return (f"test.with_bounds {{umin = {umin_text} : {type_name}, umax = {umax_text} : "
            f"{type_name}, smin = {smin} : {type_name}, smax = {smax} : {type_name}}} : "
            f"{type_name}")


@st.composite
def range_case(draw) -> str:
    """A function computing one op on operands of random ranges and reflecting the
    result's range."""
    kind = draw(st.sampled_from(("binary", "cmpi", "select", "cast")))
    if kind == "cast":
        op, (source, target) = draw(st.sampled_from(sorted(CASTS.items())))
        body = [f"%a = {draw(with_bounds(source))}",
                f"%r = arith.{op} %a : {source} to {target}"]
        result = target
    else:
        type_name = draw(st.sampled_from(TYPES))
        body = [f"%a = {draw(with_bounds(type_name))}", f"%b = {draw(with_bounds(type_name))}"]
        if kind == "binary":
            op = draw(st.sampled_from(BINARY_OPS))
            flags = draw(st.sampled_from(["", " overflow<nsw>", " overflow<nuw>",
                                          " overflow<nsw, nuw>"])) if op in FLAGGED else ""
            body.append(f"%r = arith.{op} %a, %b{flags} : {type_name}")
            result = type_name
        elif kind == "cmpi":
            body.append(f"%r = arith.cmpi {draw(st.sampled_from(PREDICATES))}, %a, %b : "
                        f"{type_name}")
            result = "i1"
        else:
            body.append(f"%c = {draw(with_bounds('i1'))}")
            body.append(f"%r = arith.select %c, %a, %b : {type_name}")
            result = type_name
    body.append(f"%x = test.reflect_bounds %r : {result}")
    lines = "\n  ".join(body)
    return f"func.func @case() -> {result} {{\n  {lines}\n  return %x : {result}\n}}"


_REFLECTED = re.compile(r"test\.reflect_bounds \{([^}]*)\}")


@settings(max_examples=30)
@given(st.lists(range_case(), min_size=20, max_size=40))
def test_reflected_ranges_are_mlirs(mlir_opt, cases):
    text = "\n".join(case.replace("@case", f"@case{i}") for i, case in enumerate(cases))
    note(text)
    theirs = subprocess.run([mlir_opt, "--int-range-optimizations", "-"], input=text,
                            capture_output=True, text=True, check=False)
    assert theirs.returncode == 0, theirs.stderr
    module = parse_module(text, Context())
    with PassContext(opt_level=3):
        assert run_pipeline(module, "int-range-optimizations").success
    ours = _REFLECTED.findall(print_op(module))
    expected = _REFLECTED.findall(theirs.stdout)
    assert len(ours) == len(expected) == len(cases)
    for case, mine, mlir in zip(cases, ours, expected):
        assert mine == mlir, f"{case}\nmlc:  {mine}\nmlir: {mlir}"
