"""The persistent compile caches: object code by LLVM IR (mlc.llvm.jit) and whole
builds by model and options (mlc.llvm.build_cache), both in MLC_CACHE_DIR."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mlc.graph.examples import mlp
from mlc.graph.interpreter import evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.text import parse_module
from mlc.ir.text.fingerprint import fingerprint
from mlc.llvm.build import build
from mlc.llvm.cache import cache_size_limit, load_entry, store_entry
from mlc.llvm.jit import clear_compile_cache, compile_cache_info, compile_llvm_ir
from mlc.llvm.native_call import ArgSpec

ADD = """
define void @add(ptr noalias %a, ptr noalias %b, ptr noalias %out) {
  %x = load <4 x float>, ptr %a
  %y = load <4 x float>, ptr %b
  %z = fadd <4 x float> %x, %y
  store <4 x float> %z, ptr %out
  ret void
}
"""
SPECS = [ArgSpec("a", (4,), "float32"), ArgSpec("b", (4,), "float32"),
         ArgSpec("out", (4,), "float32", "output")]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache folder of this test, and no module compiled in this process."""
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MLC_CACHE", raising=False)
    monkeypatch.delenv("MLC_CACHE_SIZE", raising=False)
    clear_compile_cache()
    yield tmp_path / "cache"
    clear_compile_cache()


def entries(folder: Path, kind: str) -> list[Path]:
    return sorted(p for p in (folder / kind).glob("*") if not p.name.startswith("."))


def add_of(library):
    a = np.arange(4, dtype=np.float32)
    return library.function("add", SPECS)(a, a + 1).tolist()


# ------------------------------------------------------------------ object code

def test_object_code_is_loaded_from_the_cache_when_the_process_has_not_compiled_it(cache):
    first = compile_llvm_ir(ADD)
    assert not first.from_cache and len(entries(cache, "objects")) == 1
    clear_compile_cache()
    second = compile_llvm_ir(ADD)
    assert second.from_cache and compile_cache_info().disk_hits == 1
    assert [name for name, _ in second.timings.stages()] == [
        "LLVM object code from the compile cache"]
    assert add_of(second) == add_of(first) == [1.0, 3.0, 5.0, 7.0]
    assert second.functions == ["add"]
    assert "fadd" in second.llvm_ir() and "add:" in second.assembly()  # compiled on demand


