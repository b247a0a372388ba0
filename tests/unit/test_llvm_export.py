"""Shared libraries from LLVM IR (mlc.llvm.export) and running them without the
compiler (mlc.llvm.loader): the loaded library computes what the JIT computes, its
weights are bound from the file beside it, the loader imports neither llvmlite nor
mlc.ir, the files are deterministic, and every broken input is a clear error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mlc.llvm.export import ToolchainError, export_shared_library
from mlc.llvm.jit import LLVMIRError, compile_llvm_ir
from mlc.llvm.library_seal import seal_library
from mlc.llvm.loader import ModuleLoadError, load_module
from mlc.llvm.native_call import ArgSpec, NativeCallError

N = 37

# out = x * w + b, elementwise, with w and b the weights
AFFINE = f"""
define void @affine(ptr noalias %x, ptr noalias %w, ptr noalias %b, ptr noalias %out) {{
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %px = getelementptr float, ptr %x, i64 %i
  %pw = getelementptr float, ptr %w, i64 %i
  %pb = getelementptr float, ptr %b, i64 %i
  %po = getelementptr float, ptr %out, i64 %i
  %vx = load float, ptr %px
  %vw = load float, ptr %pw
  %vb = load float, ptr %pb
  %m = fmul float %vx, %vw
  %s = fadd float %m, %vb
  store float %s, ptr %po
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, {N}
  br i1 %done, label %exit, label %loop
exit:
  ret void
}}
"""
# A second module: the entry point, calling the kernel of the first twice through an
# arena (a workspace), as a compiled model's `main` does.
MAIN = """
declare void @affine(ptr, ptr, ptr, ptr)

define void @main(ptr %x, ptr %w, ptr %b, ptr %arena, ptr %out) {
  call void @affine(ptr %x, ptr %w, ptr %b, ptr %arena)
  call void @affine(ptr %arena, ptr %w, ptr %b, ptr %out)
  ret void
}
"""
AFFINE_SPECS = [ArgSpec("x", (N,), "float32"), ArgSpec("w", (N,), "float32", "param"),
                ArgSpec("b", (N,), "float32", "param"),
                ArgSpec("out", (N,), "float32", "output")]
MAIN_SPECS = [*AFFINE_SPECS[:3], ArgSpec("arena", (N,), "float32", "workspace"),
              AFFINE_SPECS[3]]
METADATA = {"entry": "main", "model": "two affine layers",
            "functions": {"main": {"args": MAIN_SPECS},
                          "affine": {"args": AFFINE_SPECS, "result": None}}}


def weights() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"w": rng.standard_normal(N).astype(np.float32),
            "b": rng.standard_normal(N).astype(np.float32)}


@pytest.fixture(scope="module")
def exported(c_compiler, tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "model.so"
    export_shared_library([AFFINE, MAIN], path, METADATA, weights())
    return path


def jit_main():
    library = compile_llvm_ir(AFFINE + MAIN.replace("declare void @affine(ptr, ptr, ptr, ptr)", ""))
    main = library.function("main", MAIN_SPECS)
    for name, array in weights().items():
        main.bind(name, array)
    return main


def test_the_loaded_library_equals_the_jit(exported):
    model = load_module(exported)
    x = np.random.default_rng(1).standard_normal(N).astype(np.float32)
    expected = jit_main()(x)
    w, b = weights().values()
    np.testing.assert_array_equal(expected, (x * w + b) * w + b)
    np.testing.assert_array_equal(model(x), expected)
    np.testing.assert_array_equal(model["affine"](x), x * w + b)
    assert model.entry.name == "main" and sorted(model.functions) == ["affine", "main"]
    assert model.metadata["model"] == "two affine layers"
    assert model.metadata["functions"]["main"]["args"][1] == {
        "name": "w", "shape": [N], "dtype": "float32", "role": "param"}
    assert exported.with_name("model.params.npz").is_file()


def test_weights_are_bound_once_and_the_arena_kept(exported):
    model = load_module(exported)
    main = model["main"]
    assert main.free == ("x", "out")
    assert main.bound["w"] is model.params["w"]
    x = np.ones(N, np.float32)
    main(x)
    arena = main.bound["arena"]
    main(x)
    assert main.bound["arena"] is arena
    with pytest.raises(NativeCallError, match=r"main\(\): argument 0 \('x'\) must have dtype "
                                              "float32, not float64"):
        model(np.ones(N))


def test_the_loader_needs_no_compiler(exported):
    program = textwrap.dedent(f"""
        import sys
        import numpy as np
        import mlc.llvm.loader
        model = mlc.llvm.loader.load_module({str(exported)!r})
        print(model(np.ones({N}, np.float32)).tolist())
        print(sorted(m for m in sys.modules
                     if m.startswith(('llvmlite', 'mlc.ir', 'mlc.graph', 'mlc.loop', 'onnx'))))
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    values, imported = done.stdout.splitlines()
    w, b = weights().values()
    assert np.array_equal(np.array(json.loads(values), np.float32), (w + b) * w + b)
    assert imported == "[]"


