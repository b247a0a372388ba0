"""Property: `mem2reg` never changes what a program computes, and promotes every slot
used only by loads and stores.

Random programs: a function over i32 whose blocks form a random acyclic control-flow
graph (each block ends in a `cf.br` or `cf.cond_br` on an argument to later blocks, the
last returns), with two rank-0 `memref.alloca` slots stored at entry, then loaded,
computed with and stored again at random in every block. The reference interpreter runs
it before and after the pass on random arguments.
"""

from __future__ import annotations

from hypothesis import given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.manager import run_pipeline

SLOTS = ("%s0", "%s1")


def _context() -> Context:
    ctx = Context()
    ctx.load_all_available()
    return ctx


@st.composite
def programs(draw):
    count = draw(st.integers(1, 5))
    blocks = []
    for index in range(count):
        lines = [] if index else [f"  {s} = memref.alloca() : memref<i32>" for s in SLOTS] + [
            f"  memref.store %x, {s}[] : memref<i32>" for s in SLOTS]
        values = ["%x", "%y"]
        for step in range(draw(st.integers(0, 3))):
            name = f"%v{index}_{step}"
            if draw(st.booleans()):
                lines.append(f"  {name} = memref.load {draw(st.sampled_from(SLOTS))}[] : memref<i32>")
            else:
                lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
                op = draw(st.sampled_from(("arith.addi", "arith.muli", "arith.xori")))
                lines.append(f"  {name} = {op} {lhs}, {rhs} : i32")
            values.append(name)
            if draw(st.booleans()):
                lines.append(f"  memref.store {name}, {draw(st.sampled_from(SLOTS))}[] : memref<i32>")
        if index == count - 1:
            lines += [f"  %r{i} = memref.load {s}[] : memref<i32>" for i, s in enumerate(SLOTS)]
            lines.append("  return %r0, %r1 : i32, i32")
        elif draw(st.booleans()):
            first = draw(st.integers(index + 1, count - 1))
            second = draw(st.integers(index + 1, count - 1))
            lines.append(f"  cf.cond_br %c{index % 2}, ^bb{first}, ^bb{second}")
        else:
            lines.append(f"  cf.br ^bb{draw(st.integers(index + 1, count - 1))}")
        blocks.append(("" if index == 0 else f"^bb{index}:\n") + "\n".join(lines))
    return ("func.func @main(%c0: i1, %c1: i1, %x: i32, %y: i32) -> (i32, i32) {\n"
            + "\n".join(blocks) + "\n}")


@settings(max_examples=60, deadline=None)
@given(programs(), st.booleans(), st.booleans(),
       st.integers(-(1 << 31), (1 << 31) - 1), st.integers(-(1 << 31), (1 << 31) - 1))
def test_mem2reg_keeps_what_programs_compute(text, c0, c1, x, y):
    note(text)
    original = parse_module(text, _context())
    verify(original)
    module = parse_module(text, _context())
    assert run_pipeline(module, "builtin.module(func.func(mem2reg))").success
    verify(module)
    note(print_op(module))
    assert not [op for op in module.walk() if op.name.startswith("memref.")]
    args = [int(c0), int(c1), x, y]
    assert evaluate(module, "main", args) == evaluate(original, "main", args)
