"""The acceptance networks as ONNX models, written as torch.onnx.export writes them.

    from mlc.onnx import import_onnx
    from mlc.onnx.examples import ONNX_EXAMPLES, resnet18

    model = resnet18(image_size=64)                 # onnx.ModelProto, opset 17
    module = import_onnx(model)                     # the graph module of the network
    ONNX_EXAMPLES["mobilenet_v2"](image_size=32)    # the same, by name

Each builder mirrors the network of the same name in :mod:`mlc.graph.examples`:
the same layers, sizes, layer names and seeded weights, drawn in the same order from
the same generator, so an imported model computes what the graph example computes
and graph-optimize fuses both into the same number of kernels. They are built with
`onnx.helper`, in the forms an exporter emits at opset 17:

* a convolution as `Conv` followed by `BatchNormalization` (`fold_batch_norm=False`,
  as exported in training-free mode without constant folding), or as one `Conv`
  with a bias input into which the batch norm is folded (`fold_batch_norm=True`, what
  torch.onnx.export's constant folding leaves);
* ReLU6 as `Clip` with min 0 and max 6 given as initializer inputs;
* a Linear layer as `Gemm(transB=1)` on 2-D data, or as `MatMul` with the transposed
  weight then `Add` of the bias on 3-D data;
* the classifier's flatten as `Flatten` (ResNet) or as `Reshape` to a shape computed
  from the tensor's own by `Shape`, `Gather`, `Unsqueeze` and `Concat` (MobileNetV2,
  `x.reshape(x.size(0), -1)`);
* attention heads split by `Reshape` and `Transpose` (keys straight to (0, 2, 3, 1),
  as exporters merge the two transposes), rank-4 `MatMul`s, `Softmax`,
  `LayerNormalization`, and GELU in its `Erf` formula (ONNX has no `Gelu` before
  opset 20).

Nodes are named after the framework's layers (`layer1.0.conv1`, `features.3.conv.1.2`)
and initializers after its state-dict keys (`layer1.0.conv1.weight`); every node's
(single) output is named as the node. The graph input is `x`, float32, batch 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
_RELU_GAIN = math.sqrt(2.0)
_BATCH_NORM_EPSILON = 1e-5


class _OnnxNetwork:
    """Collects the nodes and initializers of one model; draws the weights from one
    seeded generator in the order :mod:`mlc.graph.examples` draws them."""

    def __init__(self, seed: int, fold_batch_norm: bool = False):
        self.rng = np.random.default_rng(seed)
        self.fold_batch_norm = fold_batch_norm
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.shapes: dict[str, tuple[int, ...]] = {}

    # -- values

    def initializer(self, name: str, array: np.ndarray) -> str:
        self.initializers.append(numpy_helper.from_array(array, name))
        self.shapes[name] = tuple(array.shape)
        return name

    def normal(self, shape: Sequence[int], std: float) -> np.ndarray:
        return self.rng.standard_normal(tuple(shape), dtype=np.float32) * np.float32(std)

    def uniform(self, shape: Sequence[int], low: float, high: float) -> np.ndarray:
        return self.rng.uniform(low, high, tuple(shape)).astype(np.float32)

    def scalar(self, name: str, value: float) -> str:
        return self.initializer(name, np.array(value, np.float32))

    def node(self, op_type: str, inputs: Sequence[str], name: str,
             shape: Sequence[int], **attributes) -> str:
        """Add node `name`; its one output is named `name` too and has `shape`."""
        self.nodes.append(helper.make_node(op_type, list(inputs), [name], name=name, **attributes))
        self.shapes[name] = tuple(shape)
        return name

    # -- layers

    def conv_bn(self, x: str, conv: str, bn: str, out_channels: int, kernel: int,
                stride: int = 1, padding: int = 0, groups: int = 1,
                gain: float = _RELU_GAIN) -> str:
        """A bias-free convolution `conv` and its inference batch norm `bn`: two nodes,
        or one Conv with the batch norm folded into its weight and bias."""
        n, in_channels, height, width = self.shapes[x]
        in_per_group = in_channels // groups
        weight = self.normal((out_channels, in_per_group, kernel, kernel),
                             gain / math.sqrt(in_per_group * kernel * kernel))
        # As mlc.graph.examples: gamma and the variance in [0.5, 1.5), beta and mean small.
        gamma = self.uniform((out_channels,), 0.5, 1.5)
        beta = self.normal((out_channels,), 0.1)
        mean = self.normal((out_channels,), 0.1)
        var = self.uniform((out_channels,), 0.5, 1.5)
        out = (n, out_channels, (height + 2 * padding - kernel) // stride + 1,
               (width + 2 * padding - kernel) // stride + 1)
        attributes = dict(kernel_shape=[kernel, kernel], strides=[stride, stride],
                          pads=[padding] * 4, group=groups)
        if self.fold_batch_norm:
            scale = gamma / np.sqrt(var.astype(np.float64) + _BATCH_NORM_EPSILON)
            folded = (weight * scale[:, None, None, None]).astype(np.float32)
            bias = (beta - mean * scale).astype(np.float32)
            return self.node("Conv", [x, self.initializer(f"{conv}.weight", folded),
                                      self.initializer(f"{conv}.bias", bias)], conv, out, **attributes)
        h = self.node("Conv", [x, self.initializer(f"{conv}.weight", weight)], conv, out, **attributes)
        params = [self.initializer(f"{bn}.{key}", value) for key, value in
                  (("weight", gamma), ("bias", beta), ("running_mean", mean), ("running_var", var))]
        return self.node("BatchNormalization", [h, *params], bn, out, epsilon=_BATCH_NORM_EPSILON)

    def relu(self, x: str, name: str) -> str:
        return self.node("Relu", [x], name, self.shapes[x])

    def relu6(self, x: str, name: str) -> str:
        low, high = self.scalar(f"{name}.min", 0.0), self.scalar(f"{name}.max", 6.0)
        return self.node("Clip", [x, low, high], name, self.shapes[x])

    def add(self, x: str, y: str, name: str) -> str:
        return self.node("Add", [x, y], name, self.shapes[x])

    def linear(self, x: str, name: str, out_features: int, gain: float = 1.0) -> str:
        """A Linear layer: Gemm(transB=1) on 2-D data; MatMul by the transposed weight
        and Add of the bias on deeper data (the weight drawn as (out, in) either way)."""
        shape = self.shapes[x]
        in_features = shape[-1]
        weight = self.normal((out_features, in_features), gain / math.sqrt(in_features))
        bias = self.normal((out_features,), 0.1)
        out = (*shape[:-1], out_features)
        if len(shape) == 2:
            return self.node("Gemm", [x, self.initializer(f"{name}.weight", weight),
                                      self.initializer(f"{name}.bias", bias)], name, out, transB=1)
        product = self.node("MatMul", [x, self.initializer(f"{name}.weight", weight.T)],
                            f"{name}.matmul", out)
        return self.node("Add", [product, self.initializer(f"{name}.bias", bias)], name, out)

    def classifier_head(self, x: str, avgpool: str, linear: str, num_classes: int,
                        reshape: bool) -> str:
        """Global average pooling, flatten (Flatten, or Reshape to a shape computed from
        the tensor's own), and the Linear layer `linear`."""
        n, c = self.shapes[x][:2]
        pooled = self.node("GlobalAveragePool", [x], avgpool, (n, c, 1, 1))
        if reshape:
            flat = self.reshape_to_batch_by_rest(pooled, "flatten")
        else:
            flat = self.node("Flatten", [pooled], "flatten", (n, c), axis=1)
        return self.linear(flat, linear, num_classes, gain=_RELU_GAIN)

    def reshape_to_batch_by_rest(self, x: str, name: str) -> str:
        """`x.reshape(x.size(0), -1)` as exported: the batch size read with Shape and
        Gather, then Unsqueeze, Concat with -1, and Reshape."""
        shape = self.shapes[x]
        full = self.node("Shape", [x], f"{name}.shape", (len(shape),))
        index = self.initializer(f"{name}.batch_axis", np.array(0, np.int64))
        batch = self.node("Gather", [full, index], f"{name}.batch", (), axis=0)
        axes = self.initializer(f"{name}.unsqueeze_axes", np.array([0], np.int64))
        batch = self.node("Unsqueeze", [batch, axes], f"{name}.unsqueeze", (1,))
        rest = self.initializer(f"{name}.rest", np.array([-1], np.int64))
        target = self.node("Concat", [batch, rest], f"{name}.concat", (2,), axis=0)
        return self.node("Reshape", [x, target], name, (shape[0], math.prod(shape[1:])))

    def model(self, name: str, inputs: Sequence[tuple[str, Sequence[int]]], output: str,
              doc: str) -> onnx.ModelProto:
        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in inputs],
            [helper.make_tensor_value_info(output, TensorProto.FLOAT, list(self.shapes[output]))],
            initializer=self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="mlc.onnx.examples", doc_string=doc)
        model.ir_version = 8  # the IR version of opset 17's release (ONNX 1.12)
        return model


