"""Property: no pass (loop-invariant-code-motion above all) makes a program run an op that traps or
has undefined behaviour where it would not have run (MLIR's speculatability).

The ops under test are every registered op, of every dialect mlc has, that declares
no memory effects (the only ops the pass may move) and that the reference interpreter
runs on integers as `(T, T) -> T` or `(T) -> T`: arith's and llvm's integer ops
among them, the divisions and remainders included. Each random program puts one
such op, on function arguments or on constants of either dialect (edge values: 0,
-1, the minimum), in an `scf.for` whose trip count is an argument; the interpreter
runs it before and after the pass with zero and one trips. A hoisted op that traps
shows as undefined behaviour after the pass in a run that had none before. The op may
sit under an `scf.if` on an argument; canonicalize and cse run too, alone and with
loop-invariant-code-motion (they must not speculate either).
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import example, given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interfaces.side_effects import ConditionallySpeculatable, is_memory_effect_free
from mlc.ir.interpreter import InterpreterError, UndefinedBehavior, evaluate, handler_for
from mlc.ir.opdef.traits import AlwaysSpeculatable, NoMemoryEffect
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

WIDTHS = (8, 32)
# Ops that trap for some divisor: each must be among the ops tested, and none may be
# declared always speculatable.
DIVISIONS = frozenset({
    "arith.divsi", "arith.divui", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi",
    "arith.remsi", "arith.remui", "llvm.sdiv", "llvm.udiv", "llvm.srem", "llvm.urem"})


def _context() -> Context:
    ctx = Context()
    ctx.load_all_available()
    return ctx


def _parse(text: str):
    module = parse_module(text, _context())
    verify(module)
    return module


def _probe(name: str, arity: int) -> bool:
    """Whether `name` takes `arity` operands of one integer type and gives one result of
    it, in generic form with its default attributes."""
    operands = ", ".join(f"%a{i}" for i in range(arity))
    types = ", ".join(["i8"] * arity)
    params = ", ".join(f"%a{i}: i8" for i in range(arity))
    text = (f"func.func @p({params}) -> i8 {{\n  %r = \"{name}\"({operands}) : ({types}) -> i8\n"
            "  return %r : i8\n}")
    try:
        module = _parse(text)
    except Exception:  # noqa: BLE001 - any parse or verification error: not this form
        return False
    op = next(op for op in module.walk() if op.name == name)
    return is_memory_effect_free(op)


@cache
def candidates() -> tuple[tuple[str, int], ...]:
    """(op name, arity) of every effect-free registered op the interpreter runs on
    integers (see the module docstring)."""
    found = []
    for dialect in _context().dialects.values():
        for name, cls in sorted(dialect.ops.items()):
            if handler_for(cls) is None or NoMemoryEffect not in cls.op_def.trait_set:
                continue
            found += [(name, arity) for arity in (1, 2) if _probe(name, arity)]
    return tuple(found)


def test_every_division_is_tested_and_none_is_always_speculatable():
    ctx = _context()
    names = {name for name, _ in candidates()}
    assert DIVISIONS <= names
    assert len(names) > len(DIVISIONS)  # the non-trapping ops are tested too
    for name in DIVISIONS:
        op_def = ctx.get_op_class(name).op_def
        assert AlwaysSpeculatable not in op_def.trait_set, name
        assert ConditionallySpeculatable in op_def.interfaces, name


def _edge_values(width: int):
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    return st.one_of(st.sampled_from((0, 1, -1, 2, low, high)), st.integers(low, high))


@st.composite
def programs(draw):
    """(text, arguments): one candidate op in a loop, and inputs to run it on."""
    name, arity = draw(st.sampled_from(candidates()))
    width = draw(st.sampled_from(WIDTHS))
    type_ = f"i{width}"
    lines = ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
             f"  %init = arith.constant 0 : {type_}"]
    operands = []
    for index in range(arity):
        source = draw(st.sampled_from(("argument", "arith", "llvm")))
        if source == "argument":
            operands.append(f"%x{index}")
            continue
        value = draw(_edge_values(width))
        name_ = f"%k{index}"
        if source == "arith":
            lines.append(f"  {name_} = arith.constant {value} : {type_}")
        else:
            lines.append(f"  {name_} = llvm.mlir.constant({value} : {type_}) : {type_}")
        operands.append(name_)
    types = ", ".join([type_] * arity)
    compute = f"\"{name}\"({', '.join(operands)}) : ({types}) -> {type_}"
    lines.append(f"  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> ({type_}) {{")
    if draw(st.booleans()):  # guarded: runs only when %guard holds
        lines += [f"    %g = scf.if %guard -> ({type_}) {{",
                  f"      %v = {compute}", f"      scf.yield %v : {type_}",
                  "    } else {", f"      scf.yield %acc : {type_}", "    }",
                  f"    scf.yield %g : {type_}"]
    else:
        lines += [f"    %v = {compute}", f"    scf.yield %v : {type_}"]
    lines += ["  }", f"  return %r : {type_}"]
    params = "".join(f", %x{i}: {type_}" for i in range(arity))
    text = (f"func.func @main(%n: index, %guard: i1{params}) -> {type_} {{\n"
            + "\n".join(lines) + "\n}")
    inputs = [draw(st.booleans()), *(draw(_edge_values(width)) for _ in range(arity))]
    return text, inputs


def _outcome(module, args):
    try:
        return evaluate(module, "main", args)
    except UndefinedBehavior:
        return "undefined behaviour"
    except InterpreterError as error:  # an op the interpreter lacks on this input
        pytest.skip(str(error))


PIPELINES = ("loop-invariant-code-motion", "canonicalize", "cse",
             "loop-invariant-code-motion,canonicalize", "canonicalize,loop-invariant-code-motion")


@settings(max_examples=300, deadline=None)
@given(programs(), st.sampled_from(PIPELINES))
@example(("func.func @main(%n: index, %guard: i1, %x0: i32) -> i32 {\n"
          "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
          "  %init = arith.constant 0 : i32\n"
          "  %k1 = llvm.mlir.constant(0 : i32) : i32\n"
          "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {\n"
          "    %v = \"llvm.udiv\"(%x0, %k1) : (i32, i32) -> i32\n    scf.yield %v : i32\n  }\n"
          "  return %r : i32\n}", [True, 5]), PIPELINES[0])
def test_no_pass_runs_what_may_trap_where_it_did_not_run(program, pipeline):
    text, inputs = program
    note(text)
    module = _parse(text)
    with PassContext(opt_level=3):  # loop-invariant-code-motion and cse are at level 3
        assert run_pipeline(module, f"builtin.module(func.func({pipeline}))").success
    verify(module)
    note(print_op(module))
    original = _parse(text)
    for trips in (0, 1):
        before = _outcome(original, [trips, *inputs])
        if before != "undefined behaviour":
            assert _outcome(module, [trips, *inputs]) == before, f"{trips} trips"
