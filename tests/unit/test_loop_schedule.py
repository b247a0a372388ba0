"""Schedules (mlc.loop.schedule): each primitive transforms the kernel as TVM's does,
keeps what it computes (checked with the interpreter against numpy), is recorded in
a trace that prints as Python and replays from JSON; a refused primitive raises a
located ScheduleError and leaves the IR unchanged."""

import json

import numpy as np
import pytest

from mlc.ir import parse_module, print_op, verify
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import evaluate
from mlc.loop import te
from mlc.loop.schedule import (
    AnnotationError,
    DecomposeReductionError,
    DependencyError,
    InvalidFactorsError,
    LoopKindError,
    LoopStructureError,
    NotFoundError,
    NotInlinableError,
    PredicateError,
    SamplingError,
    Schedule,
    ScheduleError,
    Trace,
)


def module_of(*funcs):
    module = ModuleOp.build()
    for func in funcs:
        module.body.append(func)
    return parse_module(print_op(module))


def mm_relu(n=8):
    A = te.placeholder((n, n), name="A")
    B = te.placeholder((n, n), name="B")
    k = te.reduce_axis(n, name="k")
    Y = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((n, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    return module_of(te.create_prim_func([A, B, C]))


def check_mm_relu(module, n=8):
    verify(module)
    rng = np.random.default_rng(7)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    evaluate(module, "main", [a, b, c])
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)


def test_the_course_schedule_keeps_the_result_and_replays():
    original = mm_relu()
    sch = Schedule(original)
    block_Y = sch.get_block("Y")
    i, j, k = sch.get_loops(block_Y)
    j0, j1 = sch.split(j, factors=[None, 4])
    sch.reorder(j0, k, j1)
    sch.reverse_compute_at(sch.get_block("C"), j0)
    sch.decompose_reduction(block_Y, k)
    check_mm_relu(sch.mod)
    check_mm_relu(original)  # the schedule worked on a copy
    assert str(sch.trace).splitlines() == [
        'b0 = sch.get_block(name="Y")',
        "l1, l2, l3 = sch.get_loops(block=b0)",
        "l4, l5 = sch.split(loop=l2, factors=[None, 4])",
        "sch.reorder(l4, l3, l5)",
        'b6 = sch.get_block(name="C")',
        "sch.reverse_compute_at(block=b6, loop=l4)",
        "b7 = sch.decompose_reduction(block=b0, loop=l3)",
    ]
    replayed = Schedule(original)
    Trace.from_json(json.loads(sch.trace.dumps())).apply(replayed)
    assert print_op(replayed.mod) == print_op(sch.mod)


def test_fuse_split_parallel_vectorize_unroll_annotate():
    sch = Schedule(mm_relu())
    i, j = sch.get_loops(sch.get_block("C"))
    fused = sch.fuse(i, j)
    outer, inner = sch.split(fused, factors=[16, None])
    sch.parallel(outer)
    sch.vectorize(inner)
    _, _, k = sch.get_loops(sch.get_block("Y"))
    k0, k1 = sch.split(k, factors=[2, 4])
    sch.unroll(k1)
    sch.annotate(k0, "pragma_auto_unroll_max_step", 16)
    text = print_op(sch.mod)
    assert "loop.for parallel %i_j_fused_0 = 0 to 16" in text
    assert "loop.for vectorized %i_j_fused_1 = 0 to 4" in text
    assert "%vi = spatial(8, (%i_j_fused_0 * 4 + %i_j_fused_1) floordiv 8)" in text
    assert "loop.for unrolled %k_1 = 0 to 4" in text
    assert "{pragma_auto_unroll_max_step = 16 : i64}" in text
    check_mm_relu(sch.mod)


def test_compute_at_computes_the_producer_per_tile():
    sch = Schedule(mm_relu())
    i, j = sch.get_loops(sch.get_block("C"))
    sch.compute_at(sch.get_block("Y"), j)
    text = print_op(sch.mod)
    assert 'loop.block "Y"(%vi = spatial(8, %i), %vj = spatial(8, %j), %vk = reduce(8, %ax0))' in text
    check_mm_relu(sch.mod)


def test_compute_inline_folds_an_elementwise_stage_into_its_consumer():
    X = te.placeholder(8, name="X")
    T = te.compute(8, lambda i: X[i] * 2.0, name="T")
    Y = te.compute(8, lambda i: te.exp(T[i]), name="Y")
    sch = Schedule(module_of(te.create_prim_func([X, Y])))
    sch.compute_inline(sch.get_block("T"))
    text = print_op(sch.mod)
    assert 'loop.block "T"' not in text and "loop.alloc_buffer" not in text
    x, y = np.arange(8, dtype=np.float32) / 8, np.zeros(8, np.float32)
    evaluate(sch.mod, "main", [x, y])
    np.testing.assert_allclose(y, np.exp(x * 2), rtol=1e-6)


def test_sampling_is_seeded_and_replays_its_decisions():
    first = Schedule(mm_relu(), seed=3)
    _, _, k = first.get_loops(first.get_block("Y"))
    tiles = first.sample_perfect_tile(k, n=3, max_innermost_factor=4)
    assert np.prod(tiles) == 8 and tiles[-1] <= 4
    choice = first.sample_categorical([1, 2, 4], [0.2, 0.3, 0.5])
    again = Schedule(mm_relu(), seed=3)
    _, _, k = again.get_loops(again.get_block("Y"))
    assert again.sample_perfect_tile(k, n=3, max_innermost_factor=4) == tiles
    assert again.sample_categorical([1, 2, 4], [0.2, 0.3, 0.5]) == choice
    replayed = Schedule(mm_relu(), seed=99)
    Trace.from_json(first.trace.as_json()).apply(replayed)
    assert replayed.trace.instructions[-2].outputs == tiles


REFUSALS = [
    (lambda s: s.split(s.get_loops(s.get_block("Y"))[2], factors=[2, 3]),
     "the split factors' product 6 is less than the loop's extent 8", InvalidFactorsError),

    (lambda s: s.split(s.get_loops(s.get_block("Y"))[2], factors=[0, None]),
     "split factors must be positive integers", InvalidFactorsError),
    (lambda s: s.fuse(s.get_loops(s.get_block("Y"))[0], s.get_loops(s.get_block("Y"))[2]),
     "the loops to fuse must be nested directly", LoopStructureError),
    (lambda s: s.parallel(s.get_loops(s.get_block("Y"))[2]),
     'cannot make the loop parallel: it is bound to reduce iteration variable #2 of block "Y"', LoopKindError),
    (lambda s: s.vectorize(s.get_loops(s.get_block("Y"))[2]),
     "cannot make the loop vectorized", LoopKindError),
    (lambda s: s.reorder(s.get_loops(s.get_block("Y"))[0], s.get_loops(s.get_block("C"))[1]),
     "the loops to reorder are not on one chain", LoopStructureError),
    (lambda s: s.reverse_compute_at(s.get_block("C"), s.get_loops(s.get_block("Y"))[2]),
     'block "Y" reduces over a loop outside the target loop', DependencyError),
    (lambda s: s.compute_at(s.get_block("C"), s.get_loops(s.get_block("Y"))[0]),
     "compute_at: no block under the loop reads a buffer the block writes", DependencyError),
    (lambda s: s.decompose_reduction(s.get_block("C"), s.get_loops(s.get_block("C"))[0]),
     'block "C" has no init to decompose', DecomposeReductionError),
    (lambda s: s.compute_inline(s.get_block("Y")), 'cannot inline block "Y": it is a reduction', NotInlinableError),
    (lambda s: s.compute_inline(s.get_block("C")),
     'cannot inline block "C": it writes a buffer the kernel does not allocate', NotInlinableError),
    (lambda s: s.get_block("Z"), 'no block named "Z" in @main', NotFoundError),
    (lambda s: s.annotate(s.get_loops(s.get_block("Y"))[0], "extent", 3),
     "'extent' is not an annotation but the op's own attribute", AnnotationError),
    (lambda s: s.sample_perfect_tile(s.get_loops(s.get_block("Y"))[0], n=2,
                                     max_innermost_factor=0),
     "no tiling of 8 into 2 factors", SamplingError),
]


@pytest.mark.parametrize("primitive, message, kind", REFUSALS)
def test_refusals_leave_the_ir_unchanged(primitive, message, kind):
    sch = Schedule(mm_relu())
    before = print_op(sch.mod)
    with pytest.raises(kind, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        primitive(sch)
    assert type(info.value) is kind  # one ScheduleError subclass per kind of refusal
    assert print_op(sch.mod) == before
    verify(sch.mod)


def _split_by_3(sch, block, loop):
    """Split loop #`loop` of `block` by 3 (8 does not divide: a predicate)."""
    return sch.split(sch.get_loops(sch.get_block(block))[loop], factors=[None, 3])


PREDICATE_REFUSALS = [
    ("Y", 2, lambda s, parts: s.rfactor(parts[1], -1),
     'rfactor: block "Y" has a predicate (where)'),
    ("Y", 0, lambda s, parts: s.reverse_compute_at(s.get_block("Y"), s.get_loops(
        s.get_block("C"))[0]), "reverse_compute_at: the block has a predicate (where)"),
    ("C", 1, lambda s, parts: s.reverse_compute_inline(s.get_block("C")),
     'reverse_compute_inline: block "C" has a predicate (where)'),
]


@pytest.mark.parametrize("block, loop, primitive, message", PREDICATE_REFUSALS)
def test_primitives_that_cannot_carry_a_predicate_refuse_it(block, loop, primitive, message):
    sch = Schedule(mm_relu())
    parts = _split_by_3(sch, block, loop)
    before = print_op(sch.mod)
    with pytest.raises(PredicateError, match=message.replace("(", r"\(").replace(")", r"\)")):
        primitive(sch, parts)
    assert print_op(sch.mod) == before


def test_a_split_past_the_extent_guards_the_block_with_a_predicate():
    sch = Schedule(mm_relu(7))
    i, j, k = sch.get_loops(sch.get_block("Y"))
    i0, i1 = sch.split(i, factors=[None, 3])        # 3 x 3 = 9 > 7
    k0, k1 = sch.split(k, factors=[3, 4])           # 12 > 7
    sch.reorder(i0, j, k0, k1, i1)
    assert "where(%i_0 * 3 + %i_1 < 7, %k_0 * 4 + %k_1 < 7)" in print_op(sch.mod)
    # The epilogue follows the tile of rows; its last tile is cut by a predicate too.
    sch.reverse_compute_at(sch.get_block("C"), i0)
    assert "where(%i_0 * 3 + %ax0 < 7)" in print_op(sch.mod)
    sch.decompose_reduction(sch.get_block("Y"), k0)
    init = print_op(sch.mod).split('"Y_init"')[1].splitlines()[0]
    assert "where(%i_0 * 3 + %i_1_init < 7)" in init  # the reduction's condition is gone
    check_mm_relu(sch.mod, 7)
    text = print_op(sch.mod)
    assert print_op(parse_module(text)) == text


def test_a_predicate_runs_the_block_only_where_it_holds():
    module = parse_module("""
      func.func @main(%X: memref<10xf32>, %Y: memref<10xf32>) {
        loop.for %i0 = 0 to 4 {
          loop.for %i1 = 0 to 4 {
            loop.block "Y"(%vi = spatial(10, %i0 * 4 + %i1 - 3))
                where(%i0 * 4 + %i1 < 13, %i1 * 2 + %i0 < 9) {
              %x = loop.load %X[%vi] : memref<10xf32>
              loop.store %x, %Y[%vi] : memref<10xf32>
            }
          }
        }
        return
      }""")
    x = np.arange(10, dtype=np.float32)
    y = np.full(10, -1.0, np.float32)
    with pytest.raises(Exception, match="outside its domain"):
        verify(module)  # i0 * 4 + i1 - 3 is -3 at i0 = i1 = 0: no condition rules it out
    module = parse_module(print_op(module).replace(" - 3", "").replace("< 13", "< 10"))
    evaluate(module, "main", [x, y])
    expected = np.full(10, -1.0, np.float32)
    for i0 in range(4):
        for i1 in range(4):
            if i0 * 4 + i1 < 10 and i1 * 2 + i0 < 9:
                expected[i0 * 4 + i1] = x[i0 * 4 + i1]
    np.testing.assert_array_equal(y, expected)


def test_stale_handles_are_refused():
    sch = Schedule(mm_relu())
    i, j, k = sch.get_loops(sch.get_block("Y"))
    sch.split(j, factors=[2, 4])
    with pytest.raises(ScheduleError, match="names a loop or block that a primitive removed"):
        sch.parallel(j)


def test_bad_traces_are_refused():
    with pytest.raises(ValueError, match="unknown primitive 'tile'"):
        Trace.from_json([["tile", [], {}, []]])
    with pytest.raises(ValueError, match="entry #0 is not"):
        Trace.from_json([["split"]])


def test_reverse_compute_inline_stores_the_epilogue_directly():
    sch = Schedule(mm_relu())
    sch.decompose_reduction(sch.get_block("Y"), sch.get_loops(sch.get_block("Y"))[0])
    with pytest.raises(ScheduleError, match="its input must have one producer store"):
        sch.reverse_compute_inline(sch.get_block("C"))
    X = te.placeholder(8, name="X")
    T = te.compute(8, lambda i: X[i] * 2.0, name="T")
    Y = te.compute(8, lambda i: te.exp(T[i]) + X[i], name="Y")
    sch = Schedule(module_of(te.create_prim_func([X, Y])))
    sch.reverse_compute_inline(sch.get_block("Y"))
    text = print_op(sch.mod)
    assert 'loop.block "Y"' not in text and "loop.alloc_buffer" not in text
    assert "writes(%Y[%vi])" in text
    x, y = np.arange(8, dtype=np.float32) / 8, np.zeros(8, np.float32)
    evaluate(sch.mod, "main", [x, y])
    np.testing.assert_allclose(y, np.exp(x * 2) + x, rtol=1e-6)


def test_cache_read_and_cache_write_copy_through_new_buffers():
    sch = Schedule(mm_relu())
    block_Y = sch.get_block("Y")
    copy_A = sch.cache_read(block_Y, 0, "local")
    copy_Y = sch.cache_write(block_Y, 0, "local")
    text = print_op(sch.mod)
    assert '%A_local = loop.alloc_buffer {scope = "local"} : memref<8x8xf32>' in text
    assert 'loop.block "A_local"' in text and 'loop.block "Y_local"' in text
    assert "reads(%A_local[%vi, %vk], %B[%vk, %vj]) writes(%Y_local[%vi, %vj])" in text
    assert sch.get(copy_A).block_name_str == "A_local"
    assert sch.get(copy_Y).block_name_str == "Y_local"
    check_mm_relu(sch.mod)
    with pytest.raises(ScheduleError, match="the block reads 2 buffers, there is no #2"):
        sch.cache_read(block_Y, 2, "local")


def test_a_block_read_at_a_data_dependent_index_inlines_but_is_not_computed_at():
    # A gather of relu(X): inlining relu composes it at the loaded index; compute_at
    # cannot bound the rows the gather reads, and says so.
    X = te.placeholder((5, 3), name="X")
    rows = te.placeholder((4,), "int32", name="rows")
    R = te.compute((5, 3), lambda i, j: te.maximum(X[i, j], 0.0), name="R")
    Y = te.compute((4, 3), lambda i, j: R[rows[i], j] * 2.0, name="Y")
    module = module_of(te.create_prim_func([X, rows, Y], name="main"))
    sch = Schedule(module)
    with pytest.raises(ScheduleError, match="an index is not affine in the loops"):
        sch.compute_at(sch.get_block("R", func_name="main"),
                       sch.get_loops(sch.get_block("Y", func_name="main"))[0])
    sch.compute_inline(sch.get_block("R", func_name="main"))
    text = print_op(sch.mod)
    assert "loop.alloc_buffer" not in text and "reads(%rows[%vi], %X[?, %vj])" in text
    reparsed = parse_module(text)
    verify(reparsed)
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    index, y = np.array([0, 4, 3, 4], np.int32), np.zeros((4, 3), np.float32)
    evaluate(reparsed, "main", [x, index, y])
    np.testing.assert_array_equal(y, np.maximum(x[index], 0) * 2)


def test_a_handle_of_the_wrong_kind_is_refused_where_it_points():
    sch = Schedule(mm_relu())
    block = sch.get_block("Y")
    with pytest.raises(ScheduleError, match=r"expected a loop handle, got b0 \(a block\)"):
        sch.split(block, factors=[2, 4])
    with pytest.raises(ScheduleError, match="get_block takes a block name and a function name"):
        sch.get_block(3)


def test_decompose_reduction_of_an_init_whose_store_lists_unused_reduce_variables():
    # graph-lower-to-loop's 1x1 convolution stores its init through a map over all
    # seven iteration variables; the init block, placed before the whole nest, has no
    # reduce variable to give it (found by tests/property/test_native_pipeline_property.py).
    from mlc.ir.passes.context import PassContext
    from mlc.ir.passes.manager import run_pipeline

    module = parse_module("""
    func.func @main(%x: tensor<1x1x1x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
      %y = graph.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
      return %y : tensor<1x1x1x1xf32>
    }""")
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-optimize,graph-lower-to-loop").success
    sch = Schedule(module)
    block = sch.get_block("conv2d_nchw", func_name="fused_conv2d")
    sch.decompose_reduction(block, sch.get_loops(block)[0])
    verify(sch.mod)
    reparsed = parse_module(print_op(sch.mod))
    x, w = np.full((1, 1, 1, 1), 3, np.float32), np.full((1, 1, 1, 1), -2, np.float32)
    out = np.full((1, 1, 1, 1), 7, np.float32)
    evaluate(reparsed, "main", [x, w, out])
    assert out.item() == -6


def _producer_between():
    """Y = A + 1; Z = Y * 2 (reads Y); W = Y + Z: a block between Y's loop and W."""
    A = te.placeholder((8,), "float32", name="A")
    Y = te.compute((8,), lambda i: A[i] + 1.0, name="Y")
    Z = te.compute((8,), lambda i: Y[i] * 2.0, name="Z")
    W = te.compute((8,), lambda i: Y[i] + Z[i], name="W")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, W], name="main"))
    return module


