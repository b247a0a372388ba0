"""Relax's level in the graph dialect: `graph.call_tir` into primitive functions and
`graph.call_dps_packed` into registered Python functions, built with the
BlockBuilder surface (`function`, `dataflow`, `emit_te`, `emit_output`,
`emit_func_output`, `get`), run by the graph interpreter, lowered by
graph-lower-to-loop (the user's kernels kept, and schedulable) and compiled natively,
each checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from mlc.graph import GraphBuilder, evaluate
from mlc.graph.interpreter import EvaluationError
from mlc.graph.ops.call import CallTIROp
from mlc.graph.types import tensor
from mlc.ir import IRError, print_op
from mlc.ir.extern import register_func, remove_func
from mlc.ir.interpreter import evaluate as interpret
from mlc.ir.passes import run_pipeline
from mlc.llvm.build import build
from mlc.loop import BlockBuilder, te, topi
from mlc.loop.schedule import Schedule


def linear(n: int, k: int, m: int, name: str):
    """The course's linear0/linear1: Z = X·Wᵀ + B, a primitive function."""
    X = te.placeholder((n, k), name="X")
    W = te.placeholder((m, k), name="W")
    B = te.placeholder((m,), name="B")
    r = te.reduce_axis((0, k), name="k")
    Y = te.compute((n, m), lambda i, j: te.sum(X[i, r] * W[j, r], axis=r), name="Y")
    Z = te.compute((n, m), lambda i, j: Y[i, j] + B[j], name="Z")
    return te.create_prim_func([X, W, B, Z], name=name)


def relu(n: int, m: int, name: str):
    X = te.placeholder((n, m), name="X")
    Y = te.compute((n, m), lambda i, j: te.max(X[i, j], 0), name="Y")
    return te.create_prim_func([X, Y], name=name)


def my_module(k: int = 784, hidden: int = 128, classes: int = 10):
    """The course's MyModule: main calls linear0, relu0 and linear1 with call_tir."""
    bb = GraphBuilder()
    x = bb.param("x", (1, k))
    w0, b0 = bb.param("w0", (hidden, k)), bb.param("b0", (hidden,))
    w1, b1 = bb.param("w1", (classes, hidden)), bb.param("b1", (classes,))
    with bb.function("main", [x, w0, b0, w1, b1]):
        with bb.dataflow():
            lv0 = bb.call_tir(linear(1, k, hidden, "linear0"), [x, w0, b0], tensor((1, hidden)))
            lv1 = bb.call_tir(relu(1, hidden, "relu0"), [lv0], tensor((1, hidden)))
            out = bb.call_tir(linear(1, hidden, classes, "linear1"), [lv1, w1, b1],
                              tensor((1, classes)))
            gv = bb.emit_output(out)
        bb.emit_func_output(gv)
    return bb.get()


def weights(k: int, hidden: int, classes: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal((1, k), np.float32),
            "w0": rng.standard_normal((hidden, k), np.float32),
            "b0": rng.standard_normal(hidden).astype(np.float32),
            "w1": rng.standard_normal((classes, hidden), np.float32),
            "b1": rng.standard_normal(classes).astype(np.float32)}


def numpy_mlp(p: dict[str, np.ndarray]) -> np.ndarray:
    hidden = np.maximum(p["x"].astype(np.float64) @ p["w0"].T + p["b0"], 0)
    return hidden @ p["w1"].T + p["b1"]


def test_my_module_prints_and_parses_back():
    module = my_module(8, 4, 3)
    text = print_op(module)
    assert "graph.call_tir @linear0(%x, %w0, %b0) : (tensor<1x8xf32>, tensor<4x8xf32>, " \
           "tensor<4xf32>) -> tensor<1x4xf32>" in text
    from mlc.ir import parse_module

    assert print_op(parse_module(text)) == text


def test_my_module_interpreted_equals_numpy():
    p = weights(16, 8, 3)
    [out] = evaluate(my_module(16, 8, 3), p)
    np.testing.assert_allclose(out, numpy_mlp(p), rtol=1e-5, atol=1e-5)