def test_another_process_loads_the_object_code(cache):
    compile_llvm_ir(ADD)
    script = textwrap.dedent(f"""
        import numpy as np
        from mlc.llvm.jit import compile_llvm_ir
        from mlc.llvm.native_call import ArgSpec
        library = compile_llvm_ir({ADD!r})
        specs = [ArgSpec("a", (4,), "float32"), ArgSpec("b", (4,), "float32"),
                 ArgSpec("out", (4,), "float32", "output")]
        a = np.arange(4, dtype=np.float32)
        print(library.from_cache, library.function("add", specs)(a, a).tolist())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "MLC_CACHE_DIR": str(cache)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True [0.0, 2.0, 4.0, 6.0]"


def test_a_damaged_entry_is_a_miss_and_is_replaced(cache):
    compile_llvm_ir(ADD)
    [path] = entries(cache, "objects")
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF  # a flipped byte in the object code
    path.write_bytes(bytes(data))
    clear_compile_cache()
    library = compile_llvm_ir(ADD)
    assert not library.from_cache and add_of(library) == [1.0, 3.0, 5.0, 7.0]
    assert load_entry("objects", path.name) is not None  # written again, whole


@pytest.mark.parametrize("damage", [b"", b"MLC-CACHE-ENTRY-1\n", b"not an entry at all",
                                    b"MLC-CACHE-ENTRY-1\n\xff\xff\xff\xff\xff\xff\xff\x7f{}"])
def test_truncated_or_foreign_entries_are_misses(cache, damage):
    assert store_entry("objects", "k" * 64, {"x": 1}, {"blob": b"abc"})
    assert load_entry("objects", "k" * 64) == ({"x": 1}, {"blob": b"abc"})
    (cache / "objects" / ("k" * 64)).write_bytes(damage)
    assert load_entry("objects", "k" * 64) is None
    assert not (cache / "objects" / ("k" * 64)).exists()


def test_caching_off_stores_nothing(cache, monkeypatch):
    monkeypatch.setenv("MLC_CACHE", "0")
    compile_llvm_ir(ADD)
    clear_compile_cache()
    assert not compile_llvm_ir(ADD).from_cache
    assert not cache.exists() or not entries(cache, "objects")


def test_the_cache_stays_under_its_size_by_evicting_the_least_recently_used(cache, monkeypatch):
    monkeypatch.setenv("MLC_CACHE_SIZE", "3K")
    assert cache_size_limit() == 3 << 10
    for n in range(4):
        store_entry("objects", f"{n:064d}", {}, {"blob": bytes(1000)})
        os.utime(entries(cache, "objects")[-1], (n, n))  # older first
    kept = [p.name for p in entries(cache, "objects")]
    assert len(kept) == 2 and f"{3:064d}" in kept
    assert sum(p.stat().st_size for p in entries(cache, "objects")) <= 3 << 10


def test_a_bad_size_setting_is_a_warning_not_a_failure(cache, monkeypatch):
    monkeypatch.setenv("MLC_CACHE_SIZE", "lots")
    with pytest.raises(ValueError, match="MLC_CACHE_SIZE='lots' is not a size"):
        cache_size_limit()
    with pytest.warns(UserWarning, match="not a size"):
        assert store_entry("objects", "f" * 64, {}, {"blob": b"x"})


# ------------------------------------------------------------------ whole builds

def stage_names(model) -> list[str]:
    return [name for name, _ in model.timings.stages]


def test_a_second_build_of_the_same_model_is_loaded(cache):
    example = mlp()
    x = example.inputs(seed=3)["x"]
    first = build(example.module)
    assert "graph → loops" in stage_names(first)
    clear_compile_cache()
    second = build(example.module)
    assert stage_names(second) == ["build cache lookup",
                                   "LLVM object code from the compile cache"]
    np.testing.assert_array_equal(second(x), first(x))
    np.testing.assert_allclose(second(x), evaluate(example.module, [x])[0], rtol=1e-5, atol=1e-5)
    assert sorted(second.params) == sorted(first.params)
    assert {k: v.as_python() for k, v in second.schedules.items()} == \
        {k: v.as_python() for k, v in first.schedules.items()}
    assert second.kernel_costs == first.kernel_costs
    assert second.llvm_ir == first.llvm_ir
    profile = second.profile(x, runs=2)
    assert set(first.kernel_costs) <= {row.name for row in profile.kernels}


def test_a_loaded_build_exports_a_library(cache, tmp_path):
    from mlc.llvm import load_module

    example = mlp()
    x = example.inputs(seed=4)["x"]
    build(example.module)
    clear_compile_cache()
    model = build(example.module)
    path = model.export_library(tmp_path / "mlp.so")
    np.testing.assert_array_equal(load_module(path)(x), model(x))


def test_anything_the_build_depends_on_builds_again(cache):
    example = mlp()
    build(example.module)
    changed_weights = mlp(seed=5)
    varied = [
        lambda: build(changed_weights.module),
        lambda: build(example.module, schedule=None),
        lambda: build(example.module, num_threads=1 if os.cpu_count() != 1 else 2),
    ]
    for make in varied:
        clear_compile_cache()
        assert "graph → loops" in stage_names(make())
    clear_compile_cache()
    with PassContext(disabled={"math-polynomial-approximation"}):
        assert "graph → loops" in stage_names(build(example.module))


def test_a_pass_context_with_instruments_always_builds(cache):
    from mlc.ir.passes.instruments import PassInstrument

    class Seen(PassInstrument):
        def __init__(self):
            self.passes = []

        def run_before_pass(self, pass_, op):
            self.passes.append(pass_.name)

    example = mlp()
    build(example.module)
    seen = Seen()
    with PassContext(instruments=[seen]):
        build(example.module)
    assert "graph-lower-to-loop" in seen.passes


def test_concurrent_builds_of_one_model_share_the_cache(cache):
    script = textwrap.dedent("""
        import numpy as np
        from mlc.graph.examples import mlp
        from mlc.graph.interpreter import evaluate
        from mlc.llvm.build import build
        example = mlp()
        x = example.inputs(seed=1)["x"]
        y = build(example.module)(x)
        print(np.allclose(y, evaluate(example.module, [x])[0], rtol=1e-5, atol=1e-5))
    """)
    env = {**os.environ, "MLC_CACHE_DIR": str(cache)}
    runs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env) for _ in range(3)]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        assert out.strip() == "True"
    assert len(entries(cache, "builds")) == 1
    assert not [p for p in (cache / "builds").iterdir() if p.name.startswith(".")]


# ------------------------------------------------------------------ fingerprint

FUNC = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w = arith.constant dense<%s> : tensor<32xf32>
  %y = arith.addf %x, %c : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


def weights(values) -> str:
    return "[" + ", ".join(f"{v:.1f}" for v in values) + "]"


def test_fingerprints_are_equal_for_equal_ir_and_differ_on_any_change():
    values = list(range(32))
    same = [parse_module(FUNC.replace("%s", weights(values))) for _ in range(2)]
    assert fingerprint(same[0]) == fingerprint(same[1])
    changed = values[:]
    changed[17] = 99
    assert fingerprint(parse_module(FUNC.replace("%s", weights(changed)))) != fingerprint(same[0])
    renamed = parse_module(FUNC.replace("%s", weights(values)).replace("@f", "@g"))
    assert fingerprint(renamed) != fingerprint(same[0])
    moved = parse_module("\n" + FUNC.replace("%s", weights(values)))  # locations differ
    assert fingerprint(moved) != fingerprint(same[0])