def test_a_move_past_a_block_that_depends_on_it_is_refused():
    # W reads Z, which a block between Y's loop and W writes: W cannot move under
    # Y's loop (it would read Z before it is written); Y cannot move under W's loop
    # past Z, which reads Y.
    sch = Schedule(_producer_between())
    before = print_op(sch.mod)
    (y_loop,) = sch.get_loops(sch.get_block("Y"))
    with pytest.raises(DependencyError, match='block "Z" between the loop and the block'):
        sch.reverse_compute_at(sch.get_block("W"), y_loop)
    (w_loop,) = sch.get_loops(sch.get_block("W"))
    with pytest.raises(DependencyError, match='block "Z" between the block and the loop'):
        sch.compute_at(sch.get_block("Y"), w_loop)
    assert print_op(sch.mod) == before


def test_cache_write_of_a_rank_zero_buffer():
    X = te.placeholder((4,), "float32", name="X")
    k = te.reduce_axis(4, name="k")
    S = te.compute((), lambda: te.sum(X[k], axis=k), name="S")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([X, S], name="main"))
    sch = Schedule(module)
    copy = sch.cache_write(sch.get_block("S"), 0, "local")
    assert sch.get(copy).block_name_str == "S_local"
    verify(sch.mod)
    x = np.arange(4, dtype=np.float32)
    s = np.zeros((), np.float32)
    evaluate(sch.mod, "main", [x, s])
    assert s == 6.0
