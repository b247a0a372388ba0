"""ONNX GridSample against torch's grid_sample: every mode, padding mode and
align_corners, 2-D and 3-D, on random grids reaching well outside [-1, 1] (so that each
padding mode has work); interpreted, and natively for a few; and grids of NaN and inf
give numbers, never an error."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper

from mlc.onnx.backend import MlcBackend, native_available

TORCH_MODE = {"linear": "bilinear", "cubic": "bicubic", "nearest": "nearest"}


def _model(x_shape, grid_shape, settings):
    """One GridSample node per (mode, padding_mode, align_corners) of `settings`, on
    the same X and grid, each an output."""
    out = [x_shape[0], x_shape[1], *grid_shape[1:-1]]
    nodes = [helper.make_node("GridSample", ["X", "grid"], [f"Y{i}"], mode=mode,
                              padding_mode=padding, align_corners=align)
             for i, (mode, padding, align) in enumerate(settings)]
    graph = helper.make_graph(
        nodes, "grid_sample",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape),
         helper.make_tensor_value_info("grid", TensorProto.FLOAT, grid_shape)],
        [helper.make_tensor_value_info(f"Y{i}", TensorProto.FLOAT, out)
         for i in range(len(settings))])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])


def _torch(x, grid, mode, padding, align):
    return F.grid_sample(torch.from_numpy(x), torch.from_numpy(grid), mode=TORCH_MODE[mode],
                         padding_mode=padding, align_corners=bool(align)).numpy()


def _settings(modes):
    return [(mode, padding, align) for mode in modes
            for padding in ("zeros", "border", "reflection") for align in (0, 1)
            # torch's bicubic clamps every coordinate in border mode, ONNX only those
            # outside the input (onnx.reference, onnxruntime): ONNX's node tests check it.
            if (mode, padding) != ("cubic", "border")]


@pytest.mark.parametrize("rank", [2, 3])
def test_grid_sample_matches_torch(rank):
    rng = np.random.default_rng(rank)
    spatial = (4, 5) if rank == 2 else (3, 4, 5)
    out = (3, 6) if rank == 2 else (2, 3, 4)
    x = rng.standard_normal((2, 3, *spatial)).astype(np.float32)
    grid = rng.uniform(-2.5, 2.5, (2, *out, rank)).astype(np.float32)
    # torch has no cubic sampling of volumes.
    settings = _settings(["nearest", "linear", "cubic"] if rank == 2 else ["nearest", "linear"])
    got = MlcBackend.prepare(_model(x.shape, grid.shape, settings)).run([x, grid])
    for setting, result in zip(settings, got):
        np.testing.assert_allclose(result, _torch(x, grid, *setting), rtol=1e-4, atol=1e-4,
                                   err_msg=f"mode, padding_mode, align_corners = {setting}")


@pytest.mark.skipif(not native_available(), reason="native mode unavailable")
def test_grid_sample_natively_matches_torch():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    grid = rng.uniform(-3, 3, (1, 4, 4, 2)).astype(np.float32)
    settings = [("cubic", "reflection", 0), ("linear", "zeros", 1), ("nearest", "border", 0)]
    got = MlcBackend.prepare(_model(x.shape, grid.shape, settings), native=True).run([x, grid])
    for setting, result in zip(settings, got):
        np.testing.assert_allclose(result, _torch(x, grid, *setting), rtol=1e-4, atol=1e-4,
                                   err_msg=f"mode, padding_mode, align_corners = {setting}")


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_grid_of_nan_and_inf_samples_numbers(padding, native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
    grid = np.array([[[[np.nan, 0.0], [np.inf, -np.inf], [1e30, -1e30]]]], np.float32)
    model = _model(x.shape, grid.shape, [("linear", padding, 0)])
    [got] = MlcBackend.prepare(model, native=native).run([x, grid])
    assert got.shape == (1, 1, 1, 3)
    assert np.all(np.isfinite(got)) and np.all((got >= 0) & (got <= 11))
