"""Property: convert-scf-to-cf keeps what structured programs compute.

Random functions from test_scf_semantics' generators (nested `scf.for` with
iter_args, `scf.if` with and without results and `else`, `scf.while`,
`scf.index_switch`, `scf.execute_region`), some with an `scf.parallel` (or, without
reductions, an `scf.forall`) of one or two dimensions and up to two reductions
(wrapping `addi` and `xori`, associative and commutative, so the order the
interpreter combines them in does not matter) whose body nests more of them. The
reference interpreter runs each function on a few inputs before and after the pass;
the results must be equal, the output must verify and hold no structured op, and
print and parse back to the same text.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline

sys.path.insert(0, str(Path(__file__).parent))
# The scf program generators are test_scf_semantics' own, reused as they are.
from test_scf_semantics import _block, _results, _value, _Writer, programs  # noqa: E402

REDUCTIONS = ("addi", "xori")


def _parallel(w: _Writer, depth: int, values: list[str]) -> list[str]:
    """An scf.parallel (without reductions, or an scf.forall) whose body nests scf ops;
    returns its results."""
    dims = w.draw(st.integers(1, 2))
    ivs = [w.fresh() for _ in range(dims)]
    lowers = [w.draw(st.sampled_from(("%c0", "%c1"))) for _ in range(dims)]
    uppers = [w.draw(st.sampled_from(("%c0", "%c1", "%c3", "%n"))) for _ in range(dims)]
    steps = [w.draw(st.sampled_from(("%c1", "%c2"))) for _ in range(dims)]
    kinds = w.draw(st.lists(st.sampled_from(REDUCTIONS), max_size=2))
    results = [w.fresh() for _ in kinds]
    head = (f"scf.parallel ({', '.join(ivs)}) = ({', '.join(lowers)}) to ({', '.join(uppers)}) "
            f"step ({', '.join(steps)})")
    forall = not kinds and w.draw(st.booleans())
    if forall:
        # Its bounds and steps may be constants: %c<k> written as k.
        def entry(name: str) -> str:
            return name[2:] if w.draw(st.booleans()) and name[2:].isdigit() else name
        head = (f"scf.forall ({', '.join(ivs)}) = ({', '.join(map(entry, lowers))}) to "
                f"({', '.join(map(entry, uppers))}) step ({', '.join(map(entry, steps))})")
    if kinds:
        inits = ", ".join(_value(w, values) for _ in kinds)
        types = ", ".join(["i32"] * len(kinds))
        lhs = f"{results[0]}:{len(kinds)}" if len(kinds) > 1 else results[0]
        head = f"{lhs} = {head} init ({inits}) -> ({types})"
    w.emit(depth, head + " {")
    casts = []
    for iv in ivs:
        cast = w.fresh()
        w.emit(depth + 1, f"{cast} = arith.index_cast {iv} : index to i32")
        casts.append(cast)
    inner = _block(w, depth + 1, values + casts, budget=1)
    if kinds:
        operands = ", ".join(_value(w, inner) for _ in kinds)
        w.emit(depth + 1, f"scf.reduce({operands} : {', '.join(['i32'] * len(kinds))}) {{")
        for i, kind in enumerate(kinds):
            if i:
                w.emit(depth + 1, "}, {")
            lhs, rhs, combined = w.fresh(), w.fresh(), w.fresh()
            w.emit(depth + 1, f"^bb0({lhs}: i32, {rhs}: i32):")
            w.emit(depth + 2, f"{combined} = arith.{kind} {lhs}, {rhs} : i32")
            w.emit(depth + 2, f"scf.reduce.return {combined} : i32")
        w.emit(depth + 1, "}")
    elif not forall:
        w.emit(depth + 1, "scf.reduce")
    w.emit(depth, "}")
    if len(kinds) > 1:
        return [f"{results[0]}#{i}" for i in range(len(kinds))]
    return results


@st.composite
def programs_with_parallel(draw) -> str:
    """`@main` as test_scf_semantics.programs builds it, with an scf.parallel between
    two runs of nested scf ops, returning a value the reductions are added to."""
    w = _Writer(draw)
    w.lines = ["func.func @main(%a: i32, %b: i32, %c: i1, %n: index) -> i32 {",
               "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
               "  %c2 = arith.constant 2 : index", "  %c3 = arith.constant 3 : index",
               "  %t = arith.constant true", "  %f = arith.constant false"]
    values = _block(w, 1, ["%a", "%b"], budget=1)
    reduced = _parallel(w, 1, values)
    values = _block(w, 1, values + reduced, budget=1)
    returned = draw(st.sampled_from(values))
    for value in reduced:  # every reduction reaches the result
        total = w.fresh()
        w.emit(1, f"{total} = arith.addi {returned}, {value} : i32")
        returned = total
    w.emit(1, f"return {returned} : i32")
    w.lines.append("}")
    return "\n".join(w.lines)


STRUCTURED = ("scf.for", "scf.if", "scf.while", "scf.parallel", "scf.forall",
              "scf.execute_region", "scf.index_switch")


@settings(max_examples=80, deadline=None)
@given(st.one_of(programs(), programs_with_parallel()))
def test_convert_scf_to_cf_keeps_what_programs_compute(text):
    note(text)
    module = parse_module(text, Context())
    verify(module)
    before = _results(module)
    with PassContext(opt_level=3):
        result = run_pipeline(module, "convert-scf-to-cf")
    assert result.success, [d.message for d in result.diagnostics]
    verify(module)
    after_text = print_op(module)
    note(after_text)
    assert not any(op.name in STRUCTURED for op in module.walk())
    reparsed = parse_module(after_text, Context())
    verify(reparsed)
    assert print_op(reparsed) == after_text
    assert _results(reparsed) == before
