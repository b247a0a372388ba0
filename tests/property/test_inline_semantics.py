"""Property: `inline` never changes what a program computes, and leaves no call it
could inline (a call graph without cycles: only a body of several blocks called in
an `scf.if` stays) and no unused private function.

Random programs: private functions @f0..@fN over i32, each a few arith ops on its
arguments and on the results of calls to earlier functions (a call graph without
cycles), some of them of several blocks (a `cf.cond_br` to two returns), some calls
inside an `scf.if`; @main calls the last. The reference interpreter runs @main before
and after the pass on random arguments.
"""

from __future__ import annotations

from hypothesis import given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interpreter import UndefinedBehavior, evaluate
from mlc.ir.passes.manager import run_pipeline

OPS = ("arith.addi", "arith.subi", "arith.muli", "arith.xori", "arith.maxsi")


def _context() -> Context:
    ctx = Context()
    ctx.load_all_available()
    return ctx


@st.composite
def programs(draw):
    count = draw(st.integers(1, 4))
    functions = []
    for index in range(count):
        lines, values = [], ["%a", "%b"]
        for step in range(draw(st.integers(1, 4))):
            lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            if index and draw(st.booleans()):
                callee = draw(st.integers(0, index - 1))
                call = f"func.call @f{callee}({lhs}, {rhs}) : (i32, i32) -> i32"
                if draw(st.booleans()):
                    lines += [f"  %c{step} = arith.cmpi slt, {lhs}, {rhs} : i32",
                              f"  %v{step} = scf.if %c{step} -> i32 {{",
                              f"    %w{step} = {call}", f"    scf.yield %w{step} : i32",
                              "  } else {", f"    scf.yield {lhs} : i32", "  }"]
                else:
                    lines.append(f"  %v{step} = {call}")
            else:
                lines.append(f"  %v{step} = {draw(st.sampled_from(OPS))} {lhs}, {rhs} : i32")
            values.append(f"%v{step}")
        last = values[-1]
        if draw(st.booleans()):  # several blocks
            lines += [f"  %p = arith.cmpi sgt, {last}, %a : i32", "  cf.cond_br %p, ^bb1, ^bb2",
                      "^bb1:", f"  return {last} : i32", "^bb2:", "  return %b : i32"]
        else:
            lines.append(f"  return {last} : i32")
        functions.append(f"func.func private @f{index}(%a: i32, %b: i32) -> i32 {{\n"
                         + "\n".join(lines) + "\n}")
    functions.append(f"func.func @main(%a: i32, %b: i32) -> i32 {{\n"
                     f"  %r = func.call @f{count - 1}(%a, %b) : (i32, i32) -> i32\n"
                     "  return %r : i32\n}")
    return "\n".join(functions)


def _run(module, args):
    try:
        return evaluate(module, "main", args)
    except UndefinedBehavior:
        return "undefined behaviour"


@settings(max_examples=60, deadline=None)
@given(programs(), st.lists(st.integers(-(1 << 31), (1 << 31) - 1), min_size=2, max_size=2))
def test_inline_keeps_what_programs_compute(text, args):
    note(text)
    original = parse_module(text, _context())
    verify(original)
    module = parse_module(text, _context())
    assert run_pipeline(module, "builtin.module(inline)").success
    verify(module)
    note(print_op(module))
    functions = {op.sym_name.value: op for op in module.regions[0].ops()}
    called = set()
    for call in (op for op in module.walk() if op.name == "func.call"):
        # Only a body of several blocks called in an scf.if's one-block region stays.
        callee = functions[call.callee.root]
        assert call.parent_op.name == "scf.if" and len(callee.body.blocks) > 1
        called.add(call.callee.root)
    assert set(functions) == {"main"} | called  # the unused private functions are gone
    assert _run(module, args) == _run(original, args)
