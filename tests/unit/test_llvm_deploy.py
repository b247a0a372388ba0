"""Deploying whole models (TVM's `export_library` → `load_module`): a model built with
mlc.llvm.build is written as one shared library with its weights beside it and its
signature inside it, and the loaded library runs with numpy and ctypes alone, through
the same executor interface, equal to the graph interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mlc.graph.examples import mlp, resnet18
from mlc.graph.interpreter import evaluate
from mlc.llvm.build import build
from mlc.llvm.executor import ModelExecutor
from mlc.llvm.loader import load_module

NETWORKS = {"mlp": lambda: mlp(), "resnet18": lambda: resnet18(image_size=32)}


@pytest.fixture(scope="module", params=sorted(NETWORKS))
def deployed(request, c_compiler, tmp_path_factory):
    """(network, its input, the interpreter's output, the compiled model, the path of
    its exported library)."""
    example = NETWORKS[request.param]()
    module = example.module
    main = next(op for op in module.regions[0].ops() if op.sym_name.value == "main")
    [argument] = main.entry_block.args
    rng = np.random.default_rng(7)
    x = rng.standard_normal(argument.type.shape).astype(np.float32)
    [expected] = evaluate(module, [x])
    model = build(module)
    path = model.export_library(tmp_path_factory.mktemp(request.param) / "model.so")
    return request.param, x, expected, model, path


def test_the_compiled_model_equals_the_interpreter(deployed):
    _, x, expected, model, _ = deployed
    np.testing.assert_allclose(model(x), expected, rtol=1e-4, atol=1e-5)
    model.set_input(0, x)
    model.run()
    np.testing.assert_allclose(model.get_output(0), expected, rtol=1e-4, atol=1e-5)


def test_the_library_carries_its_signature_and_its_weights_lie_beside_it(deployed):
    _, _, _, model, path = deployed
    assert sorted(p.name for p in path.parent.iterdir()) == ["model.params.npz", "model.so"]
    loaded = load_module(path)
    roles = {}
    for spec in loaded.entry.specs:
        roles.setdefault(spec.role, []).append(spec.name)
    assert roles["input"] == [s.name for s in model.inputs] == ["x"]
    assert roles["output"] == ["output0"]
    assert sorted(roles["param"]) == sorted(model.params)
    assert roles["workspace"] == [s.name for s in model.workspaces]
    assert loaded.entry.name == "main" and list(loaded.functions) == ["main"]
    for name, weight in model.params.items():
        np.testing.assert_array_equal(loaded.params[name], weight)
        assert loaded.entry.bound[name] is loaded.params[name]  # bound once, no copy


def test_the_loaded_library_runs_without_the_compiler(deployed, tmp_path):
    """In a fresh interpreter, with nothing of the compiler imported: the executor's
    interface and a plain call, both equal to the interpreter."""
    _, x, expected, _, path = deployed
    np.save(tmp_path / "x.npy", x)
    program = textwrap.dedent(f"""
        import sys
        import numpy as np
        from mlc.llvm import load_module
        model = load_module({str(path)!r})
        x = np.load({str(tmp_path / "x.npy")!r})
        model.set_input("x", x)
        model.run()
        np.save({str(tmp_path / "run.npy")!r}, model.get_output(0))
        np.save({str(tmp_path / "call.npy")!r}, model(x))
        print(model.num_outputs, [s.name for s in model.inputs])
        print(sorted(m for m in sys.modules
                     if m.startswith(('llvmlite', 'mlc.ir', 'mlc.graph', 'mlc.loop',
                                      'mlc.onnx', 'mlc.llvm.build', 'mlc.llvm.jit', 'onnx'))))
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    signature, imported = done.stdout.splitlines()
    assert signature == "1 ['x']"
    assert imported == "[]"
    for result in ("run", "call"):
        np.testing.assert_allclose(np.load(tmp_path / f"{result}.npy"), expected,
                                   rtol=1e-4, atol=1e-5)


def test_the_executor_interface_reports_misuse(deployed):
    _, x, _, model, path = deployed
    for executor in (model, load_module(path)):
        with pytest.raises(ValueError, match="inputs not set: x"):
            ModelExecutor(executor.entry).run()
        with pytest.raises(KeyError, match="no input named 'y' \\(the inputs are x\\)"):
            executor.set_input("y", x)
        with pytest.raises(IndexError, match="input index 1 out of range"):
            executor.set_input(1, x)
        with pytest.raises(IndexError, match="output index 1 out of range"):
            executor.get_output(1)
        executor.set_input("x", x.astype(np.float64))
        with pytest.raises(ValueError, match="argument 0 \\('x'\\) must have dtype float32"):
            executor.run()