def _channels(net: _OnnxNetwork, x: str) -> int:
    return net.shapes[x][1]


# ------------------------------------------------------------------ MLP


def mlp(in_features: int = 784, hidden: int = 128, num_classes: int = 10,
        seed: int = 0) -> onnx.ModelProto:
    """The two-layer perceptron of `mlc.graph.examples.mlp`: Gemm (fc1), Relu, Gemm (fc2)
    on x 1x`in_features`."""
    net = _OnnxNetwork(seed)
    net.shapes["x"] = (1, in_features)
    h = net.relu(net.linear("x", "fc1", hidden), "relu")
    out = net.linear(h, "fc2", num_classes, gain=_RELU_GAIN)
    return net.model("mlp", [("x", (1, in_features))], out, mlp.__doc__)


# ------------------------------------------------------------------ ResNet-18


def _basic_block(net: _OnnxNetwork, x: str, name: str, out_channels: int, stride: int,
                 residual_gain: float) -> str:
    h = net.relu(net.conv_bn(x, f"{name}.conv1", f"{name}.bn1", out_channels, 3, stride, 1),
                 f"{name}.relu")
    h = net.conv_bn(h, f"{name}.conv2", f"{name}.bn2", out_channels, 3, 1, 1,
                    gain=_RELU_GAIN * residual_gain)
    shortcut = x
    if stride != 1 or _channels(net, x) != out_channels:
        shortcut = net.conv_bn(x, f"{name}.downsample.0", f"{name}.downsample.1",
                               out_channels, 1, stride)
    return net.relu(net.add(h, shortcut, f"{name}.add"), f"{name}.relu_1")


