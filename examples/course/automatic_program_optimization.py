"""The MLC course, "Automatic program optimization": a stochastic schedule
(`sample_perfect_tile`), a random search keeping the fastest, the same space searched
by the tuner (meta_schedule.tune_tir -> `mlc.tune.tune_kernel`), the default search
space, and the tuned `linear0` put back into the end-to-end model — each result checked
against numpy. The course runs 64 trials per search; a few here, so that it runs in
seconds (`--trials N` for more).

    python examples/course/automatic_program_optimization.py [--trials N]
"""

from __future__ import annotations

import argparse
import runpy
import tempfile
from pathlib import Path

import numpy as np

from mlc.ir.dialects.builtin import ModuleOp
from mlc.llvm.build import build, compile_module
from mlc.loop import te
from mlc.loop.schedule import Schedule
from mlc.tune import tune_kernel

N = 128


def my_module() -> ModuleOp:
    """The course's MyModule: C = A @ B, 128 x 128, block "C" in @main."""
    A = te.placeholder((N, N), "float32", name="A")
    B = te.placeholder((N, N), "float32", name="B")
    k = te.reduce_axis((0, N), name="k")
    C = te.compute((N, N), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, B, C], name="main"))
    return module


def stochastic_schedule_mm(sch: Schedule) -> Schedule:
    block_C = sch.get_block("C", "main")
    i, j, k = sch.get_loops(block=block_C)
    j_factors = sch.sample_perfect_tile(loop=j, n=2)
    j_0, j_1 = sch.split(loop=j, factors=j_factors)
    sch.reorder(i, j_0, k, j_1)
    sch.decompose_reduction(block_C, k)
    return sch


def check_mm(mod, a: np.ndarray, b: np.ndarray) -> float:
    """Mean seconds of @main on `a`, `b` (its result checked against numpy)."""
    lib = compile_module(mod, num_threads=1)
    c = np.zeros((N, N), np.float32)
    lib["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-3)
    return lib.time_evaluator("main", number=10)(a, b, c).mean


def random_search(mod, a, b, num_trials: int) -> Schedule:
    """The course's random_search: a schedule per trial, the fastest kept."""
    best_result, best_sch = None, None
    for i in range(num_trials):
        sch = stochastic_schedule_mm(Schedule(mod))          # a fresh seed per trial
        result = check_mm(sch.mod, a, b)
        print(f"=====Attempt {i}, time-cost: {result * 1e3:.3f} ms====")
        print(sch.trace)
        if best_result is None or result < best_result:
            best_result, best_sch = result, sch
    return best_sch


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args(argv if argv is not None else [])
    rng = np.random.default_rng(0)
    a, b = rng.uniform(size=(2, N, N)).astype(np.float32)
    MyModule = my_module()

    print(f"original: {check_mm(MyModule, a, b) * 1e3:.3f} ms")
    sch = random_search(MyModule, a, b, args.trials)
    print(f"random search's best: {check_mm(sch.mod, a, b) * 1e3:.3f} ms")

    with tempfile.TemporaryDirectory() as work_dir:
        # meta_schedule.tune_tir(MyModule, space=ScheduleFn(stochastic_schedule_mm), ...)
        tuned = tune_kernel(MyModule, space=stochastic_schedule_mm, trials=args.trials,
                            work_dir=Path(work_dir) / "mm", repeat=1)
        print(tuned.trace)
        print(f"tuned (the stochastic space): {check_mm(tuned.mod, a, b) * 1e3:.3f} ms")
        # Without a space: the default rules with their choices sampled.
        tuned = tune_kernel(MyModule, space="default", trials=args.trials,
                            work_dir=Path(work_dir) / "mm-default", repeat=1)
        print(f"tuned (the default space): {check_mm(tuned.mod, a, b) * 1e3:.3f} ms")

        # The end-to-end model of the previous chapter with its linear0 tuned and put
        # back (the course's update_func of "linear0").
        chapter = runpy.run_path(str(Path(__file__).with_name("end_to_end.py")))
        kernel = ModuleOp.build()
        kernel.body.append(chapter["linear"](1, 784, 128, "linear0"))
        tuned = tune_kernel(kernel, space="default", trials=args.trials,
                            work_dir=Path(work_dir) / "linear0", repeat=1)
        model = chapter["my_module"]()
        old = next(op for op in model.body.ops()
                   if op.attributes.get("sym_name").value == "linear0")
        new = next(op for op in tuned.mod.body.ops()
                   if op.attributes.get("sym_name").value == "linear0")
        new.detach()
        model.body.insert_before(new, old)
        old.erase()
        params = {"w0": rng.standard_normal((128, 784), np.float32) * 0.05,
                  "b0": rng.standard_normal(128).astype(np.float32),
                  "w1": rng.standard_normal((10, 128), np.float32) * 0.05,
                  "b1": rng.standard_normal(10).astype(np.float32)}
        data = rng.uniform(size=(1, 784)).astype(np.float32)
        got = build(model)(data, **params)
        np.testing.assert_allclose(got, chapter["numpy_mlp"](data, params), rtol=1e-4,
                                   atol=1e-4)
        print("the model with the tuned linear0:", int(got.argmax()))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