def test_lowering_keeps_the_users_kernels_and_computes_the_same():
    module = my_module(16, 8, 3)
    assert run_pipeline(module, "graph-optimize,graph-lower-to-loop").success
    names = [op.sym_name.value for op in module.regions[0].ops()]
    assert names == ["linear0", "relu0", "linear1", "main"]  # no kernel of its own
    p = weights(16, 8, 3)
    out = np.zeros((1, 3), np.float32)
    interpret(module, "main", [p["x"], p["w0"], p["b0"], p["w1"], p["b1"], out])
    np.testing.assert_allclose(out, numpy_mlp(p), rtol=1e-5, atol=1e-5)
    # The kernel is schedulable like any other: split and reorder linear0's loops.
    sch = Schedule(module)
    block = sch.get_block("Y", func_name="linear0")
    i, j, k = sch.get_loops(block)
    j0, j1 = sch.split(j, [None, 4])
    sch.reorder(j0, k, j1)
    out[:] = 0
    interpret(sch.mod, "main", [p["x"], p["w0"], p["b0"], p["w1"], p["b1"], out])
    np.testing.assert_allclose(out, numpy_mlp(p), rtol=1e-5, atol=1e-5)


def test_my_module_native_equals_numpy_at_the_courses_sizes():
    p = weights(784, 128, 10)
    model = build(my_module(), params={k: v for k, v in p.items() if k != "x"})
    np.testing.assert_allclose(model(p["x"]), numpy_mlp(p), rtol=1e-4, atol=1e-3)


@pytest.fixture
def env_linear():
    """The course's env.linear and env.relu, destination-passing."""
    def linear_fn(x, w, b, out):
        np.matmul(x, w.T, out=out)
        out += b

    def relu_fn(x, out):
        np.maximum(x, 0, out=out)

    register_func("env.linear", linear_fn, override=True)
    register_func("env.relu", relu_fn, override=True)
    yield
    remove_func("env.linear")
    remove_func("env.relu")


def my_module_with_extern(k: int = 784, hidden: int = 128, classes: int = 10):
    """The course's MyModuleWithExternCall: call_dps_packed("env.linear", ...)."""
    bb = GraphBuilder()
    x = bb.param("x", (1, k))
    w0, b0 = bb.param("w0", (hidden, k)), bb.param("b0", (hidden,))
    w1, b1 = bb.param("w1", (classes, hidden)), bb.param("b1", (classes,))
    with bb.function("main", [x, w0, b0, w1, b1]):
        with bb.dataflow():
            lv0 = bb.call_dps_packed("env.linear", [x, w0, b0], tensor((1, hidden)))
            lv1 = bb.call_dps_packed("env.relu", [lv0], tensor((1, hidden)))
            out = bb.call_dps_packed("env.linear", [lv1, w1, b1], tensor((1, classes)))
            gv = bb.emit_output(out)
        bb.emit_func_output(gv)
    return bb.get()


def test_call_dps_packed_interpreted_lowered_and_native(env_linear):
    p = weights(784, 128, 10)
    expected = numpy_mlp(p)
    module = my_module_with_extern()
    [out] = evaluate(module, p)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-3)
    model = build(module, params={k: v for k, v in p.items() if k != "x"})
    np.testing.assert_allclose(model(p["x"]), expected, rtol=1e-4, atol=1e-3)
    lowered = module.clone()
    assert run_pipeline(lowered, "graph-lower-to-loop").success
    text = print_op(lowered)
    # One declaration per name and signature: env.linear on both layers is two.
    assert text.count("func.func private @env.linear(") == 1
    assert text.count("func.func private @env.linear_1(") == 1
    assert text.count("func.func private @env.relu(") == 1
    assert "memref<1x784xf32> {llvm.readonly}" in text


def test_an_unregistered_external_function_is_reported():
    remove_func("env.linear")  # another test (the course's example) may have registered it
    module = my_module_with_extern(4, 3, 2)
    with pytest.raises(EvaluationError, match="no external function is registered as "
                                              "'env.linear'"):
        evaluate(module, weights(4, 3, 2))


# ------------------------------------------------------------------ emit_te


