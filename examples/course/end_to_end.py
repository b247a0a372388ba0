"""The MLC course, "End-to-end model execution": MyModule, a high-level `main`
calling low-level primitive functions with call_tir inside a dataflow block; the same
with external functions (call_dps_packed "env.linear"); BindParams; build and run —
each checked against numpy. The course's weights are a Fashion-MNIST MLP; random
weights of the same shapes here (nothing is downloaded).

    python examples/course/end_to_end.py
"""

from __future__ import annotations

import numpy as np

from mlc.graph import GraphBuilder, evaluate
from mlc.graph.passes.bind_params import bind_params
from mlc.graph.types import tensor
from mlc.ir import print_op
from mlc.ir.extern import register_func
from mlc.llvm.build import build
from mlc.loop import te


def linear(n: int, k: int, m: int, name: str):
    """linear0/linear1: Z = X·Wᵀ + B as a primitive function (T.prim_func)."""
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


def my_module(call: str = "call_tir"):
    """MyModule (call="call_tir") or MyModuleWithExternCall (call="call_dps_packed")."""
    bb = GraphBuilder()
    x = bb.param("x", (1, 784))
    w0, b0 = bb.param("w0", (128, 784)), bb.param("b0", (128,))
    w1, b1 = bb.param("w1", (10, 128)), bb.param("b1", (10,))
    with bb.function("main", [x, w0, b0, w1, b1]):
        with bb.dataflow():
            if call == "call_tir":
                lv0 = bb.call_tir(linear(1, 784, 128, "linear0"), [x, w0, b0], tensor((1, 128)))
                lv1 = bb.call_tir(relu(1, 128, "relu0"), [lv0], tensor((1, 128)))
                out = bb.call_tir(linear(1, 128, 10, "linear1"), [lv1, w1, b1], tensor((1, 10)))
            else:
                lv0 = bb.call_dps_packed("env.linear", [x, w0, b0], tensor((1, 128)))
                lv1 = bb.call_dps_packed("env.relu", [lv0], tensor((1, 128)))
                out = bb.call_dps_packed("env.linear", [lv1, w1, b1], tensor((1, 10)))
            gv = bb.emit_output(out)
        bb.emit_func_output(gv)
    return bb.get()


@register_func("env.linear", override=True)
def torch_style_linear(x, w, b, out):
    """The course registers torch's linear; numpy's here, destination-passing."""
    np.matmul(x, w.T, out=out)
    out += b


@register_func("env.relu", override=True)
def lnumpy_relu(x, out):
    np.maximum(x, 0, out=out)


def numpy_mlp(data, params):
    return np.maximum(data @ params["w0"].T + params["b0"], 0) @ params["w1"].T + params["b1"]


def main() -> None:
    rng = np.random.default_rng(0)
    params = {"w0": rng.standard_normal((128, 784), np.float32) * 0.05,
              "b0": rng.standard_normal(128).astype(np.float32),
              "w1": rng.standard_normal((10, 128), np.float32) * 0.05,
              "b1": rng.standard_normal(10).astype(np.float32)}
    data = rng.uniform(size=(1, 784)).astype(np.float32)
    expected = numpy_mlp(data, params)

    module = my_module()
    print(print_op(module).split("func.func @main")[1])        # IRModule.show()
    ex = build(module)                                          # relax.build(MyModule)
    np.testing.assert_allclose(ex(data, **params), expected, rtol=1e-4, atol=1e-4)
    [interpreted] = evaluate(module, {"x": data, **params})
    np.testing.assert_allclose(interpreted, expected, rtol=1e-4, atol=1e-4)
    print("MyModule prediction:", int(ex(data, **params).argmax()))

    extern = my_module("call_dps_packed")
    np.testing.assert_allclose(build(extern)(data, **params), expected, rtol=1e-4, atol=1e-4)

    # relax.transform.BindParams("main", params): the weights become constants.
    bind_params(module, params)
    np.testing.assert_allclose(build(module)(data), expected, rtol=1e-4, atol=1e-4)
    # Or keep them as parameters and bind them at build time.
    np.testing.assert_allclose(build(my_module(), params=params)(data), expected,
                               rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    main()
