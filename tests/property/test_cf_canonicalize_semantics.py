"""Property: canonicalize keeps what branching programs compute, at every
region-simplify level.

Random functions of several blocks (cf.br, cf.cond_br, cf.switch, with block
arguments, branches on constants, both ways into one block, blocks that only jump
on, twin blocks that differ only in the values they use) are run by the reference
interpreter on a few inputs before and after `canonicalize`; the results must be
equal, the output must verify, and a second run must change nothing. Branches only
go forward, so every program ends.
"""

from __future__ import annotations

import re

from hypothesis import given, note
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.manager import run_pipeline

INPUTS = [(0, 0, 0), (1, 7, 1), (-3, 42, 0), (5, 5, 1)]
OPS = ("addi", "subi", "muli", "xori")


def _successor(target: int, passed: list[str]) -> str:
    """`^bbN` with the values it is passed: `^bb2(%a, %v1 : i32, i32)`."""
    if not passed:
        return f"^bb{target}"
    return f"^bb{target}({', '.join(passed)} : {', '.join(['i32'] * len(passed))})"


@st.composite
def programs(draw) -> str:
    """The text of `@main(%a: i32, %b: i32, %c: i1) -> i32`, blocks ^bb1..^bbN after
    the entry, each branching only to later blocks; the last returns."""
    count = draw(st.integers(2, 6))
    arity = [0] + [draw(st.integers(0, 2)) for _ in range(count)]
    lines = ["func.func @main(%a: i32, %b: i32, %c: i1) -> i32 {",
             "  %k0 = arith.constant 0 : i32", "  %k3 = arith.constant 3 : i32",
             "  %t = arith.constant true", "  %f = arith.constant false"]
    fresh = iter(range(10_000))
    bodies: dict[int, list[str]] = {}
    jumps: dict[int, tuple[int, list[str]]] = {}  # block -> cf.br target and operands
    for block in range(count + 1):
        if block:
            args = [f"%p{block}_{i}" for i in range(arity[block])]
            header = f"^bb{block}" + (f"({', '.join(a + ': i32' for a in args)})" if args else "")
            lines.append(header + ":")
        else:
            args = []
        values = ["%a", "%b", "%k0", "%k3", *args]
        twin = block > 1 and draw(st.booleans()) and block - 1 in bodies \
            and arity[block] == arity[block - 1]
        body: list[str] = []
        if twin:  # the previous block's ops, on this block's arguments
            renames = {f"%p{block - 1}_{i}": f"%p{block}_{i}" for i in range(arity[block])}
            for line in bodies[block - 1]:
                renames[line.split("=")[0].strip()] = new = f"%v{next(fresh)}"
                body.append(re.sub(r"%\w+", lambda m, r=renames: r.get(m.group(0), m.group(0)),
                                   line))
                values.append(new)
        else:
            for _ in range(draw(st.integers(0, 2))):
                name = f"%v{next(fresh)}"
                op = draw(st.sampled_from(OPS))
                lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
                body.append(f"  {name} = arith.{op} {lhs}, {rhs} : i32")
                values.append(name)
        bodies[block] = body
        lines.extend(body)
        later = list(range(block + 1, count + 1))

        def edge(target: int, values=values) -> str:
            return _successor(target, [draw(st.sampled_from(values)) for _ in range(arity[target])])

        kind = draw(st.sampled_from(("br", "cond_br", "switch", "return"))) if later else "return"
        copied = jumps.get(block - 1) if twin else None
        if copied is not None and copied[0] > block:
            # A twin jumps where its model jumps, passing its own values: mergeable.
            target, passed = copied
            passed = [renames.get(v, v) for v in passed]
            lines.append(f"  cf.br {_successor(target, passed)}")
            continue
        if kind == "return":
            lines.append(f"  return {draw(st.sampled_from(values))} : i32")
        elif kind == "br":
            target = draw(st.sampled_from(later))
            passed = [draw(st.sampled_from(values)) for _ in range(arity[target])]
            jumps[block] = (target, passed)
            lines.append(f"  cf.br {_successor(target, passed)}")
        elif kind == "cond_br":
            condition = draw(st.sampled_from(("%c", "%t", "%f", "cmp")))
            if condition == "cmp":
                condition = f"%v{next(fresh)}"
                lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
                lines.append(f"  {condition} = arith.cmpi slt, {lhs}, {rhs} : i32")
            first = draw(st.sampled_from(later))
            second = first if draw(st.booleans()) else draw(st.sampled_from(later))
            lines.append(f"  cf.cond_br {condition}, {edge(first)}, {edge(second)}")
        else:
            flag = draw(st.sampled_from(["%k3", *values]))
            cases = draw(st.lists(st.integers(-2, 4), max_size=3, unique=True))
            entries = [f"default: {edge(draw(st.sampled_from(later)))}"]
            entries += [f"{v}: {edge(draw(st.sampled_from(later)))}" for v in cases]
            lines.append(f"  cf.switch {flag} : i32, [ {', '.join(entries)} ]")
    lines.append("}")
    return "\n".join(lines)


def _run(text: str, level: str):
    module = parse_module(text, Context())
    verify(module)
    pipeline = f"builtin.module(func.func(canonicalize{{region-simplify={level}}}))"
    assert run_pipeline(module, pipeline).success
    verify(module)
    return module


@given(programs(), st.sampled_from(("disabled", "normal", "aggressive")))
def test_canonicalize_keeps_results(text, level):
    note(text)
    original = parse_module(text, Context())
    verify(original)
    expected = [evaluate(original, "main", list(inputs)) for inputs in INPUTS]
    module = _run(text, level)
    after = print_op(module)
    note(after)
    assert [evaluate(module, "main", list(inputs)) for inputs in INPUTS] == expected
    # Converged: a second run has nothing left to do.
    assert print_op(_run(after, level)) == after