def resnet18(image_size: int = 224, num_classes: int = 1000, seed: int = 0,
             fold_batch_norm: bool = False) -> onnx.ModelProto:
    """torchvision's ResNet-18 (`mlc.graph.examples.resnet18`) on x
    1x3x`image_size`x`image_size`: 20 Conv, each with its BatchNormalization (or folded
    into the Conv's weight and bias), 17 Relu, 8 Add, MaxPool, GlobalAveragePool,
    Flatten, Gemm; 11.7 M weights at 1000 classes."""
    net = _OnnxNetwork(seed, fold_batch_norm)
    shape = (1, 3, image_size, image_size)
    net.shapes["x"] = shape
    h = net.relu(net.conv_bn("x", "conv1", "bn1", 64, 7, 2, 3), "relu")
    n, c, height, width = net.shapes[h]
    h = net.node("MaxPool", [h], "maxpool", (n, c, (height - 1) // 2 + 1, (width - 1) // 2 + 1),
                 kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    residual_gain = 1 / math.sqrt(8)
    for stage, width_ in enumerate((64, 128, 256, 512), start=1):
        for index in range(2):
            stride = 2 if stage > 1 and index == 0 else 1
            h = _basic_block(net, h, f"layer{stage}.{index}", width_, stride, residual_gain)
    out = net.classifier_head(h, "avgpool", "fc", num_classes, reshape=False)
    return net.model("resnet18", [("x", shape)], out, resnet18.__doc__)


# ------------------------------------------------------------------ MobileNetV2

_MOBILENET_V2_SETTINGS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2))


