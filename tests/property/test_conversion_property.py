"""Dialect conversion on random programs.

1. Rollback. Random functions of test-dialect ops (the chain source -> middle ->
   sink, tuple uses, calls with tuple arguments and results, wrappers whose region
   some runs inline or re-wrap, and test.unknown), converted partially or fully, with
   or without the pattern for test.middle, with or without a direct source -> sink
   pattern tried after the chain's patterns were undone. When the conversion fails — often at an op
   far into the module, after many changes — the module prints exactly as before, holds
   the very same op and block objects, and every value has the same users; when it
   succeeds the result verifies and no illegal op or tuple-typed block argument is
   left.
2. Function signatures. Random call graphs passing nested tuples through arguments,
   calls and returns: mlc's function-signature conversion gives what
   `mlir-opt-22 --test-decompose-call-graph-types` gives.
"""

from __future__ import annotations

import subprocess

from hypothesis import given, note
from hypothesis import strategies as st

from mlc.ir import Context, TupleType, parse_module, print_op, verify
from mlc.ir.core.ir import Value
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    apply_full_conversion,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.testing.dialect import MiddleOp, SinkOp, SourceOp, WrapperOp
from mlc.ir.testing.passes import (
    InlineWrapper,
    RewrapByMerge,
    RewrapByRegion,
    is_rewrapped,
    legalize_test_setup,
    signature_conversion_setup,
    tuple_converter,
)

TUPLE = "tuple<i32, f32>"
SIGNATURE = f"(%t: {TUPLE}, %x: i32) -> ({TUPLE}, i32)"


# ---------------------------------------------------------------------- 1. rollback


class _Body:
    """The lines of one function body under construction."""

    def __init__(self, draw, functions: list[str]):
        self.draw = draw
        self.functions = functions
        self.lines: list[str] = []
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def ops(self, ints: list[str], tuples: list[str], indent: str, depth: int) -> None:
        draw = self.draw
        ints, tuples = list(ints), list(tuples)
        kinds = ["source", "middle", "sink", "use_tuple", "call", "unknown", "keep"]
        if depth < 2:
            kinds.append("wrapper")
        for _ in range(draw(st.integers(0, 6))):
            kind = draw(st.sampled_from(kinds))
            x, t = draw(st.sampled_from(ints)), draw(st.sampled_from(tuples))
            if kind in ("source", "middle", "sink"):
                v = self.fresh()
                self.lines.append(f"{indent}{v} = test.{kind} {x} : i32 -> i32")
                ints.append(v)
            elif kind == "use_tuple":
                self.lines.append(f"{indent}test.use_tuple {t} : {TUPLE}")
            elif kind == "call":
                v = self.fresh()
                callee = draw(st.sampled_from(self.functions))
                self.lines.append(f"{indent}{v}:2 = func.call @{callee}({t}, {x}) : "
                                  f"({TUPLE}, i32) -> ({TUPLE}, i32)")
                tuples.append(f"{v}#0")
                ints.append(f"{v}#1")
            elif kind == "unknown":
                self.lines.append(f"{indent}test.unknown {x} : i32")
            elif kind == "keep":  # a legal user of an old-typed value
                self.lines.append(f'{indent}"test.keep"({t}) : ({TUPLE}) -> ()')
            else:
                self.lines.append(f"{indent}test.wrapper {{")
                self.ops(ints, tuples, indent + "  ", depth + 1)
                self.lines.append(f"{indent}}}")
        self.last = (draw(st.sampled_from(ints)), draw(st.sampled_from(tuples)))


@st.composite
def chain_programs(draw) -> str:
    functions = [f"f{i}" for i in range(draw(st.integers(1, 3)))]
    lines = []
    for name in functions:
        body = _Body(draw, functions)
        body.ops(["%x"], ["%t"], "  ", 0)
        x, t = body.last
        lines += [f"func.func @{name}{SIGNATURE} {{", *body.lines,
                  f"  return {t}, {x} : {TUPLE}, i32", "}"]
    return "\n".join(lines) + "\n"


class SourceToSink(ConversionPattern):
    """test.source -> test.sink directly: the last resort (benefit 0) when the chain
    through test.middle cannot be completed, tried after its patterns were undone."""

    root = SourceOp
    benefit = 0

    def match_and_rewrite(self, op, adaptor, rewriter):
        rewriter.replace_op_with_new(op, SinkOp, adaptor.input, result_types=op.result_types)
        return True


def _snapshot(module):
    """What must not change: the text, the op and block objects, each value's uses."""
    ops = list(module.walk())
    blocks = [b for op in ops for r in op.regions for b in r.blocks]
    values: list[Value] = [v for op in ops for v in op.results] + \
        [a for b in blocks for a in b.args]
    uses = [sorted((id(u.owner), u.index) for u in v.uses) for v in values]
    args = [[(a, a.index, a.type) for a in b.args] for b in blocks]
    return print_op(module), ops, blocks, values, uses, args


