"""The MLC course, "TensorIR" exercises: broadcast add, a 2-D convolution, and
transforming batched matmul + ReLU, each built natively and checked against numpy.

    python examples/course/tensorir_exercises.py
"""

from __future__ import annotations

import numpy as np

from mlc.ir.dialects.builtin import ModuleOp
from mlc.llvm.build import compile_module
from mlc.loop import te
from mlc.loop.schedule import Schedule


def module_of(*functions) -> ModuleOp:
    module = ModuleOp.build()
    for fn in functions:
        module.body.append(fn)
    return module


def broadcast_add():
    """Exercise 1: C[i, j] = A[i, j] + B[j]."""
    A = te.placeholder((4, 4), "int64", name="A")
    B = te.placeholder((4,), "int64", name="B")
    C = te.compute((4, 4), lambda i, j: A[i, j] + B[j], name="C")
    return te.create_prim_func([A, B, C], name="add")


def conv(N=1, CI=1, H=8, W=8, CO=2, K=3):
    """Exercise 2: a 2-D convolution, stride 1, no padding."""
    OUT_H, OUT_W = H - K + 1, W - K + 1
    data = te.placeholder((N, CI, H, W), "int64", name="data")
    weight = te.placeholder((CO, CI, K, K), "int64", name="weight")
    ci = te.reduce_axis((0, CI), name="ci")
    di = te.reduce_axis((0, K), name="di")
    dj = te.reduce_axis((0, K), name="dj")
    out = te.compute((N, CO, OUT_H, OUT_W),
                     lambda b, k, i, j: te.sum(data[b, ci, i + di, j + dj] * weight[k, ci, di, dj],
                                               axis=[ci, di, dj]), name="conv")
    return te.create_prim_func([data, weight, out], name="conv")


def bmm_relu():
    """Exercise 3: batched matmul then ReLU (16 x 128 x 128)."""
    A = te.placeholder((16, 128, 128), name="A")
    B = te.placeholder((16, 128, 128), name="B")
    k = te.reduce_axis((0, 128), name="k")
    Y = te.compute((16, 128, 128), lambda n, i, j: te.sum(A[n, i, k] * B[n, k, j], axis=k),
                   name="Y")
    C = te.compute((16, 128, 128), lambda n, i, j: te.max(Y[n, i, j], 0), name="C")
    return te.create_prim_func([A, B, C], name="bmm_relu")


def transform_bmm_relu(module: ModuleOp) -> Schedule:
    """The exercise's target: j split by 8 under a parallel batch loop, k split by 4
    and unrolled, the ReLU computed per column block, the init decomposed."""
    sch = Schedule(module, seed=0)
    Y = sch.get_block("Y", func_name="bmm_relu")
    n, i, j, k = sch.get_loops(Y)
    sch.parallel(n)
    j0, j1 = sch.split(j, [None, 8])
    k0, k1 = sch.split(k, [None, 4])
    sch.reorder(j0, k0, k1, j1)
    sch.reverse_compute_at(sch.get_block("C", func_name="bmm_relu"), j0)
    sch.decompose_reduction(Y, k0)
    sch.unroll(k1)
    return sch


def main() -> None:
    rng = np.random.default_rng(0)
    rt = compile_module(module_of(broadcast_add(), conv(), bmm_relu()))

    a = np.arange(16, dtype=np.int64).reshape(4, 4)
    b = np.arange(4, 0, -1, dtype=np.int64)
    c = np.empty((4, 4), np.int64)
    rt["add"](a, b, c)
    np.testing.assert_array_equal(c, a + b)

    data = np.arange(64, dtype=np.int64).reshape(1, 1, 8, 8)
    weight = np.arange(18, dtype=np.int64).reshape(2, 1, 3, 3)
    out = np.empty((1, 2, 6, 6), np.int64)
    rt["conv"](data, weight, out)
    windows = np.lib.stride_tricks.sliding_window_view(data, (3, 3), axis=(2, 3))
    np.testing.assert_array_equal(out, np.einsum("bchwij,kcij->bkhw", windows, weight))

    x = rng.uniform(size=(16, 128, 128)).astype("float32")
    y = rng.uniform(size=(16, 128, 128)).astype("float32")
    expected = np.maximum(x @ y, 0)
    sch = transform_bmm_relu(module_of(bmm_relu()))
    print(sch.trace)
    for name, module in (("original", module_of(bmm_relu())), ("transformed", sch.mod)):
        rt_mod = compile_module(module)
        z = np.empty((16, 128, 128), "float32")
        rt_mod["bmm_relu"](x, y, z)
        np.testing.assert_allclose(z, expected, rtol=1e-5)
        print(f"{name}: {rt_mod.time_evaluator('bmm_relu', number=3)(x, y, z).mean * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
