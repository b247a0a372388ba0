"""Property: no pass (loop-invariant-code-motion above all) makes a program run an op that traps or
has undefined behaviour where it would not have run (MLIR's speculatability).

The ops under test are every registered op, of every dialect mlc has, that declares no
memory effects (the only ops the pass may move: what declares effects stays) and that
the reference interpreter runs, in every form `(T, ..., T) -> R` (and `(i1, T, T) -> T`)
it verifies in with its default attributes, T and R among i1, i8, i32, index and f32:
arith's, math's and llvm's integer and float ops and casts, the divisions, remainders
and `math.ipowi` among them. Each random program puts one such op, on function arguments
or on constants of either dialect (edge values: 0, -1, the minimum, NaN, infinities), in
an `scf.for` whose trip count is an argument; the interpreter runs it before and after
the pass with zero and one trips. A hoisted op that traps shows as undefined behaviour
after the pass in a run that had none before. The op may sit under an `scf.if` on an
argument; canonicalize and cse run too, alone and with loop-invariant-code-motion (they
must not speculate either).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
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

TYPES = ("i1", "i8", "i32", "index", "f32")
# Ops that trap for some operands: each must be among the ops tested, and none may be
# declared always speculatable.
TRAPPING = frozenset({
    "arith.divsi", "arith.divui", "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi",
    "arith.remsi", "arith.remui", "llvm.sdiv", "llvm.udiv", "llvm.srem", "llvm.urem",
    "math.ipowi"})
# Ops whose out-of-range results are poison in MLIR and LLVM (which is no harm unused,
# so they may be speculated) but which the interpreter reports eagerly as undefined
# behaviour (see mlc.ir.interpreter): a run of one of them hoisted may turn "undefined".
POISON_REPORTED_EAGERLY = frozenset({"arith.fptosi", "arith.fptoui", "llvm.fptosi",
                                     "llvm.fptoui"})


@dataclass(frozen=True)
class Form:
    """An op in one generic form: its operand types and its result type."""

    name: str
    operands: tuple[str, ...]
    result: str


def _context() -> Context:
    ctx = Context()
    ctx.load_all_available()
    return ctx


def _parse(text: str):
    module = parse_module(text, _context())
    verify(module)
    return module


def _verifies(form: Form) -> bool:
    """Whether `form` parses and verifies with the op's default attributes and declares
    no memory effects once built."""
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(form.operands))
    operands = ", ".join(f"%a{i}" for i in range(len(form.operands)))
    text = (f"func.func @p({params}) -> {form.result} {{\n"
            f"  %r = \"{form.name}\"({operands}) : ({', '.join(form.operands)}) -> {form.result}\n"
            f"  return %r : {form.result}\n}}")
    try:
        module = _parse(text)
    except Exception:  # noqa: BLE001 - any parse or verification error: not this form
        return False
    op = next(op for op in module.walk() if op.name == form.name)
    return is_memory_effect_free(op)


def _arities(op_def) -> tuple[int, ...]:
    """The operand counts to try: the declared one, or 1 to 3 with variadic groups."""
    if any(d.variadic for d in op_def.operands):
        return (1, 2, 3)
    return (len(op_def.operands),) if 1 <= len(op_def.operands) <= 3 else ()


def _forms_of(name: str, op_def) -> list[Form]:
    if len(op_def.results) != 1 or op_def.regions or op_def.successors or any(
            not d.optional for d in op_def.attributes.values()):
        return []  # needs attributes, regions or successors the probe cannot make up
    found = []
    for arity in _arities(op_def):
        for type_ in TYPES:
            shapes = [(type_,) * arity] + ([("i1", type_, type_)] if arity == 3 else [])
            for operands in shapes:
                same = Form(name, operands, type_)
                if _verifies(same):
                    found.append(same)
                    continue
                found += [form for result in TYPES if result != type_
                          for form in [Form(name, operands, result)] if _verifies(form)]
    return found


@cache
def candidates() -> tuple[Form, ...]:
    """Every form of every effect-free registered op the interpreter runs (see the
    module docstring)."""
    found = []
    for dialect in _context().dialects.values():
        for name, cls in sorted(dialect.ops.items()):
            if handler_for(cls) is None or NoMemoryEffect not in cls.op_def.trait_set:
                continue
            found += _forms_of(name, cls.op_def)
    return tuple(found)


def test_every_trapping_op_is_tested_and_none_is_always_speculatable():
    ctx = _context()
    names = {form.name for form in candidates()}
    assert TRAPPING <= names
    assert len(names) > 80  # the non-trapping ops are tested too
    assert {"arith.addf", "arith.sitofp", "math.sqrt", "arith.fptosi", "llvm.add"} <= names  # floats, casts
    for name in TRAPPING:
        op_def = ctx.get_op_class(name).op_def
        assert AlwaysSpeculatable not in op_def.trait_set, name
        assert ConditionallySpeculatable in op_def.interfaces, name


_FLOAT_EDGES = (0.0, -0.0, 1.0, -1.0, 1.5, 1e30, float("inf"), float("-inf"), float("nan"))


def _values(type_: str):
    """Values of `type_`, edge values first (the interpreter's: ints, floats)."""
    if type_ == "f32":
        return st.one_of(st.sampled_from(_FLOAT_EDGES), st.floats(width=32))
    if type_ == "i1":
        return st.sampled_from((0, 1))
    width = 64 if type_ == "index" else int(type_[1:])
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    return st.one_of(st.sampled_from((0, 1, -1, 2, low, high)), st.integers(low, high))


def _literal(value, type_: str) -> str:
    """`value` as a constant's attribute text (a float by its bits: NaN, infinities)."""
    if type_ == "f32":
        return f"0x{struct.unpack('<I', struct.pack('<f', value))[0]:08X} : f32"
    return f"{'true' if value else 'false'}" if type_ == "i1" else f"{value} : {type_}"


@st.composite
def programs(draw):
    """(text, arguments): one candidate op in a loop, and inputs to run it on."""
    form = draw(st.sampled_from(candidates()))
    result = form.result
    lines = ["  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
             f"  %init = arith.constant {_literal(draw(_values(result)), result)}"]
    operands, params, inputs = [], [], []
    for index, type_ in enumerate(form.operands):
        # llvm.mlir.constant has no index constants.
        sources = ("argument", "arith") if type_ == "index" else ("argument", "arith", "llvm")
        source = draw(st.sampled_from(sources))
        value = draw(_values(type_))
        if source == "argument":
            operands.append(f"%x{index}")
            params.append(f", %x{index}: {type_}")
            inputs.append(value)
            continue
        literal = _literal(value, type_)
        if source == "arith":
            lines.append(f"  %k{index} = arith.constant {literal}")
        else:
            text = literal if type_ != "i1" else f"{value} : i1"
            lines.append(f"  %k{index} = llvm.mlir.constant({text}) : {type_}")
        operands.append(f"%k{index}")
    compute = (f"\"{form.name}\"({', '.join(operands)}) : ({', '.join(form.operands)}) "
               f"-> {result}")
    lines.append(f"  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> ({result}) {{")
    if draw(st.booleans()):  # guarded: runs only when %guard holds
        lines += [f"    %g = scf.if %guard -> ({result}) {{",
                  f"      %v = {compute}", f"      scf.yield %v : {result}",
                  "    } else {", f"      scf.yield %acc : {result}", "    }",
                  f"    scf.yield %g : {result}"]
    else:
        lines += [f"    %v = {compute}", f"    scf.yield %v : {result}"]
    lines += ["  }", f"  return %r : {result}"]
    text = (f"func.func @main(%n: index, %guard: i1{''.join(params)}) -> {result} {{\n"
            + "\n".join(lines) + "\n}")
    return form, text, [draw(st.booleans()), *inputs]


def _outcome(module, args):
    try:
        return [repr(v) for v in evaluate(module, "main", args)]  # NaN equals NaN
    except UndefinedBehavior:
        return "undefined behaviour"
    except InterpreterError as error:  # an op the interpreter lacks on this input
        pytest.skip(str(error))


PIPELINES = ("loop-invariant-code-motion", "canonicalize", "cse",
             "loop-invariant-code-motion,canonicalize", "canonicalize,loop-invariant-code-motion")


@settings(max_examples=300, deadline=None)
@given(programs(), st.sampled_from(PIPELINES))
@example((Form("llvm.udiv", ("i32", "i32"), "i32"),
          "func.func @main(%n: index, %guard: i1, %x0: i32) -> i32 {\n"
          "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
          "  %init = arith.constant 0 : i32\n"
          "  %k1 = llvm.mlir.constant(0 : i32) : i32\n"
          "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {\n"
          "    %v = \"llvm.udiv\"(%x0, %k1) : (i32, i32) -> i32\n    scf.yield %v : i32\n  }\n"
          "  return %r : i32\n}", [True, 5]), PIPELINES[0])
@example((Form("math.ipowi", ("i32", "i32"), "i32"),
          "func.func @main(%n: index, %guard: i1, %x0: i32, %x1: i32) -> i32 {\n"
          "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
          "  %init = arith.constant 0 : i32\n"
          "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {\n"
          "    %v = math.ipowi %x0, %x1 : i32\n    scf.yield %v : i32\n  }\n"
          "  return %r : i32\n}", [True, 0, -1]), PIPELINES[0])
def test_no_pass_runs_what_may_trap_where_it_did_not_run(program, pipeline):
    form, text, inputs = program
    note(text)
    module = _parse(text)
    with PassContext(opt_level=3):  # loop-invariant-code-motion and cse are at level 3
        assert run_pipeline(module, f"builtin.module(func.func({pipeline}))").success
    verify(module)
    note(print_op(module))
    original = _parse(text)
    for trips in (0, 1):
        before = _outcome(original, [trips, *inputs])
        after = _outcome(module, [trips, *inputs])
        if before != "undefined behaviour" and not (
                after == "undefined behaviour" and form.name in POISON_REPORTED_EAGERLY):
            assert after == before, f"{trips} trips"