def test_exports_are_deterministic(c_compiler, tmp_path):
    written = []
    for name in ("first", "second"):
        directory = tmp_path / name
        directory.mkdir()
        path = export_shared_library([AFFINE, MAIN], directory / "model.so", METADATA, weights())
        written.append((path.read_bytes(), path.with_name("model.params.npz").read_bytes()))
    assert written[0] == written[1]
    assert sorted(os.listdir(tmp_path / "first")) == ["model.params.npz", "model.so"]


def test_a_library_without_params(c_compiler, tmp_path):
    specs = [ArgSpec("x", (N,), "float32"), ArgSpec("w", (N,), "float32"),
             ArgSpec("b", (N,), "float32"), ArgSpec("out", (N,), "float32", "output")]
    path = export_shared_library(AFFINE, tmp_path / "affine.so",
                                 {"entry": "affine", "functions": {"affine": {"args": specs}}})
    assert not (tmp_path / "affine.params.npz").exists()
    model = load_module(path)
    x, w, b = (np.full(N, v, np.float32) for v in (2, 3, 4))
    np.testing.assert_array_equal(model(x, w, b), np.full(N, 10, np.float32))


@pytest.mark.parametrize("metadata, params, error, message", [
    ({"entry": "main", "functions": {"main": {"args": MAIN_SPECS}}}, {"w": weights()["w"]},
     ValueError, "params missing for the param arguments: b"),
    ({"entry": "main", "functions": {"main": {"args": MAIN_SPECS}}},
     {**weights(), "extra": np.zeros(1)}, ValueError, "params extra match no param argument"),
    ({"entry": "main", "functions": {"main": {"args": MAIN_SPECS}}},
     {**weights(), "w": np.zeros(N)}, ValueError,
     r"param 'w' is float64\[37\], its argument takes float32\[37\]"),
    ({"entry": "nope", "functions": {"main": {"args": MAIN_SPECS}}}, weights(), ValueError,
     "metadata 'entry' must name one of the functions"),
    ({"entry": "main"}, weights(), ValueError, "metadata 'functions' must be a non-empty object"),
    ({"entry": "main", "functions": {"main": {"args": MAIN_SPECS}}, "x": object()},
     weights(), ValueError, "metadata must be JSON data"),
    ({"entry": "absent", "functions": {"absent": {"args": []}}}, None, LLVMIRError,
     "the metadata names function 'absent' but no module defines it"),
])
def test_bad_exports(c_compiler, tmp_path, metadata, params, error, message):
    with pytest.raises(error, match=message):
        export_shared_library([AFFINE, MAIN], tmp_path / "model.so", metadata, params)
    assert os.listdir(tmp_path) == []


def test_no_c_compiler_is_a_toolchain_error(tmp_path, monkeypatch):
    monkeypatch.setenv("CC", "no-such-c-compiler")
    with pytest.raises(ToolchainError, match="no C compiler 'no-such-c-compiler' on PATH"):
        export_shared_library([AFFINE, MAIN], tmp_path / "model.so", METADATA, weights())


def test_a_symbol_nothing_defines_fails_at_link_time(c_compiler, tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("-z defs is a GNU/ELF linker option")
    with pytest.raises(ToolchainError, match="linking the shared library failed: it uses "
                                           "affine, which nothing defines"):
        export_shared_library(MAIN, tmp_path / "model.so",
                              {"entry": "main", "functions": {"main": {"args": MAIN_SPECS}}},
                              weights())


def test_loader_errors(exported, c_compiler, tmp_path):
    with pytest.raises(ModuleLoadError, match="no such library"):
        load_module(tmp_path / "missing.so")
    garbage = tmp_path / "garbage.so"
    garbage.write_bytes(b"not a shared library")
    with pytest.raises(ModuleLoadError, match="ends without the seal export_library writes"):
        load_module(garbage)
    source = tmp_path / "plain.c"
    source.write_text("int answer(void) { return 42; }\n")
    subprocess.run([c_compiler, "-shared", "-fPIC", "-o", tmp_path / "plain.so", source],
                   check=True)
    with pytest.raises(ModuleLoadError, match="ends without the seal"):
        load_module(tmp_path / "plain.so")
    (tmp_path / "sealed.so").write_bytes(seal_library((tmp_path / "plain.so").read_bytes()))
    with pytest.raises(ModuleLoadError, match="not a library built by mlc"):
        load_module(tmp_path / "sealed.so")

    copy = tmp_path / "copy.so"
    shutil.copy(exported, copy)  # its params file is model.params.npz, not beside it
    with pytest.raises(ModuleLoadError, match=r"its weights file .*model.params.npz is missing"):
        load_module(copy)
    shutil.copy(exported, tmp_path / "model.so")
    # Weights replaced after export: refused by the digest the library records.
    np.savez(tmp_path / "model.params.npz", w=np.zeros(N + 1, np.float32),
             b=np.zeros(N, np.float32))
    with pytest.raises(ModuleLoadError, match=r"the weights file model.params.npz is \d+ bytes, "
                                              r"the export wrote \d+"):
        load_module(tmp_path / "model.so")
