"""graph-bind-params (Relax's BindParams): parameters named in a map become
constants, from Python and from mlc-opt with a .npz file; the function computes what
it computed with those arrays passed in; bad maps are reported, nothing changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlc.graph import GraphBuilder, evaluate
from mlc.graph.ops.constant import ConstantOp
from mlc.graph.passes.bind_params import BindParamsError, bind_params
from mlc.ir import parse_module, print_op

MLC_OPT = Path(sys.executable).parent / "mlc-opt"


def mlp():
    b = GraphBuilder()
    x = b.param("x", (1, 6))
    w, bias = b.param("w", (4, 6)), b.param("b", (4,))
    return b.module(b.relu(b.bias_add(b.dense(x, w), bias)))


def arrays(seed: int = 0):
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal((1, 6), np.float32),
            "w": rng.standard_normal((4, 6), np.float32),
            "b": rng.standard_normal(4).astype(np.float32)}


def test_bound_parameters_become_constants_and_compute_the_same():
    p = arrays()
    module = mlp()
    expected = np.maximum(p["x"].astype(np.float64) @ p["w"].T + p["b"], 0)
    assert bind_params(module, {"w": p["w"], "b": p["b"].astype(np.float64)}) == 2
    [fn] = module.regions[0].ops()
    assert [a.name_hint for a in fn.entry_block.args] == ["x"]
    assert str(fn.type) == "(tensor<1x6xf32>) -> tensor<1x4xf32>"
    constants = [op for op in fn.walk() if isinstance(op, ConstantOp)]
    assert [c.results[0].name_hint for c in constants] == ["w", "b"]
    np.testing.assert_allclose(evaluate(module, [p["x"]])[0], expected, rtol=1e-6, atol=1e-6)
    # What it printed parses back: a module like any other.
    assert print_op(parse_module(print_op(module))) == print_op(module)


@pytest.mark.parametrize("params, message", [
    ({"v": np.zeros(4, np.float32)}, "no parameter of @main is named 'v'"),
    ({"b": np.zeros(5, np.float32)}, "the array given has shape \\[5\\]"),
    ({"b": np.zeros(4, np.complex64)}, "the array given holds complex64"),
])
def test_a_map_that_does_not_fit_changes_nothing(params, message):
    module = mlp()
    before = print_op(module)
    with pytest.raises(BindParamsError, match=message):
        bind_params(module, params)
    assert print_op(module) == before


def test_mlc_opt_binds_from_an_npz_file(tmp_path):
    p = arrays(1)
    np.savez(tmp_path / "weights.npz", w=p["w"], b=p["b"])
    (tmp_path / "mlp.mlir").write_text(print_op(mlp()))
    result = subprocess.run([str(MLC_OPT), "mlp.mlir", "-p",
                             "graph-bind-params{file=weights.npz}"],
                            capture_output=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    module = parse_module(result.stdout.decode())
    expected = np.maximum(p["x"].astype(np.float64) @ p["w"].T + p["b"], 0)
    np.testing.assert_allclose(evaluate(module, [p["x"]])[0], expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("pipeline, message", [
    ("graph-bind-params", "graph-bind-params needs the arrays"),
    ("graph-bind-params{file=missing.npz}", "cannot read 'missing.npz'"),
    ("graph-bind-params{file=weights.npz func-name=other}", "no function @other"),
])
def test_mlc_opt_reports_what_it_cannot_bind(tmp_path, pipeline, message):
    np.savez(tmp_path / "weights.npz", w=np.zeros((4, 6), np.float32))
    (tmp_path / "mlp.mlir").write_text(print_op(mlp()))
    result = subprocess.run([str(MLC_OPT), "mlp.mlir", "-p", pipeline, "-o", "out.mlir"],
                            capture_output=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr
    assert message in result.stderr.decode()
    assert not (tmp_path / "out.mlir").exists()