def _conv_bn_relu6(net: _OnnxNetwork, x: str, name: str, out_channels: int, kernel: int,
                   stride: int = 1, groups: int = 1) -> str:
    h = net.conv_bn(x, f"{name}.0", f"{name}.1", out_channels, kernel, stride,
                    (kernel - 1) // 2, groups)
    return net.relu6(h, f"{name}.2")


def _inverted_residual(net: _OnnxNetwork, x: str, name: str, expansion: int,
                       out_channels: int, stride: int) -> str:
    in_channels = _channels(net, x)
    hidden = in_channels * expansion
    h, layer = x, 0
    if expansion != 1:
        h = _conv_bn_relu6(net, h, f"{name}.conv.0", hidden, 1)
        layer = 1
    h = _conv_bn_relu6(net, h, f"{name}.conv.{layer}", hidden, 3, stride, groups=hidden)
    h = net.conv_bn(h, f"{name}.conv.{layer + 1}", f"{name}.conv.{layer + 2}", out_channels, 1)
    if stride == 1 and in_channels == out_channels:
        h = net.add(h, x, f"{name}.add")
    return h


def mobilenet_v2_blocks(image_size: int = 224, num_classes: int = 1000, seed: int = 0,
                        fold_batch_norm: bool = True) -> onnx.ModelProto:
    """torchvision's MobileNetV2, stem, first ten inverted-residual blocks and head
    (`mlc.graph.examples.mobilenet_v2_blocks`) on x 1x3x`image_size`x`image_size`: 31
    Conv with bias (batch norms folded, as torch.onnx.export leaves them; or Conv +
    BatchNormalization), 21 Clip(0, 6), 6 Add, GlobalAveragePool, Reshape to
    (batch, -1), Gemm."""
    net = _OnnxNetwork(seed, fold_batch_norm)
    shape = (1, 3, image_size, image_size)
    net.shapes["x"] = shape
    h = _conv_bn_relu6(net, "x", "features.0", 32, 3, 2)
    index = 1
    for t, c, n, s in _MOBILENET_V2_SETTINGS:
        for repeat in range(n):
            h = _inverted_residual(net, h, f"features.{index}", t, c, s if repeat == 0 else 1)
            index += 1
    h = _conv_bn_relu6(net, h, f"features.{index}", 1280, 1)
    out = net.classifier_head(h, "adaptive_avg_pool2d", "classifier.1", num_classes,
                              reshape=True)
    return net.model("mobilenet_v2", [("x", shape)], out, mobilenet_v2_blocks.__doc__)


# ------------------------------------------------------------------ transformer


def transformer_encoder(seq: int = 128, hidden: int = 256, heads: int = 4, ffn: int = 1024,
                        seed: int = 0) -> onnx.ModelProto:
    """One post-norm transformer encoder layer (`mlc.graph.examples.transformer_encoder`)
    on x 1x`seq`x`hidden`: q, k, v as MatMul + Add, heads split by Reshape and
    Transpose, MatMul, Div by sqrt(d), Softmax, MatMul, heads merged, MatMul + Add,
    residual Add, LayerNormalization, FFN with the Erf GELU, residual Add,
    LayerNormalization."""
    if hidden % heads:
        raise ValueError(f"transformer: hidden ({hidden}) must be a multiple of heads ({heads})")
    d = hidden // heads
    net = _OnnxNetwork(seed)
    net.shapes["x"] = (1, seq, hidden)
    split_shape = net.initializer("split_heads.shape", np.array([1, seq, heads, d], np.int64))
    merged_shape = net.initializer("merge_heads.shape", np.array([1, seq, hidden], np.int64))

    def split_heads(t: str, name: str, perm: Sequence[int]) -> str:
        t = net.node("Reshape", [t, split_shape], f"{name}.view", (1, seq, heads, d))
        return net.node("Transpose", [t], f"{name}.permute",
                        tuple((1, seq, heads, d)[p] for p in perm), perm=list(perm))

    q = split_heads(net.linear("x", "attention.query", hidden), "attention.query", (0, 2, 1, 3))
    k = split_heads(net.linear("x", "attention.key", hidden), "attention.key", (0, 2, 3, 1))
    v = split_heads(net.linear("x", "attention.value", hidden), "attention.value", (0, 2, 1, 3))
    scores = net.node("MatMul", [q, k], "attention.scores.matmul", (1, heads, seq, seq))
    scores = net.node("Div", [scores, net.scalar("attention.scores.scale", math.sqrt(d))],
                      "attention.scores", (1, heads, seq, seq))
    probs = net.node("Softmax", [scores], "attention.softmax", (1, heads, seq, seq), axis=-1)
    context = net.node("MatMul", [probs, v], "attention.context", (1, heads, seq, d))
    context = net.node("Transpose", [context], "attention.merge_heads.permute",
                       (1, seq, heads, d), perm=[0, 2, 1, 3])
    context = net.node("Reshape", [context, merged_shape], "attention.merge_heads",
                       (1, seq, hidden))
    h = _layer_norm(net, net.add("x", net.linear(context, "attention.output", hidden),
                                 "attention.residual"), "attention.layer_norm")
    f = net.linear(h, "intermediate", ffn, gain=1.0)
    shape = net.shapes[f]
    gelu = net.node("Div", [f, net.scalar("intermediate.gelu.sqrt2", math.sqrt(2.0))],
                    "intermediate.gelu.div", shape)
    gelu = net.node("Erf", [gelu], "intermediate.gelu.erf", shape)
    gelu = net.node("Add", [gelu, net.scalar("intermediate.gelu.one", 1.0)],
                    "intermediate.gelu.add", shape)
    gelu = net.node("Mul", [f, gelu], "intermediate.gelu.mul", shape)
    gelu = net.node("Mul", [gelu, net.scalar("intermediate.gelu.half", 0.5)],
                    "intermediate.gelu", shape)
    out = _layer_norm(net, net.add(h, net.linear(gelu, "output", hidden, gain=_RELU_GAIN),
                                   "output.residual"), "output.layer_norm")
    return net.model("transformer", [("x", (1, seq, hidden))], out, transformer_encoder.__doc__)


def _layer_norm(net: _OnnxNetwork, x: str, name: str) -> str:
    size = net.shapes[x][-1]
    gamma = net.initializer(f"{name}.weight", net.uniform((size,), 0.5, 1.5))
    beta = net.initializer(f"{name}.bias", net.normal((size,), 0.1))
    return net.node("LayerNormalization", [x, gamma, beta], name, net.shapes[x], axis=-1,
                    epsilon=1e-5)


ONNX_EXAMPLES: dict[str, Callable[..., onnx.ModelProto]] = {
    "mlp": mlp, "resnet18": resnet18, "mobilenet_v2": mobilenet_v2_blocks,
    "transformer": transformer_encoder}
"""The ONNX networks by the names of the graph examples they mirror
(`mlc.graph.examples.EXAMPLES`); each takes that example's parameters as keywords."""

__all__ = ["ONNX_EXAMPLES", "OPSET", "mlp", "mobilenet_v2_blocks", "resnet18",
           "transformer_encoder"]
