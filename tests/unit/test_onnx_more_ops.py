"""ONNX ops converted to compositions of graph ops, each against an independent
implementation on random data: Det against numpy.linalg.det (singular matrices, zero
pivots, batches), Col2Im against torch's fold, MaxPool's Indices and MaxUnpool against
torch's max_pool2d(return_indices) and max_unpool2d, LRN and InstanceNormalization
against torch, Hardmax against an argmax; interpreted and native."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

from mlc.onnx.backend import MlcBackend, native_available

ONNX_TYPE = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float64): TensorProto.DOUBLE,
             np.dtype(np.int64): TensorProto.INT64}

MODES = pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])


def _run(op: str, inputs: dict[str, np.ndarray], outputs: dict[str, tuple], native: bool,
         constants: dict[str, np.ndarray] | None = None, opset: int = 22, **attributes):
    """Outputs of one `op` node (graph inputs `inputs`, initializers `constants`,
    outputs name -> (onnx type, shape))."""
    if native and not native_available():
        pytest.skip("native mode unavailable")
    constants = constants or {}
    node = helper.make_node(op, [*inputs, *constants], list(outputs), **attributes)
    graph = helper.make_graph(
        [node], op,
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype], a.shape) for n, a in inputs.items()],
        [helper.make_tensor_value_info(n, t, s) for n, (t, s) in outputs.items()],
        [numpy_helper.from_array(a, n) for n, a in constants.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return MlcBackend.prepare(model, native=native).run(list(inputs.values()))


@MODES
def test_det_matches_numpy(native):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((6, 4, 4))
    x[1, :, 2] = x[1, :, 0] * 3  # singular
    x[2] = np.eye(4)[[2, 0, 3, 1]] * 2  # zeros on the diagonal: needs row swaps
    x[3, 0, 0] = 0.0
    x[4] = np.zeros((4, 4))
    [got] = _run("Det", {"x": x}, {"y": (TensorProto.DOUBLE, [6])}, native)
    np.testing.assert_allclose(got, np.linalg.det(x), rtol=1e-10, atol=1e-12)
    single = rng.standard_normal((3, 3)).astype(np.float32)
    [got] = _run("Det", {"x": single}, {"y": (TensorProto.FLOAT, [])}, native)
    np.testing.assert_allclose(got, np.linalg.det(single.astype(np.float64)), rtol=1e-5)


@MODES
def test_col2im_matches_torch_fold(native):
    rng = np.random.default_rng(1)
    image, block, strides, dilations, pads = (7, 9), (2, 3), (2, 1), (1, 2), (1, 0)
    counts = [(i + 2 * p - d * (k - 1) - 1) // s + 1
              for i, k, s, d, p in zip(image, block, strides, dilations, pads)]
    cols = rng.standard_normal((2, 3 * 6, counts[0] * counts[1])).astype(np.float32)
    [got] = _run("Col2Im", {"input": cols}, {"output": (TensorProto.FLOAT, [2, 3, *image])},
                 native, constants={"image_shape": np.array(image, np.int64),
                                    "block_shape": np.array(block, np.int64)},
                 strides=list(strides), dilations=list(dilations), pads=[*pads, *pads])
    want = F.fold(torch.from_numpy(cols), image, block, dilation=dilations, padding=pads,
                  stride=strides).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@MODES
def test_max_pool_indices_and_max_unpool_match_torch(native):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 7, 8)).astype(np.float32)
    x[0, 0, :2, :2] = 1.0  # ties: the first in row-major order wins
    y, indices = _run("MaxPool", {"x": x}, {"y": (TensorProto.FLOAT, [2, 3, 4, 4]),
                                            "i": (TensorProto.INT64, [2, 3, 4, 4])},
                      native, kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 0])
    values, planes = F.max_pool2d(torch.from_numpy(x), (3, 2), (2, 2), (1, 0),
                                  return_indices=True)
    np.testing.assert_array_equal(y, values.numpy())
    # torch counts within each (sample, channel) plane, ONNX over the whole tensor.
    base = (np.arange(6) * 7 * 8).reshape(2, 3, 1, 1)
    np.testing.assert_array_equal(indices, planes.numpy() + base)
    [unpooled] = _run("MaxUnpool", {"x": y, "i": indices},
                      {"out": (TensorProto.FLOAT, [2, 3, 7, 8])}, native,
                      constants={"shape": np.array([2, 3, 7, 8], np.int64)},
                      kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 0])
    want = F.max_unpool2d(values, planes, (3, 2), (2, 2), (1, 0), output_size=(7, 8))
    np.testing.assert_array_equal(unpooled, want.numpy())


@MODES
def test_lrn_and_instance_norm_match_torch(native):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 7, 4, 5)).astype(np.float32)
    [got] = _run("LRN", {"x": x}, {"y": (TensorProto.FLOAT, list(x.shape))}, native, size=5,
                 alpha=0.3, beta=0.6, bias=1.5)
    want = F.local_response_norm(torch.from_numpy(x), 5, alpha=0.3, beta=0.6, k=1.5).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # An even window: ONNX puts the extra channel after (torch before); by hand.
    [got] = _run("LRN", {"x": x}, {"y": (TensorProto.FLOAT, list(x.shape))}, native, size=4,
                 alpha=0.3, beta=0.6, bias=1.5)
    squares = np.pad(x.astype(np.float64) ** 2, ((0, 0), (1, 2), (0, 0), (0, 0)))
    sums = sum(squares[:, i:i + 7] for i in range(4))
    np.testing.assert_allclose(got, x / (1.5 + 0.3 / 4 * sums) ** 0.6, rtol=1e-5, atol=1e-6)
    scale, bias = rng.standard_normal(7).astype(np.float32), rng.standard_normal(7).astype(np.float32)
    [got] = _run("InstanceNormalization", {"x": x}, {"y": (TensorProto.FLOAT, list(x.shape))},
                 native, constants={"scale": scale, "bias": bias}, epsilon=1e-3)
    want = F.instance_norm(torch.from_numpy(x), weight=torch.from_numpy(scale),
                           bias=torch.from_numpy(bias), eps=1e-3).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@MODES
def test_hardmax_marks_the_first_maximum(native):
    x = np.array([[[1, 3, 3], [2, 2, 0]], [[0, 0, 0], [5, -1, 5]]], np.float32)
    [got] = _run("Hardmax", {"x": x}, {"y": (TensorProto.FLOAT, [2, 2, 3])}, native, axis=-1)
    want = np.eye(3, dtype=np.float32)[np.argmax(x, axis=-1)]
    np.testing.assert_array_equal(got, want)
