"""Write a small ONNX image classifier, built with onnx.helper, for the README's
`mlc-import` and `mlc-opt model.onnx` commands:

    python examples/onnx_convnet.py convnet.onnx

image[N,3,32,32] -> conv1 -> bn1 -> relu1 -> pool1 -> conv2 -> relu2 -> gap -> flatten
-> fc -> softmax -> probabilities[N,10]. The batch dimension N is dynamic (bound with
`--input-shape image=...`); the weights are seeded, so the file is the same every time.
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def convnet(seed: int = 0) -> onnx.ModelProto:
    """The model, opset 17, every node named (the names mlc locates ops at)."""
    rng = np.random.default_rng(seed)

    def weight(name: str, *shape: int, scale: float = 0.1) -> onnx.TensorProto:
        return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)

    node = helper.make_node
    nodes = [
        node("Conv", ["image", "conv1.weight", "conv1.bias"], ["c1"], name="conv1",
             kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        node("BatchNormalization", ["c1", "bn1.scale", "bn1.bias", "bn1.mean", "bn1.var"], ["b1"],
             name="bn1"),
        node("Relu", ["b1"], ["r1"], name="relu1"),
        node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2], strides=[2, 2]),
        node("Conv", ["p1", "conv2.weight"], ["c2"], name="conv2", kernel_shape=[3, 3],
             pads=[1, 1, 1, 1]),
        node("Relu", ["c2"], ["r2"], name="relu2"),
        node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        node("Flatten", ["g"], ["f"], name="flatten"),
        node("Gemm", ["f", "fc.weight", "fc.bias"], ["logits"], name="fc", transB=1),
        node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=1),
    ]
    initializers = [
        weight("conv1.weight", 8, 3, 3, 3), weight("conv1.bias", 8),
        numpy_helper.from_array(np.linspace(0.5, 1.5, 8, dtype=np.float32), "bn1.scale"),
        weight("bn1.bias", 8),
        weight("bn1.mean", 8),
        numpy_helper.from_array(np.linspace(0.8, 1.2, 8, dtype=np.float32), "bn1.var"),
        weight("conv2.weight", 16, 8, 3, 3), weight("fc.weight", 10, 16), weight("fc.bias", 10),
    ]
    graph = helper.make_graph(
        nodes, "convnet",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["N", 3, 32, 32])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", 10])],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="mlc examples")
    onnx.checker.check_model(model, full_check=True)
    return model


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python examples/onnx_convnet.py OUTPUT.onnx")
    onnx.save(convnet(), sys.argv[1])
