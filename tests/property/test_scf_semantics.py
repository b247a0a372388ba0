"""Property: canonicalize and loop-invariant-code-motion keep what structured programs
compute.

Random functions nest `scf.for` (constant or argument bounds, zero, one or several
iterations, iter_args that are carried, passed through or unused), `scf.if`
(constant or computed conditions, results or none, with or without `else`),
`scf.while` (counting down a bounded counter), `scf.index_switch` and
`scf.execute_region`; the reference interpreter runs them on a few inputs before and
after each pipeline, and the results must be equal, the output must verify, and a
second canonicalize must change nothing.
"""

from __future__ import annotations

from hypothesis import given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

INPUTS = [(0, 0, 0, 0), (1, 7, 1, 3), (-3, 42, 0, 2), (5, 5, 1, 1)]
OPS = ("addi", "subi", "muli", "xori")


class _Writer:
    """Emits lines with fresh names."""

    def __init__(self, draw):
        self.draw = draw
        self.lines: list[str] = []
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)


def _value(w: _Writer, values: list[str]) -> str:
    return w.draw(st.sampled_from(values))


def _block(w: _Writer, depth: int, values: list[str], budget: int) -> list[str]:
    """Ops at `depth` using `values`; returns the values they add."""
    values = list(values)
    for _ in range(w.draw(st.integers(1, 3))):
        kind = w.draw(st.sampled_from(("arith", "arith", "for", "if", "while", "switch",
                                       "execute")) if budget > 0 else st.just("arith"))
        if kind == "arith":
            name = w.fresh()
            op = w.draw(st.sampled_from(OPS))
            w.emit(depth, f"{name} = arith.{op} {_value(w, values)}, {_value(w, values)} : i32")
            values.append(name)
        elif kind == "for":
            values.extend(_for(w, depth, values, budget - 1))
        elif kind == "if":
            values.extend(_if(w, depth, values, budget - 1))
        elif kind == "while":
            values.append(_while(w, depth, values, budget - 1))
        elif kind == "switch":
            values.append(_switch(w, depth, values, budget - 1))
        else:
            name = w.fresh()
            w.emit(depth, f"{name} = scf.execute_region -> i32 {{")
            inner = _block(w, depth + 1, values, budget - 1)
            w.emit(depth + 1, f"scf.yield {_value(w, inner)} : i32")
            w.emit(depth, "}")
            values.append(name)
    return values


def _for(w: _Writer, depth: int, values: list[str], budget: int) -> list[str]:
    lower = w.draw(st.sampled_from(("%c0", "%c1", "%n")))
    upper = w.draw(st.sampled_from(("%c0", "%c1", "%c3", "%n")))
    step = w.draw(st.sampled_from(("%c1", "%c2")))
    carried = w.draw(st.integers(0, 2))
    iv = w.fresh()
    args = [w.fresh() for _ in range(carried)]
    inits = [_value(w, values) for _ in range(carried)]
    results = [w.fresh() for _ in range(carried)]
    head = f"scf.for {iv} = {lower} to {upper} step {step}"
    if carried:
        pairs = ", ".join(f"{a} = {i}" for a, i in zip(args, inits))
        head = f"{results[0]}:{carried} = " if carried > 1 else f"{results[0]} = "
        head += (f"scf.for {iv} = {lower} to {upper} step {step} iter_args({pairs}) -> "
                 f"({', '.join(['i32'] * carried)})")
    w.emit(depth, head + " {")
    inner_values = values + args
    cast = w.fresh()
    w.emit(depth + 1, f"{cast} = arith.index_cast {iv} : index to i32")
    inner = _block(w, depth + 1, inner_values + [cast], budget)
    if carried:
        yielded = [_value(w, inner) for _ in range(carried)]
        w.emit(depth + 1, f"scf.yield {', '.join(yielded)} : {', '.join(['i32'] * carried)}")
    w.emit(depth, "}")
    if carried > 1:
        return [f"{results[0]}#{i}" for i in range(carried)]
    return results


