"""ONNX RNN, GRU and LSTM against torch's nn.RNN/GRU/LSTM on packed sequences: the same
weights (gates reordered from torch's order to ONNX's), sequences of different lengths
given as `sequence_lens` at run time, both directions; through the interpreter and
natively. ONNX's node tests check the attributes torch has no equivalent for
(activations, clip, peepholes, layout)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
import torch
from onnx import TensorProto, helper, numpy_helper

from mlc.onnx.backend import MlcBackend, native_available

SEQ, BATCH, INPUT, HIDDEN = 5, 4, 3, 6

# ONNX's gate order as indices of torch's chunks (LSTM: torch i f g o, ONNX i o f c;
# GRU: torch r z n, ONNX z r h).
GATE_ORDER = {"RNN": [0], "GRU": [1, 0, 2], "LSTM": [0, 3, 1, 2]}
TORCH_LAYER = {"RNN": torch.nn.RNN, "GRU": torch.nn.GRU, "LSTM": torch.nn.LSTM}


def _onnx_weights(layer: torch.nn.Module, op: str, bidirectional: bool):
    def reorder(tensor: torch.Tensor) -> np.ndarray:
        chunks = tensor.detach().numpy().reshape(len(GATE_ORDER[op]), HIDDEN, *tensor.shape[1:])
        return np.concatenate([chunks[i] for i in GATE_ORDER[op]])

    suffixes = ["_l0", "_l0_reverse"] if bidirectional else ["_l0"]
    w = np.stack([reorder(getattr(layer, "weight_ih" + s)) for s in suffixes])
    r = np.stack([reorder(getattr(layer, "weight_hh" + s)) for s in suffixes])
    b = np.stack([np.concatenate([reorder(getattr(layer, "bias_ih" + s)),
                                  reorder(getattr(layer, "bias_hh" + s))]) for s in suffixes])
    return w, r, b


def _model(op: str, w: np.ndarray, r: np.ndarray, b: np.ndarray, bidirectional: bool):
    directions = 2 if bidirectional else 1
    outputs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    attributes = {"hidden_size": HIDDEN,
                  "direction": "bidirectional" if bidirectional else "forward"}
    if op == "GRU":
        attributes["linear_before_reset"] = 1  # torch's GRU
    node = helper.make_node(op, ["X", "W", "R", "B", "sequence_lens"], outputs, **attributes)
    graph = helper.make_graph(
        [node], op,
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [SEQ, BATCH, INPUT]),
         helper.make_tensor_value_info("sequence_lens", TensorProto.INT32, [BATCH])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [SEQ, directions, BATCH, HIDDEN])]
        + [helper.make_tensor_value_info(name, TensorProto.FLOAT, [directions, BATCH, HIDDEN])
           for name in outputs[1:]],
        [numpy_helper.from_array(w.astype(np.float32), "W"),
         numpy_helper.from_array(r.astype(np.float32), "R"),
         numpy_helper.from_array(b.astype(np.float32), "B")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)])
    onnx.checker.check_model(model)
    return model


def _torch_outputs(layer, x: np.ndarray, lengths: np.ndarray, op: str, bidirectional: bool):
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.from_numpy(x), torch.from_numpy(lengths),
                                                     enforce_sorted=False)
    with torch.no_grad():
        out, state = layer(packed)
    padded, _ = torch.nn.utils.rnn.pad_packed_sequence(out, total_length=SEQ)
    directions = 2 if bidirectional else 1
    y = padded.numpy().reshape(SEQ, BATCH, directions, HIDDEN).transpose(0, 2, 1, 3)
    states = state if op == "LSTM" else (state,)
    return [y, *(s.numpy() for s in states)]


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
@pytest.mark.parametrize("bidirectional", [False, True], ids=["forward", "bidirectional"])
@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
def test_recurrent_layer_matches_torch_on_packed_sequences(op, bidirectional, native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    torch.manual_seed(0)
    layer = TORCH_LAYER[op](INPUT, HIDDEN, bidirectional=bidirectional).eval()
    rng = np.random.default_rng(1)
    x = rng.standard_normal((SEQ, BATCH, INPUT)).astype(np.float32)
    lengths = np.array([3, SEQ, 1, 4], np.int32)  # unsorted, one whole, one of a single step
    model = _model(op, *_onnx_weights(layer, op, bidirectional), bidirectional)
    got = MlcBackend.prepare(model, native=native).run([x, lengths])
    want = _torch_outputs(layer, x, lengths.astype(np.int64), op, bidirectional)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
