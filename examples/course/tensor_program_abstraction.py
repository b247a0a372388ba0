"""The MLC course, "Tensor program abstraction" and "TensorIR": mm_relu as a tensor
program, transformed by a schedule, built and run natively, checked against numpy.

    python examples/course/tensor_program_abstraction.py
"""

from __future__ import annotations

import numpy as np

from mlc.ir import print_op
from mlc.ir.dialects.builtin import ModuleOp
from mlc.llvm.build import compile_module
from mlc.loop import te
from mlc.loop.schedule import Schedule


def lnumpy_mm_relu(A: np.ndarray, B: np.ndarray, C: np.ndarray) -> None:
    """The course's low-level numpy program: what the tensor program says, loop by loop."""
    Y = np.empty((128, 128), dtype="float32")
    for i in range(128):
        for j in range(128):
            for k in range(128):
                if k == 0:
                    Y[i, j] = 0
                Y[i, j] = Y[i, j] + A[i, k] * B[k, j]
    for i in range(128):
        for j in range(128):
            C[i, j] = max(Y[i, j], 0)


def mm_relu_module() -> ModuleOp:
    """MyModule with mm_relu, as TE builds it (the course's T.prim_func)."""
    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis((0, 128), name="k")
    Y = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((128, 128), lambda i, j: te.max(Y[i, j], 0), name="C")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, B, C], name="mm_relu"))
    return module


def transformed(module: ModuleOp) -> Schedule:
    """The course's transformation: split j by 4, move k inside, C under the outer j."""
    sch = Schedule(module, seed=0)
    block_Y = sch.get_block("Y", func_name="mm_relu")
    i, j, k = sch.get_loops(block_Y)
    j0, j1 = sch.split(j, factors=[None, 4])
    sch.reorder(j0, k, j1)
    block_C = sch.get_block("C", func_name="mm_relu")
    sch.reverse_compute_at(block_C, j0)
    sch.decompose_reduction(block_Y, k)
    return sch


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.uniform(size=(128, 128)).astype("float32")
    b = rng.uniform(size=(128, 128)).astype("float32")
    c_np = np.maximum(a @ b, 0)

    c_lnumpy = np.empty((128, 128), dtype="float32")
    lnumpy_mm_relu(a, b, c_lnumpy)
    np.testing.assert_allclose(c_lnumpy, c_np, rtol=1e-5)

    module = mm_relu_module()
    sch = transformed(module)
    print(sch.trace)                                    # the transformation, replayable
    print(print_op(sch.mod).count("loop.for"), "loops after the transformation")

    for name, mod in (("original", module), ("transformed", sch.mod)):
        rt_mod = compile_module(mod)                    # tvm.build(mod, target="llvm")
        c_nd = np.empty((128, 128), dtype="float32")
        rt_mod["mm_relu"](a, b, c_nd)
        np.testing.assert_allclose(c_nd, c_np, rtol=1e-5)
        timer = rt_mod.time_evaluator("mm_relu", number=10)
        print(f"{name}: {timer(a, b, c_nd).mean * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