def te_matmul(A, B):
    k = te.reduce_axis((0, A.shape[1]), name="k")
    return te.compute((A.shape[0], B.shape[1]),
                      lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="matmul")


def te_relu(A):
    return te.compute(A.shape, lambda i, j: te.max(A[i, j], 0), name="relu")


def test_emit_te_makes_primitive_functions_once_and_calls_them():
    bb = BlockBuilder()
    A, B = bb.param("A", (16, 8)), bb.param("B", (8, 4))
    with bb.function("main", [A, B]):
        with bb.dataflow():
            C = bb.emit_te(te_matmul, A, B)
            D = bb.emit_te(te_relu, C)
            E = bb.emit_output(bb.emit_te(te_relu, D))  # the same relu: one function
        bb.emit_func_output(E)
    module = bb.get()
    functions = [op.sym_name.value for op in module.regions[0].ops()]
    assert functions == ["te_matmul", "te_relu", "main"]
    calls = [op.callee_name for op in module.walk() if isinstance(op, CallTIROp)]
    assert calls == ["te_matmul", "te_relu", "te_relu"]
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((16, 8), np.float32), rng.standard_normal((8, 4), np.float32)
    expected = np.maximum(a.astype(np.float64) @ b, 0)
    np.testing.assert_allclose(evaluate(module, [a, b])[0], expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(build(module)(a, b), expected, rtol=1e-5, atol=1e-5)


def test_emit_te_with_topi_operators_and_graph_ops_together():
    rng = np.random.default_rng(2)
    w = rng.standard_normal((3, 8), np.float32)
    bb = BlockBuilder()
    x = bb.param("x", (2, 8))
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit_te(topi.nn.dense, x, bb.const(w))
            y = bb.emit_te(topi.add, y, bb.const(np.float32(1.5)))
            gv = bb.emit_output(bb.emit(bb.relu(y)))
        bb.emit_func_output(gv)
    module = bb.get()
    a = rng.standard_normal((2, 8), np.float32)
    expected = np.maximum(a.astype(np.float64) @ w.T + 1.5, 0)
    np.testing.assert_allclose(evaluate(module, [a])[0], expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(build(module)(a), expected, rtol=1e-5, atol=1e-5)


def test_dataflow_values_leave_the_block_only_through_emit_output():
    bb = BlockBuilder()
    x = bb.param("x", (2, 2))
    with pytest.raises(IRError, match="hand it out with emit_output"):
        with bb.function("main", [x]):
            with bb.dataflow():
                y = bb.relu(x)
            bb.emit_func_output(y)


def test_params_order_and_unlisted_parameters():
    bb = GraphBuilder()
    a, b = bb.param("a", (2,)), bb.param("b", (2,))
    with bb.function("main"):
        out = bb.subtract(a, b)
        bb.emit_func_output(out, [b, a])
    [fn] = list(bb.get().regions[0].ops())
    assert [arg.name_hint for arg in fn.entry_block.args] == ["b", "a"]
    bb = GraphBuilder()
    a, b = bb.param("a", (2,)), bb.param("b", (2,))
    with pytest.raises(IRError, match="parameter %b is used but not listed"):
        with bb.function("main", [a]):
            bb.emit_func_output(bb.add(a, b))


def test_emit_te_rejects_what_is_not_a_tensor():
    bb = BlockBuilder()
    x = bb.param("x", (2,))
    with pytest.raises(IRError, match="not a te tensor"):
        bb.emit_te(lambda t: 3, x)


MEMREF_LEVEL = """
func.func @scale(%x: memref<6xf32>, %out: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c6 step %c1 {
    %v = memref.load %x[%i] : memref<6xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %out[%i] : memref<6xf32>
  }
  return
}
func.func @main(%x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = graph.call_tir @scale(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %1 = graph.add %0, %x : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}
"""


def test_call_tir_of_a_memref_level_function():
    from mlc.ir import parse_module

    x = np.array([1, -2, 3, -4, 5, -6], np.float32)
    module = parse_module(MEMREF_LEVEL)
    np.testing.assert_array_equal(evaluate(module, [x])[0], 3 * x)
    np.testing.assert_array_equal(build(parse_module(MEMREF_LEVEL))(x), 3 * x)
