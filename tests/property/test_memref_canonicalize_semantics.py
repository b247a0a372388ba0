"""Property: canonicalize keeps what programs on buffers compute.

Random functions allocate buffers (sizes given as constants or arguments), view
them through casts and subviews (offsets, sizes and strides constants, arguments or
static, so the constant folders and the subview and alloc canonicalizations fire),
store and load through the views, ask `memref.dim`, and copy between buffers; some
buffers are only written and freed. The reference interpreter runs each program on a
few inputs before and after `canonicalize`: the results and the final contents of the
argument buffer must be equal, the output must verify.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, note, settings
from hypothesis import strategies as st

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.manager import run_pipeline

ROWS, COLS = 4, 6


def _index(draw, value: int, name: str, lines: list[str], args: dict[str, int]) -> str:
    """`value` as a constant op, a function argument or a static entry."""
    how = draw(st.sampled_from(["static", "constant", "argument"]))
    if how == "static":
        return str(value)
    if how == "constant":
        lines.append(f"  %{name} = arith.constant {value} : index")
        return f"%{name}"
    args[name] = value
    return f"%{name}"


@st.composite
def programs(draw) -> tuple[str, dict[str, int]]:
    """The text of `@main(%m: memref<4x6xi32>, %x: i32, index args...) -> (i32, ...)`
    and the values of its index arguments."""
    lines: list[str] = []
    args: dict[str, int] = {}
    results: list[str] = []
    lines.append("  %c0 = arith.constant 0 : index")
    lines.append("  %c1 = arith.constant 1 : index")
    for k in range(draw(st.integers(1, 3))):
        # A view of the argument buffer, through a cast and a subview.
        source, source_type = "%m", f"memref<{ROWS}x{COLS}xi32>"
        if draw(st.booleans()):
            lines.append(f"  %cast{k} = memref.cast %m : {source_type} to memref<?x{COLS}xi32>")
            source, source_type = f"%cast{k}", f"memref<?x{COLS}xi32>"
        r0 = draw(st.integers(0, ROWS - 1))
        c0 = draw(st.integers(0, COLS - 1))
        stride = draw(st.integers(1, 2))
        rows = draw(st.integers(1, ROWS - r0))
        cols = draw(st.integers(1, (COLS - 1 - c0) // stride + 1))
        entries = [_index(draw, v, f"e{k}_{i}", lines, args)
                   for i, v in enumerate((r0, c0, rows, cols, stride))]
        sizes = "x".join("?" if e.startswith("%") else e for e in entries[2:4])
        offset = "?" if any(e.startswith("%") for e in entries[0:2]) else r0 * COLS + c0
        col_stride = "?" if entries[4].startswith("%") else stride
        view_type = f"memref<{sizes}xi32, strided<[{COLS}, {col_stride}], offset: {offset}>>"
        lines.append(f"  %v{k} = memref.subview {source}[{entries[0]}, {entries[1]}] "
                     f"[{entries[2]}, {entries[3]}] [1, {entries[4]}] : {source_type} to {view_type}")
        i, j = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
        lines.append(f"  %i{k} = arith.constant {i} : index")
        lines.append(f"  %j{k} = arith.constant {j} : index")
        if draw(st.booleans()):
            lines.append(f"  memref.store %x, %v{k}[%i{k}, %j{k}] : {view_type}")
        lines.append(f"  %l{k} = memref.load %v{k}[%i{k}, %j{k}] : {view_type}")
        lines.append(f"  %d{k} = memref.dim %v{k}, %c1 : {view_type}")
        results += [(f"%l{k}", "i32"), (f"%d{k}", "index")]
    # A scratch buffer of a constant or argument size: only written and freed, or
    # read back.
    size = draw(st.integers(1, 4))
    entry = _index(draw, size, "n", lines, args)
    if entry.startswith("%"):
        lines.append(f"  %buf = memref.alloc({entry}) : memref<?xi32>")
        buf_type = "memref<?xi32>"
    else:
        lines.append(f"  %buf = memref.alloc() : memref<{size}xi32>")
        buf_type = f"memref<{size}xi32>"
    lines.append(f"  memref.store %x, %buf[%c0] : {buf_type}")
    if draw(st.booleans()):
        lines.append(f"  %lb = memref.load %buf[%c0] : {buf_type}")
        lines.append(f"  %db = memref.dim %buf, %c0 : {buf_type}")
        results += [("%lb", "i32"), ("%db", "index")]
    lines.append(f"  memref.dealloc %buf : {buf_type}")
    params = "".join(f", %{name}: index" for name in args)
    text = "\n".join([
        f"func.func @main(%m: memref<{ROWS}x{COLS}xi32>, %x: i32{params}) -> "
        f"({', '.join(t for _, t in results)}) {{",
        *lines,
        f"  return {', '.join(v for v, _ in results)} : {', '.join(t for _, t in results)}",
        "}"])
    return text, args


def _run(module, x: int, args: dict[str, int]):
    buffer = np.arange(ROWS * COLS, dtype=np.int32).reshape(ROWS, COLS)
    return evaluate(module, "main", [buffer, x, *args.values()]), buffer


@settings(max_examples=60, deadline=None)
@given(programs())
def test_canonicalize_keeps_what_buffer_programs_compute(program):
    text, args = program
    note(text)
    module = parse_module(text, Context())
    verify(module)
    before = [_run(module, x, args) for x in (-5, 77)]
    assert run_pipeline(module, "builtin.module(func.func(canonicalize))").success
    note(print_op(module))
    verify(module)
    for x, (results, buffer) in zip((-5, 77), before):
        after, after_buffer = _run(module, x, args)
        assert after == results
        np.testing.assert_array_equal(after_buffer, buffer)