@given(chain_programs(), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from(["inline", "region", "merge"]))
def test_a_failed_conversion_changes_nothing(text, full, without_middle, fallback, wrapper):
    note(text)
    module = parse_module(text, Context(["test"], allow_unregistered=True))
    verify(module)
    before = _snapshot(module)
    target, patterns, converter = legalize_test_setup()
    if without_middle:
        patterns = PatternSet(p for p in patterns if p.op_class is not MiddleOp)
    if fallback:
        patterns.add(SourceToSink())
    if wrapper == "inline":
        target.add_illegal_op(WrapperOp)
        patterns.add(InlineWrapper())
    else:
        target.add_dynamically_legal_op(WrapperOp, is_rewrapped)
        patterns.add(RewrapByRegion() if wrapper == "region" else RewrapByMerge())
    apply = apply_full_conversion if full else apply_partial_conversion
    result = apply(module, target, patterns, converter)
    note(f"success: {result.success}; {[d.message for d in result.diagnostics]}")
    if not result.success:
        after = _snapshot(module)
        assert after[0] == before[0]  # byte-identical text
        assert after[1:] == before[1:]  # the same objects, arguments and users
        return
    verify(module)
    for op in module.walk():
        assert target.legality(op) is not False, op.name
        if full:
            assert target.legality(op) is True, op.name
        for region in op.regions:
            for block in region.blocks:
                assert not any(isinstance(a.type, TupleType) for a in block.args)


# ---------------------------------------------------------------------- 2. signatures


@st.composite
def tuple_types(draw, depth: int = 0) -> str:
    leaves = st.sampled_from(["i1", "i8", "i32", "f32", "index"])
    if depth >= 2:
        return draw(leaves)
    if draw(st.integers(0, 2)) == 0:
        return draw(leaves)
    parts = draw(st.lists(tuple_types(depth + 1), max_size=3))
    return f"tuple<{', '.join(parts)}>"


@st.composite
def call_graphs(draw) -> str:
    """Functions of random (nested tuple) signatures whose bodies call each other and
    return what they got: no op but calls and returns touches a tuple."""
    count = draw(st.integers(1, 3))
    signatures = [(draw(st.lists(tuple_types(), max_size=3)),
                   draw(st.lists(tuple_types(), max_size=3))) for _ in range(count)]
    lines = []
    for i, (inputs, results) in enumerate(signatures):
        body = _call_graph_body(draw, signatures, inputs, results)
        if body is None:  # nothing of a result type to return: a declaration
            lines.append(f"func.func private @f{i}({', '.join(inputs)}) -> "
                         f"({', '.join(results)})")
            continue
        args = ", ".join(f"%a{j}: {t}" for j, t in enumerate(inputs))
        lines += [f"func.func @f{i}({args}) -> ({', '.join(results)}) {{", *body, "}"]
    return "\n".join(lines) + "\n"


def _call_graph_body(draw, signatures, inputs, results) -> list[str] | None:
    values = [(f"%a{j}", t) for j, t in enumerate(inputs)]

    def pick(types):
        chosen = []
        for t in types:
            candidates = [v for v, vt in values if vt == t]
            if not candidates:
                return None
            chosen.append(draw(st.sampled_from(candidates)))
        return chosen

    lines = []
    for k in range(draw(st.integers(0, 3))):
        callee = draw(st.integers(0, len(signatures) - 1))
        callee_in, callee_out = signatures[callee]
        operands = pick(callee_in)
        if operands is None:
            continue
        name = f"%c{k}"
        defined = f"{name}:{len(callee_out)} = " if len(callee_out) > 1 else \
            f"{name} = " if callee_out else ""
        lines.append(f"  {defined}func.call @f{callee}({', '.join(operands)}) : "
                     f"({', '.join(callee_in)}) -> ({', '.join(callee_out)})")
        if len(callee_out) == 1:
            values.append((name, callee_out[0]))
        else:
            values += [(f"{name}#{r}", t) for r, t in enumerate(callee_out)]
    returned = pick(results)
    if returned is None:
        return None
    types = f" : {', '.join(results)}" if results else ""
    return lines + [f"  return {', '.join(returned)}{types}"]


def _mlir(mlir_opt: str, text: str, *flags: str) -> str:
    run = subprocess.run([mlir_opt, *flags, "-"], input=text, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


@given(call_graphs())
def test_signature_conversion_agrees_with_mlir_opt(mlir_opt, text):
    note(text)
    module = parse_module(text)
    verify(module)
    converter = tuple_converter()
    target, patterns = signature_conversion_setup(converter)
    result = apply_full_conversion(module, target, patterns, converter)
    assert result.success, [d.message for d in result.diagnostics]
    verify(module)
    ours = _mlir(mlir_opt, print_op(module))
    assert ours == _mlir(mlir_opt, text, "--test-decompose-call-graph-types")
