"""The compute-definition API (mlc.loop.te): kernels built from tensor expressions
compute what numpy computes, print and parse back, and bad definitions are refused
with a TEError."""

import numpy as np
import pytest

from mlc.ir import IntegerType, parse_module, print_op, verify
from mlc.ir.interpreter import UndefinedBehavior, evaluate
from mlc.loop import te


def run(func, *arrays):
    """Round-trip the kernel through text, verify it, run it on `arrays` (the last
    ones are outputs, written in place)."""
    module = parse_module(print_op(func))
    verify(module)
    evaluate(module, func.attributes["sym_name"].value, list(arrays))


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_mm_relu_matches_numpy_and_has_the_course_structure():
    n = 8
    A = te.placeholder((n, n), "float32", name="A")
    B = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis(n, name="k")
    Y = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((n, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    func = te.create_prim_func([A, B, C], name="mm_relu")
    text = print_op(func)
    assert "%Y = loop.alloc_buffer : memref<8x8xf32>" in text
    assert ('loop.block "Y"(%vi = spatial(8, %i), %vj = spatial(8, %j), %vk = reduce(8, %k)) '
            'reads(%A[%vi, %vk], %B[%vk, %vj]) writes(%Y[%vi, %vj])') in text
    assert "loop.init {" in text
    a, b, c = rand(n, n, seed=1), rand(n, n, seed=2), np.zeros((n, n), np.float32)
    run(func, a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-6)


def test_strided_window_indices_are_affine():
    X = te.placeholder(9, name="X")
    W = te.placeholder(3, name="W")
    r = te.reduce_axis(3, name="r")
    Y = te.compute(4, lambda i: te.sum(X[i * 2 + r] * W[r], axis=r), name="Y")
    func = te.create_prim_func([X, W, Y], name="conv1d")
    assert "loop.load %X[%vi * 2 + %vr]" in print_op(func)
    x, w, y = rand(9), rand(3, seed=3), np.zeros(4, np.float32)
    run(func, x, w, y)
    expected = np.array([x[2 * i:2 * i + 3] @ w for i in range(4)], np.float32)
    np.testing.assert_allclose(y, expected, rtol=1e-5)


def test_max_reduction_starts_from_minus_infinity():
    X = te.placeholder((3, 5), name="X")
    k = te.reduce_axis(5, name="k")
    M = te.compute(3, lambda i: te.max(X[i, k], axis=k), name="M")
    x, m = -np.abs(rand(3, 5)) - 10, np.zeros(3, np.float32)
    run(te.create_prim_func([X, M]), x, m)
    np.testing.assert_array_equal(m, x.max(axis=1))


def test_index_values_casts_and_selects():
    X = te.placeholder(6, name="X")
    Y = te.compute(6, lambda i: te.if_then_else(X[i] > 0.0, X[i] * te.cast(i, "float32"),
                                                te.exp(X[i])), name="Y")
    func = te.create_prim_func([X, Y])
    x, y = rand(6), np.zeros(6, np.float32)
    run(func, x, y)
    expected = np.where(x > 0, x * np.arange(6, dtype=np.float32), np.exp(x))
    np.testing.assert_allclose(y, expected, rtol=1e-6)


def test_integer_kernels():
    X = te.placeholder((4,), "int32", name="X")
    Y = te.compute((4,), lambda i: te.maximum(X[i] * 3 - 1, te.const(0, "int32")), name="Y")
    x, y = np.array([-2, 0, 1, 5], np.int32), np.zeros(4, np.int32)
    run(te.create_prim_func([X, Y]), x, y)
    np.testing.assert_array_equal(y, np.maximum(x * 3 - 1, 0))


def test_product_reduction_starts_from_one():
    X = te.placeholder((3, 4), name="X")
    Ints = te.placeholder((3, 4), "int8", name="I")
    k = te.reduce_axis(4, name="k")
    P = te.compute(3, lambda i: te.prod(X[i, k], axis=k), name="P")
    Q = te.compute(3, lambda i: te.prod(Ints[i, k], axis=k), name="Q")
    x, p = rand(3, 4), np.zeros(3, np.float32)
    ints, q = np.array([[1, 2, 3, 4], [-5, 7, 11, 13], [0, 9, 9, 9]], np.int8), np.zeros(3, np.int8)
    run(te.create_prim_func([X, Ints, P, Q]), x, ints, p, q)
    np.testing.assert_allclose(p, x.prod(axis=1), rtol=1e-6)
    np.testing.assert_array_equal(q, ints.prod(axis=1, dtype=np.int8))  # wraps modulo 2^8


def test_equality_and_nan_tests():
    X = te.placeholder(5, name="X")
    Ints = te.placeholder(5, "int32", name="I")
    E = te.compute(5, lambda i: te.if_then_else(te.equal(X[i], 1.0), 1, 0), name="E")
    N = te.compute(5, lambda i: te.if_then_else(te.isnan(X[i]), 1, 0), name="N")
    J = te.compute(5, lambda i: te.if_then_else(te.equal(Ints[i], -3), 1, 0), name="J")
    M = te.compute(5, lambda i: te.if_then_else(te.isnan(Ints[i]), 1, 0), name="M")
    func = te.create_prim_func([X, Ints, E, N, J, M])
    assert "arith.cmpi eq" in print_op(func) and "arith.cmpf uno" in print_op(func)
    x = np.array([1.0, np.nan, -1.0, 1.0, np.inf], np.float32)
    ints = np.array([-3, 3, -3, 0, 1], np.int32)
    outs = [np.zeros(5, np.int32) for _ in range(4)]
    run(func, x, ints, *outs)
    np.testing.assert_array_equal(outs[0], x == 1.0)
    np.testing.assert_array_equal(outs[1], np.isnan(x))
    np.testing.assert_array_equal(outs[2], ints == -3)
    np.testing.assert_array_equal(outs[3], 0)


def test_an_unwritten_buffer_reads_as_nan():
    # Fresh buffers hold NaN, not zeros that might look right, so a kernel reading
    # storage it never wrote shows it.
    module = parse_module("""
    func.func @f(%out: memref<2xf32>) {
      %t = loop.alloc_buffer : memref<2xf32>
      loop.for %i = 0 to 2 {
        loop.block "copy"(%vi = spatial(2, %i)) {
          %x = loop.load %t[%vi] : memref<2xf32>
          loop.store %x, %out[%vi] : memref<2xf32>
        }
      }
      return
    }""")
    out = np.zeros(2, np.float32)
    evaluate(module, "f", [out])
    assert np.isnan(out).all()


@pytest.mark.parametrize("build, message", [
    (lambda: te.placeholder((2, 0)), "shapes are positive integers"),
    (lambda: te.placeholder(2, "float8"), "unknown dtype 'float8'"),
    (lambda: te.placeholder(2, IntegerType(8, "signed"), name="S"),
     "S has si8 elements: tensor expressions compute on signless and unsigned integers only"),
    (lambda: te.reduce_axis(0), "a reduce axis needs a positive extent"),
    (lambda: te.placeholder((2, 2))[0], "has 2 dimensions, indexed with 1"),
    (lambda: te.compute(2, lambda i: te.sum(te.placeholder(2)[i], axis=i)),
     "te.sum reduces over reduce axes"),
    (lambda: te.compute(2, lambda i: 1.0 + te.sum(te.placeholder(2)[i] * 1.0,
                                                 axis=te.reduce_axis(2))),
     "a reduction must be the whole expression"),
    (lambda: te.compute(2, lambda i: te.placeholder(2, "int32")[i] + 1.5),
     "operands of different types"),
    (lambda: te.placeholder(4)[te.reduce_axis(2) * te.reduce_axis(2)],
     "indices multiply only by integer constants"),
    (lambda: te.create_prim_func([te.compute(2, lambda i: te.placeholder(2, name="P")[i])]),
     "placeholder P is used but not an argument"),
])
def test_bad_definitions_are_refused(build, message):
    with pytest.raises(te.TEError, match=message):
        build()


def test_out_of_bounds_reads_are_refused_by_the_verifier():
    X = te.placeholder(4, name="X")
    Y = te.compute(4, lambda i: X[i + 1], name="Y")
    module = parse_module(print_op(te.create_prim_func([X, Y])))
    with pytest.raises(Exception, match=r"index 0 takes values in \[1, 4\], out of the "
                                        r"buffer's bounds \[0, 4\)"):
        verify(module)


def test_padded_convolution_reads_zero_outside_the_input():
    X = te.placeholder((5, 5), name="X")
    K = te.placeholder((3, 3), name="K")
    P = te.pad(X, (1, 1), value=0.0, name="P")
    r = te.reduce_axis(3, name="r")
    s = te.reduce_axis(3, name="s")
    Y = te.compute((5, 5), lambda h, w: te.sum(P[h + r, w + s] * K[r, s], axis=(r, s)),
                   name="Y")
    func = te.create_prim_func([X, K, Y], name="conv")
    assert "loop.load %X[%vi0 - 1, %vi1 - 1] padding(0.000000e+00 : f32)" in print_op(func)
    x, k, y = rand(5, 5), rand(3, 3, seed=4), np.zeros((5, 5), np.float32)
    run(func, x, k, y)
    padded = np.pad(x, 1)
    expected = np.array([[np.sum(padded[h:h + 3, w:w + 3] * k) for w in range(5)]
                         for h in range(5)], np.float32)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_compute_inline_composes_indices_and_keeps_the_reduction():
    # A transpose and an elementwise op inlined into a reduction: one block remains,
    # reading A at the composed indices; values as numpy computes them.
    A = te.placeholder((4, 6), name="A")
    B = te.placeholder((6,), name="B")
    E = te.compute((4, 6), lambda i, j: te.exp(A[i, j]) + B[j], name="E")
    T = te.compute((6, 4), lambda i, j: E[j, i] * E[j, i], name="T")
    k = te.reduce_axis(4, name="k")
    S = te.compute((6,), lambda i: te.sum(T[i, k], axis=k), name="S")
    te.compute_inline(E, [T])
    te.compute_inline(T, [S])
    assert not te.reads(S, T) and te.reads(S, A)
    func = te.create_prim_func([A, B, S], name="f")
    text = print_op(func)
    assert text.count("loop.block") == 1 and "loop.alloc_buffer" not in text
    assert "loop.load %A[%vk, %vi]" in text
    assert text.count("math.exp") == 1  # E[j, i] read twice, computed once
    a, b, s = rand(4, 6), rand(6, seed=1), np.zeros(6, np.float32)
    run(func, a, b, s)
    np.testing.assert_allclose(s, ((np.exp(a) + b) ** 2).sum(axis=0), rtol=1e-5)


def test_inlining_keeps_padding_of_reads_it_moves_and_shares_subexpressions():
    X = te.placeholder((4,), name="X")
    P = te.pad(X, (1,), value=0.0, name="P")
    D = te.compute((6,), lambda i: P[i] * 2.0, name="D")
    Y = te.compute((3,), lambda i: D[i * 2] + D[i * 2 + 1], name="Y")
    for stage in (P, D):
        te.compute_inline(stage, [t for t in te.stages([Y]) if te.reads(t, stage)])
    assert [t.name for t in te.stages([Y])] == ["X", "Y"]
    func = te.create_prim_func([X, Y], name="pairs")
    assert "loop.load %X[%vi * 2 - 1] padding(0.000000e+00 : f32)" in print_op(func)
    x, y = rand(4), np.zeros(3, np.float32)
    run(func, x, y)
    padded = np.pad(x, 1) * 2
    np.testing.assert_allclose(y, padded[0::2] + padded[1::2], rtol=1e-6)
    # A chain of squares shares each level: linear, not exponential, in its depth.
    Z = X
    for n in range(40):
        Z = te.compute((4,), lambda i, z=Z: z[i] * z[i], name=f"Z{n}")
    for stage in te.stages([Z])[1:-1]:
        te.compute_inline(stage, [t for t in te.stages([Z]) if te.reads(t, stage)])
    assert print_op(te.create_prim_func([X, Z])).count("arith.mulf") == 40


def test_a_reduction_cannot_be_inlined():
    X = te.placeholder((4,), name="X")
    k = te.reduce_axis(4)
    R = te.compute((1,), lambda i: te.sum(X[k], axis=k), name="R")
    Y = te.compute((1,), lambda i: R[i] * 2.0, name="Y")
    with pytest.raises(te.TEError, match="only a stage computed without a reduction can be "
                                         "inlined, not R"):
        te.compute_inline(R, [Y])


def test_a_padded_read_of_a_stage_cannot_be_inlined():
    X = te.placeholder((4,), name="X")
    E = te.compute((4,), lambda i: X[i] + 1.0, name="E")
    P = te.pad(E, (1,), name="P")
    with pytest.raises(te.TEError, match="E is read with padding, so it cannot be inlined"):
        te.compute_inline(E, [P])


def test_rank_0_kernels_round_trip_through_text():
    X = te.placeholder((), name="X")
    Y = te.compute((), lambda: X[()] + 1.0, name="Y")
    func = te.create_prim_func([X, Y], name="scalar")
    assert 'loop.block "Y"() reads(%X[]) writes(%Y[])' in print_op(func)
    x, y = np.array(2.5, np.float32), np.zeros((), np.float32)
    run(func, x, y)  # parsed back from its text first
    assert y == 3.5


def test_rank_0_results_print_and_parse_back():
    X = te.placeholder((2, 3), name="X")
    k, j = te.reduce_axis(2, name="k"), te.reduce_axis(3, name="j")
    Y = te.compute((), lambda: te.sum(X[k, j], axis=(k, j)), name="Y")
    Z = te.compute((), lambda: Y[()] * 2.0, name="Z")
    func = te.create_prim_func([X, Z])
    assert "writes(%Y[])" in print_op(func) and "loop.load %Y[] : memref<f32>" in print_op(func)
    x, z = rand(2, 3), np.zeros((), np.float32)
    run(func, x, z)
    np.testing.assert_allclose(z, 2 * x.sum(), rtol=1e-6)


def test_axes_of_a_variadic_compute_function_are_numbered():
    X = te.placeholder((2, 3), name="X")
    Y = te.compute((2, 3), lambda *index: X[index] * 2.0, name="Y")
    assert [a.name for a in Y.axes] == ["i0", "i1"]
    Z = te.compute((2,), lambda *index: X[index[0], 0], name="Z")
    assert [a.name for a in Z.axes] == ["i0"]


# ------------------------------------------------------------------ data-dependent indices


def test_an_index_read_from_a_tensor_becomes_a_load_operand():
    X = te.placeholder((6, 3), name="X")
    Idx = te.placeholder((4,), "int32", name="I")
    # An axis plus the value: affine in both (the value's arithmetic, Idx[i] + 1, would
    # be arith on i32 before the cast).
    Y = te.compute((4, 3), lambda i, j: X[j + Idx[i], j], name="Y")
    func = te.create_prim_func([X, Idx, Y])
    text = print_op(func)
    assert "reads(%I[%vi], %X[?, %vj])" in text
    assert "%1 = arith.index_cast %0 : i32 to index" in text
    assert "loop.load %X[%vj + %1, %vj]" in text
    x, index, y = rand(6, 3), np.array([0, 3, 2, 1], np.int32), np.zeros((4, 3), np.float32)
    run(func, x, index, y)
    j = np.arange(3)
    np.testing.assert_array_equal(y, x[j + index[:, None], j])


def test_inlining_composes_through_data_dependent_indices():
    # A stage read at a data-dependent index (its axes become that index), itself
    # reading at one (whose expression is rewritten too), and an index computed by an
    # inlined stage.
    X = te.placeholder((5, 4), name="X")
    Idx = te.placeholder((3,), "int64", name="I")
    J = te.compute((3,), lambda i: te.if_then_else(Idx[i] < 0, Idx[i] + 5, Idx[i]), name="J")
    T = te.compute((4, 5), lambda a, b: X[b, a] * 2.0, name="T")
    Y = te.compute((3, 4), lambda i, j: T[j, J[i]] + T[3 - j, J[i]], name="Y")
    for stage in (J, T):
        te.compute_inline(stage, [Y])
    func = te.create_prim_func([X, Idx, Y])
    text = print_op(func)
    assert "loop.alloc_buffer" not in text and text.count("arith.index_cast") == 1
    x, index, y = rand(5, 4), np.array([-1, 0, 3], np.int64), np.zeros((3, 4), np.float32)
    run(func, x, index, y)
    rows = np.where(index < 0, index + 5, index)
    np.testing.assert_array_equal(y, x[rows] * 2 + x[rows][:, ::-1] * 2)


def test_an_index_out_of_its_buffer_is_reported_by_the_interpreter():
    X = te.placeholder((3,), name="X")
    Idx = te.placeholder((2,), "int32", name="I")
    Y = te.compute((2,), lambda i: X[Idx[i]], name="Y")
    func = te.create_prim_func([X, Idx, Y])
    with pytest.raises(UndefinedBehavior, match=r"access at \[3\] out of the bounds"):
        run(func, rand(3), np.array([0, 3], np.int32), np.zeros(2, np.float32))


def test_a_data_dependent_index_must_be_an_integer():
    X = te.placeholder((3,), name="X")
    F = te.placeholder((3,), name="F")
    B = te.placeholder((3,), "bool", name="B")
    with pytest.raises(te.TEError, match="a data-dependent index must be an integer value, "
                                         "not f32"):
        te.compute((3,), lambda i: X[F[i]])
    with pytest.raises(te.TEError, match="not i1"):
        te.compute((3,), lambda i: X[B[i]])


def test_a_reduction_may_start_from_a_given_identity():
    X = te.placeholder((3,), name="X")
    k = te.reduce_axis(3)
    Y = te.compute((1,), lambda i: te.sum(X[k], axis=k, identity=-0.0), name="Y")
    func = te.create_prim_func([X, Y])
    assert "arith.constant -0.000000e+00 : f32" in print_op(func)
    y = np.zeros(1, np.float32)
    run(func, np.array([-0.0, -0.0, -0.0], np.float32), y)
    assert np.signbit(y[0])


def _float_ops(func):
    return {op.name: str(op.attributes.get("fastmath")) for op in func.walk()
            if op.name in ("arith.mulf", "arith.addf", "arith.subf", "arith.maximumf")}


def test_a_float_sum_may_contract_its_products_into_fused_multiply_adds():
    A = te.placeholder((4, 4), "float32", name="A")
    B = te.placeholder((4, 4), "float32", name="B")
    k = te.reduce_axis(4, name="k")
    Y = te.compute((4, 4), lambda i, j: te.sum(A[i, k] * B[k, j] - A[i, k], axis=k), name="Y")
    contract = "#arith.fastmath<contract>"
    assert _float_ops(te.create_prim_func([A, B, Y])) == {
        "arith.mulf": contract, "arith.subf": contract, "arith.addf": contract}
    # Not outside a float sum: elementwise computes, other reductions, integer sums.
    E = te.compute((4, 4), lambda i, j: A[i, j] * B[i, j] + A[i, j], name="E")
    M = te.compute((4,), lambda i: te.max(A[i, k] * B[k, i], axis=k), name="M")
    none = {"#arith.fastmath<none>"}
    assert set(_float_ops(te.create_prim_func([A, B, E])).values()) == none
    assert set(_float_ops(te.create_prim_func([A, B, M])).values()) == none
    P = te.placeholder((4, 4), "int32", name="P")
    S = te.compute((4,), lambda i: te.sum(P[i, k] * P[k, i], axis=k), name="S")
    assert not any(op.name.endswith("f") and op.name.startswith("arith.")
                   for op in te.create_prim_func([P, S]).walk())
