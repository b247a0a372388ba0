"""The per-kernel profiler: FLOPs and bytes counted from loop IR (checked against the
hand-computed 2·M·N·K of a matmul), the timed entry a build compiles beside the
model's (every kernel call timed, grouped by kernel), the table and JSON, the peak
measured once and cached, and `mlc-run --profile`."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from mlc.graph.examples import mlp, resnet18
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.build import GRAPH_TO_STANDARD, build, compile_module
from mlc.llvm.cache import cache_dir
from mlc.llvm.peak import measure_peak, peak_flops
from mlc.llvm.profile import PROFILE_SUFFIX
from mlc.llvm.target import Target
from mlc.loop import te
from mlc.loop.cost import kernel_costs
from mlc.loop.rules.target import ScheduleTarget

rng = np.random.default_rng(7)


def _matmul_relu(m: int, n: int, k: int) -> ModuleOp:
    A = te.placeholder((m, k), "float32", name="A")
    B = te.placeholder((k, n), "float32", name="B")
    r = te.reduce_axis(k, name="k")
    Y = te.compute((m, n), lambda i, j: te.sum(A[i, r] * B[r, j], axis=r), name="Y")
    C = te.compute((m, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, B, C], name="mm_relu"))
    return module


def test_kernel_costs_are_counted_from_the_loop_ir():
    costs = kernel_costs(_matmul_relu(6, 10, 7))
    # a multiply and an add per (i, j, k); maximumf once per output; the init is no work
    assert costs["mm_relu"].flops == 2 * 6 * 10 * 7 + 6 * 10
    assert costs["mm_relu"].bytes == 4 * (6 * 7 + 7 * 10 + 6 * 10)  # A, B and C, once each


@pytest.fixture(scope="module")
def small_resnet():
    module = resnet18(image_size=32, num_classes=10).module
    return module, build(module, schedule=None)  # kernels as GRAPH_TO_STANDARD lowers them


def test_a_profile_times_every_kernel_call(small_resnet):
    module, model = small_resnet
    x = rng.standard_normal(model.inputs[0].shape).astype(np.float32)
    profile = model.profile(x, runs=3)
    calls = _entry_calls(module)
    rows = {row.name: row for row in profile.kernels}
    assert sum(row.calls for name, row in rows.items() if not name.startswith("@")) \
        == 3 * len(calls)
    for name in set(calls):
        assert rows[name].calls == 3 * calls.count(name)
        assert rows[name].seconds > 0
        assert rows[name].flops == model.kernel_costs[name].flops
    assert abs(sum(row.share for row in profile.kernels) - 1.0) < 1e-6
    assert [row.seconds for row in profile.kernels] == \
        sorted((row.seconds for row in profile.kernels), reverse=True)
    assert profile.peak_flops > 0
    # the profiled entry computes what the model computes
    np.testing.assert_allclose(model(x), model.entry(x), rtol=0, atol=0)
    data = json.loads(profile.dumps())
    assert {k["name"] for k in data["kernels"]} == set(rows)
    assert data["runs"] == 3
    conv = next(k for k in data["kernels"] if k["name"].startswith("fused_conv2d"))
    assert conv["gflops_per_s"] == pytest.approx(
        conv["flops_per_call"] * conv["calls_per_run"] / conv["ms_per_run"] / 1e6)
    table = profile.table()
    assert "GFLOP/s" in table and "%peak" in table and "@main (outside calls)" in table


def _entry_calls(module) -> list[str]:
    """The kernels @main calls, in order, after the build's lowering (counted in the
    IR, independently of the profiler)."""
    lowered = module.clone()
    with PassContext(opt_level=3):  # as build, which folds batch norms into convolutions
        assert run_pipeline(lowered, GRAPH_TO_STANDARD).success
    main = next(op for op in lowered.regions[0].blocks[0].ops()
                if op.attributes["sym_name"].value == "main")
    return [op.attributes["callee"].leaf for op in main.walk() if op.name == "func.call"]


def test_profile_arguments_are_checked(small_resnet):
    _, model = small_resnet
    x = np.zeros(model.inputs[0].shape, np.float32)
    with pytest.raises(ValueError, match="runs >= 1"):
        model.profile(x, runs=0)
    with pytest.raises(ValueError, match="warmup >= 0"):
        model.profile(x, warmup=-1)


def test_compile_module_profiles_a_named_function():
    module = _matmul_relu(16, 32, 8)
    native = compile_module(module, profile=["mm_relu"])
    a = rng.standard_normal((16, 8)).astype(np.float32)
    b = rng.standard_normal((8, 32)).astype(np.float32)
    c = np.zeros((16, 32), np.float32)
    profile = native.profile("mm_relu", a, b, c, runs=2)
    (row,) = profile.kernels
    assert row.name == "@mm_relu" and row.calls == 2
    assert row.flops == 2 * 16 * 32 * 8 + 16 * 32
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)
    with pytest.raises(KeyError, match="not compiled for profiling"):
        compile_module(module).profile("mm_relu", a, b, c)
    assert "mm_relu" + PROFILE_SUFFIX in native.library.functions


def test_the_peak_is_measured_once_and_cached(monkeypatch):
    target = Target()
    first = peak_flops(target)
    again = peak_flops(target)
    assert again.cached and again.flops == first.flops
    assert (cache_dir() / "peak.json").exists()
    monkeypatch.setenv("MLC_CACHE", "0")
    assert cache_dir() is None
    assert not peak_flops(target).cached


def test_the_peak_is_measured_with_the_targets_vector_width():
    # (Zen 4 runs 512-bit FMAs as two 256-bit halves: the two peaks may be equal.)
    narrow = measure_peak(Target(features="-avx512f"))
    assert narrow.vector_bits == 256 and narrow.flops > 1e9


def test_schedule_targets_come_from_the_cpu_and_features():
    assert ScheduleTarget.from_features("x86-64-v3", "").vector_bits == 256
    assert ScheduleTarget.from_features("x86-64-v3", "+avx512f").vector_bits == 512
    assert ScheduleTarget.from_features("znver4", "").vector_registers == 32
    assert ScheduleTarget.from_features("znver4", "-avx512f").vector_bits == 256
    assert ScheduleTarget.from_features("x86-64", "").vector_bits == 128
    assert ScheduleTarget.from_features("x86-64", "+fma,+avx").fma
    # A CPU named without features is that CPU, not the host.
    assert Target(cpu="x86-64-v3").schedule_target.vector_bits == 256


def _mlc_run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mlc.tools.run", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_mlc_run_profile(tmp_path):
    model = tmp_path / "mlp.mlir"
    from mlc.ir import print_op

    model.write_text(print_op(mlp(in_features=16, hidden=8, num_classes=4).module))
    out = tmp_path / "profile.json"
    done = _mlc_run(str(model), "--random-inputs", "0", "--profile", "--benchmark", "2",
                    "--profile-json", str(out))
    assert done.returncode == 0, done.stderr
    assert "fused_dense_bias_add_relu" in done.stderr and "GFLOP/s" in done.stderr
    data = json.loads(out.read_text())
    assert data["runs"] == 2 and len(data["kernels"]) == 3
    bad = _mlc_run(str(model), "--random-inputs", "0", "--profile", "--interpreter")
    assert bad.returncode == 1 and "drop --interpreter" in bad.stderr
    unwritable = _mlc_run(str(model), "--random-inputs", "0", "--profile-json",
                          str(tmp_path / "missing" / "p.json"))
    assert unwritable.returncode == 1 and "cannot write the profile" in unwritable.stderr
    assert "Traceback" not in unwritable.stderr


def test_best_of_takes_each_kernels_fastest_run():
    from mlc.llvm.profile import KernelProfile, Profile

    def one_run(a: float, b: float) -> Profile:
        rows = [KernelProfile("a", 2, a, 0.0, 10), KernelProfile("b", 1, b, 0.0, None)]
        return Profile(1, a + b, rows, 1e9, "cpu")

    best = Profile.best_of([one_run(3.0, 1.0), one_run(1.0, 2.0), one_run(2.0, 0.5)])
    assert [(r.name, r.seconds) for r in best.kernels] == [("a", 1.0), ("b", 0.5)]
    assert best.total_seconds == 1.5 and best.kernels[0].share == pytest.approx(2 / 3)
    assert best.markdown().splitlines()[2] == "| a | 2 | 1000.000 | 66.7% | 10 | 0.0 | 0.0 |"
    with pytest.raises(ValueError):
        Profile.best_of([Profile(2, 1.0, [])])
