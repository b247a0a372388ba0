"""benchmarks/native_matmul.py's kernels, compiled to native code: each schedule (none,
the MLC course's, the register tile) computes what numpy computes, a replayed trace
gives the same kernel, and the register tile's code is what makes it fast (the output
tile carried in vector registers across the reduction, fused multiply-adds)."""

import json
import re

import numpy as np
import pytest

from mlc.ir import print_op
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.build import compile_module
from mlc.llvm.target import Target
from mlc.loop.schedule import Schedule, Trace
from tests.benchmark_scripts import benchmark_script


@pytest.fixture(scope="module")
def native_matmul():
    with benchmark_script("native_matmul") as module:
        yield module


def operands(n, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, n), dtype=np.float32),
            rng.standard_normal((n, n), dtype=np.float32))


@pytest.mark.parametrize("schedule", [None, "course_schedule", "tiled_schedule"])
def test_mm_relu_kernels_compute_what_numpy_computes(native_matmul, schedule):
    a, b = operands(128)
    kernel = native_matmul.compile_scheduled(
        128, True, schedule and getattr(native_matmul, schedule))
    c = np.full((128, 128), np.nan, np.float32)
    kernel(a, b, c)
    expected = np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0)
    np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", [64, 256])
def test_the_register_tile_computes_what_numpy_computes(native_matmul, n):
    a, b = operands(n, seed=n)
    kernel = native_matmul.compile_scheduled(n, False, native_matmul.tiled_schedule)
    c = np.full((n, n), np.nan, np.float32)
    kernel(a, b, c)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64),
                               rtol=1e-4, atol=1e-4 * np.sqrt(n))


def test_a_replayed_trace_gives_the_same_kernel_and_numbers(native_matmul):
    module = native_matmul.matmul_module(128, False)
    direct = Schedule(module)
    native_matmul.tiled_schedule(direct)
    replayed = Schedule(module)
    Trace.from_json(json.loads(direct.trace.dumps())).apply(replayed)
    assert print_op(replayed.mod) == print_op(direct.mod)
    a, b = operands(128, seed=3)
    results = []
    for scheduled in (direct.mod, replayed.mod):
        assert run_pipeline(scheduled, "loop-lower,canonicalize").success
        c = np.empty((128, 128), np.float32)
        compile_module(scheduled)["main"](a, b, c)
        results.append(c)
    np.testing.assert_array_equal(results[0], results[1])


def test_the_register_tile_stays_in_registers_and_uses_fused_multiply_adds(native_matmul):
    module = native_matmul.matmul_module(128, False)
    sch = Schedule(module)
    native_matmul.tiled_schedule(sch)
    lowered = sch.mod
    assert run_pipeline(lowered, "loop-lower,canonicalize").success
    text = print_op(lowered)
    # te's float sum lets its product and sum contract; loop-lower keeps the flags on
    # the vector ops it makes of the vectorized loop.
    assert re.search(r"arith\.mulf .* fastmath<contract> : vector<64xf32>", text)
    assert re.search(r"arith\.addf .* fastmath<contract> : vector<64xf32>", text)
    library = compile_module(lowered).library
    optimized = library.llvm_ir()
    # The four rows of 64 outputs are values carried around the reduction loop (LLVM
    # promotes them from memory because the buffers are noalias), not stored each step.
    assert len(re.findall(r"= phi <64 x float>", optimized)) >= 4
    if "+fma" in Target().features.split(","):
        assert "vfmadd" in library.assembly()


def test_a_register_tile_of_rows_not_dividing_the_extent_peels_its_tail(native_matmul):
    # 64 rows in tiles of 6: split adds the predicate `i_0 * 6 + i_1 < 64`, loop-lower
    # peels the last tile off, so the ten full tiles run without a branch.
    module = native_matmul.matmul_module(64, False)
    sch = Schedule(module)
    native_matmul.tiled_schedule(sch, rows=6, columns=64)
    assert "where(%i_0 * 6 + %i_1 < 64)" in print_op(sch.mod)
    lowered = sch.mod
    assert run_pipeline(lowered, "loop-lower,canonicalize,cse").success
    text = print_op(lowered)
    full, tail = text.split("scf.for %i_0 = %c0 to %c10 step %c1 {")[1].split(
        "\n    }\n", 1)
    assert "scf.if" not in full and "vector<64xf32>" in full
    assert "scf.for %i_0" not in tail and "vector<64xf32>" in tail  # the tail: one tile
    compiled = compile_module(lowered)
    # Six rows of 64 outputs carried around the full tiles' reduction loop.
    assert len(re.findall(r"= phi <64 x float>", compiled.library.llvm_ir())) >= 6
    a, b = operands(64, seed=6)
    c = np.full((64, 64), np.nan, np.float32)
    compiled["main"](a, b, c)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64),
                               rtol=1e-4, atol=1e-3)