def _if(w: _Writer, depth: int, values: list[str], budget: int) -> list[str]:
    condition = w.draw(st.sampled_from(("%c", "%t", "%f", "cmp")))
    if condition == "cmp":
        condition = w.fresh()
        w.emit(depth, f"{condition} = arith.cmpi slt, {_value(w, values)}, "
               f"{_value(w, values)} : i32")
    count = w.draw(st.integers(0, 2))
    with_else = count > 0 or w.draw(st.booleans())
    result = w.fresh()
    types = ", ".join(["i32"] * count)
    lhs = "" if not count else (f"{result} = " if count == 1 else f"{result}:{count} = ")
    w.emit(depth, f"{lhs}scf.if {condition}" + (f" -> ({types})" if count else "") + " {")
    for branch in ("then", "else") if with_else else ("then",):
        if branch == "else":
            w.emit(depth, "} else {")
        inner = _block(w, depth + 1, values, budget)
        if count:
            w.emit(depth + 1, f"scf.yield {', '.join(_value(w, inner) for _ in range(count))}"
                   f" : {types}")
    w.emit(depth, "}")
    if count == 1:
        return [result]
    return [f"{result}#{i}" for i in range(count)]


def _while(w: _Writer, depth: int, values: list[str], budget: int) -> str:
    """A loop counting an index down from at most 3, carrying one i32."""
    counter, acc, cond = w.fresh(), w.fresh(), w.fresh()
    result = w.fresh()
    start = w.draw(st.sampled_from(("%c0", "%c1", "%c3")))
    w.emit(depth, f"{result}:2 = scf.while ({counter} = {start}, {acc} = "
           f"{_value(w, values)}) : (index, i32) -> (index, i32) {{")
    w.emit(depth + 1, f"{cond} = arith.cmpi sgt, {counter}, %c0 : index")
    w.emit(depth + 1, f"scf.condition({cond}) {counter}, {acc} : index, i32")
    w.emit(depth, "} do {")
    arg_counter, arg_acc = w.fresh(), w.fresh()
    w.emit(depth, f"^bb0({arg_counter}: index, {arg_acc}: i32):")
    inner = _block(w, depth + 1, values + [arg_acc], budget)
    next_counter = w.fresh()
    w.emit(depth + 1, f"{next_counter} = arith.subi {arg_counter}, %c1 : index")
    w.emit(depth + 1, f"scf.yield {next_counter}, {_value(w, inner)} : index, i32")
    w.emit(depth, "}")
    return f"{result}#1"


def _switch(w: _Writer, depth: int, values: list[str], budget: int) -> str:
    selector = w.draw(st.sampled_from(("%n", "%c1", "%c3")))
    result = w.fresh()
    w.emit(depth, f"{result} = scf.index_switch {selector} -> i32")
    for case in sorted(w.draw(st.sets(st.integers(0, 3), max_size=2))):
        w.emit(depth, f"case {case} {{")
        inner = _block(w, depth + 1, values, budget)
        w.emit(depth + 1, f"scf.yield {_value(w, inner)} : i32")
        w.emit(depth, "}")
    w.emit(depth, "default {")
    inner = _block(w, depth + 1, values, budget)
    w.emit(depth + 1, f"scf.yield {_value(w, inner)} : i32")
    w.emit(depth, "}")
    return result


@st.composite
def programs(draw) -> str:
    """`@main(%a: i32, %b: i32, %c: i1, %n: index) -> i32` with nested scf ops."""
    w = _Writer(draw)
    w.lines = ["func.func @main(%a: i32, %b: i32, %c: i1, %n: index) -> i32 {",
               "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
               "  %c2 = arith.constant 2 : index", "  %c3 = arith.constant 3 : index",
               "  %t = arith.constant true", "  %f = arith.constant false"]
    values = _block(w, 1, ["%a", "%b"], budget=3)
    w.emit(1, f"return {draw(st.sampled_from(values))} : i32")
    w.lines.append("}")
    return "\n".join(w.lines)


def _parse(text: str):
    module = parse_module(text, Context())
    verify(module)
    return module


def _results(module) -> list:
    return [evaluate(module, "main", list(args)) for args in INPUTS]


@settings(max_examples=60, deadline=None)
@given(programs(), st.sampled_from(("canonicalize", "loop-invariant-code-motion",
                                    "loop-invariant-code-motion,canonicalize")))
def test_passes_keep_what_scf_programs_compute(text, pipeline):
    note(text)
    before = _results(_parse(text))
    module = _parse(text)
    with PassContext(opt_level=3):  # loop-invariant-code-motion is at level 3
        assert run_pipeline(module, f"builtin.module(func.func({pipeline}))").success
    verify(module)
    after_text = print_op(module)
    note(after_text)
    assert _results(_parse(after_text)) == before
    if pipeline.endswith("canonicalize"):
        again = _parse(after_text)
        assert run_pipeline(again, "builtin.module(func.func(canonicalize))").success
        assert print_op(again) == after_text
