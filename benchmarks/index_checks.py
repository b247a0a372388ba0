"""What the bounds checks of indices read from data cost (mlc.loop.index_checks): each
model compiled twice, with the checks (as mlc always compiles) and without them (the
check left out of loop-lower, here only), timed in alternation in one process.

    .venv/bin/python benchmarks/index_checks.py                  # all models, 30 runs
    .venv/bin/python benchmarks/index_checks.py --models embedding --runs 200

The models: the example networks of `benchmarks/native_networks.py` (MLP, ResNet-18,
MobileNetV2, the transformer encoder: none reads an index from data, so they get no
check — the last column says whether the two LLVM IR texts are identical — and the
difference is the noise of the measurement), an embedding lookup
(a gather of 128 rows of a 32,000 x 512 table: nothing but checked loads, the worst
case) and the same lookup followed by a 512 x 512 dense layer and ReLU (a model's
first layer), and a scatter (ScatterND of 32 rows into a 256 x 512 cache: a scatter's
rule matches positions, and checks each index once in a stage of its own,
`loop.check_index`). Single thread; the medians of the alternated runs and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The persistent build cache would serve the second build the first one's code.
os.environ["MLC_CACHE"] = "0"
# Single thread, as the docstring says (the default is every core, whose threads wait
# on each other for whole time slices on a loaded machine).
os.environ.setdefault("MLC_NUM_THREADS", "1")

import numpy as np  # noqa: E402

MODELS = ("mlp", "resnet18", "mobilenet_v2", "transformer", "embedding", "embedding_dense",
          "scatter")
INDEX_RANGE = {"scatter": 256}
"""The indices a model's inputs hold are drawn from [0, this) (default: the table's 32,000)."""


def _module(name: str):
    from mlc.graph import GraphBuilder
    from mlc.graph.examples import EXAMPLES

    if name in EXAMPLES:
        return EXAMPLES[name]().module
    rng = np.random.default_rng(0)
    b = GraphBuilder()
    if name == "scatter":
        cache = b.param("cache", (256, 512))
        rows = b.param("rows", (32, 1), "int64")
        return b.module(b.scatter_nd(cache, rows, b.param("update", (32, 512))))
    ids = b.param("ids", (1, 128), "int64")
    table = b.const(rng.standard_normal((32000, 512)).astype(np.float32))
    rows = b.gather(table, ids, axis=0)
    if name == "embedding":
        return b.module(rows)
    weight = b.const(rng.standard_normal((512, 512)).astype(np.float32) / 23)
    flat = b.reshape(rows, shape=(128, 512))
    return b.module(b.relu(b.dense(flat, weight)))


@contextmanager
def _without_checks():
    from mlc.loop.index_checks import IndexChecks

    original = IndexChecks.checked, IndexChecks.checked_index
    IndexChecks.checked = lambda self, access, indices, rewriter, ints: list(indices)
    IndexChecks.checked_index = lambda self, check, index, rewriter, ints: index
    try:
        yield
    finally:
        IndexChecks.checked, IndexChecks.checked_index = original


def _inputs(module, index_range: int) -> list[np.ndarray]:
    from mlc.ir import IntegerType

    fn = next(op for op in module.regions[0].blocks[0].ops() if op.name == "func.func"
              and op.attributes["sym_name"].value == "main")
    rng = np.random.default_rng(0)
    inputs = []
    for t in fn.attributes["function_type"].value.inputs:
        if isinstance(t.element_type, IntegerType):
            inputs.append(rng.integers(0, index_range, t.shape).astype(np.int64))
        else:
            inputs.append(rng.standard_normal(t.shape).astype(np.float32))
    return inputs


def measure(name: str, runs: int) -> dict:
    from mlc.llvm.build import build
    from mlc.llvm.jit import clear_compile_cache

    module = _module(name)
    checked = build(module)
    clear_compile_cache()
    with _without_checks():
        unchecked = build(module)
    inputs = _inputs(module, INDEX_RANGE.get(name, 32000))
    np.testing.assert_array_equal(checked(*inputs), unchecked(*inputs))
    times = {"checked": [], "unchecked": []}
    for _ in range(runs):
        for label, model in (("checked", checked), ("unchecked", unchecked)):
            began = time.perf_counter()
            model(*inputs)
            times[label].append(time.perf_counter() - began)
    sites = checked.index_errors.sites if checked.index_errors is not None else ()
    return {"sites": len(sites), "same_code": checked.llvm_ir == unchecked.llvm_ir,
            **{k: statistics.median(v) for k, v in times.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print(f"{'model':<18} {'checks':>6} {'with (ms)':>10} {'without (ms)':>13} {'cost':>8}"
          "  code")
    for name in args.models:
        row = measure(name, args.runs)
        cost = row["checked"] / row["unchecked"] - 1
        print(f"{name:<18} {row['sites']:>6} {row['checked'] * 1000:>10.3f} "
              f"{row['unchecked'] * 1000:>13.3f} {cost:>+8.1%}  "
              f"{'identical' if row['same_code'] else 'differs'}", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
