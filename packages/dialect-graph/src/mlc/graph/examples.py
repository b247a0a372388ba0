"""The acceptance networks: the graph modules the graph passes, operator fusion and the
demos are measured on, built with :class:`~mlc.graph.builder.GraphBuilder`.

    from mlc.graph import evaluate
    from mlc.graph.examples import EXAMPLES, resnet18

    net = resnet18(image_size=64)
    [logits] = evaluate(net.module, net.inputs())      # (1, 1000)

Every network is float32, batch 1, with seeded random weights stored as
`graph.constant`s named after the framework's state-dict keys (`layer1.0.conv1.weight`,
`features.3.conv.1.0.weight`) so that printed IR reads against the original model.
The weights are scaled so that activations stay of order one however deep the network
(He initialisation for convolutions and dense layers, inference batch-norm statistics
near the identity, each residual branch damped by 1/sqrt(number of blocks)),
which keeps `evaluate` free of overflow and makes value comparisons between pipeline
stages meaningful.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from mlc.graph.builder import GraphBuilder
from mlc.ir import Operation, Value
from mlc.ir.dialects.func import FuncOp

# He initialisation's gain for a layer whose input went through a ReLU.
_RELU_GAIN = math.sqrt(2.0)


@dataclass(frozen=True, eq=False)
class Example:
    """A network built for tests and demos: its module (`builtin.module` holding
    `func.func @main`) and seeded random inputs for `@main`'s parameters."""

    name: str
    module: Operation
    input_scales: Mapping[str, float] = field(default_factory=dict)

    @property
    def main(self) -> FuncOp:
        """The module's `@main`."""
        for op in self.module.regions[0].ops():
            if isinstance(op, FuncOp) and op.sym_name.value == "main":
                return op
        raise LookupError(f"example {self.name!r} has no @main")

    def inputs(self, seed: int = 0) -> dict[str, np.ndarray]:
        """One float32 array per parameter of `@main`, by name, ready for
        `evaluate(module, inputs)`: standard normal, times the parameter's scale in
        `input_scales` (a weight passed as a parameter is He-scaled like the constants)."""
        rng = np.random.default_rng(seed)
        arrays = {}
        for arg in self.main.entry_block.args:
            scale = np.float32(self.input_scales.get(arg.name_hint, 1.0))
            arrays[arg.name_hint] = rng.standard_normal(arg.type.shape, dtype=np.float32) * scale
        return arrays


class _Network:
    """A GraphBuilder that also draws the weights: one seeded generator per network,
    so the same arguments always give the same module."""

    def __init__(self, seed: int):
        self.b = GraphBuilder()
        self.rng = np.random.default_rng(seed)

    def normal(self, name: str, shape: Sequence[int], std: float) -> Value:
        return self.b.const(self.rng.standard_normal(tuple(shape), dtype=np.float32) * np.float32(std),
                            name=name)

    def uniform(self, name: str, shape: Sequence[int], low: float, high: float) -> Value:
        return self.b.const(self.rng.uniform(low, high, tuple(shape)).astype(np.float32), name=name)

    def conv(self, x: Value, name: str, out_channels: int, kernel: int, stride: int = 1,
             padding: int = 0, groups: int = 1, gain: float = _RELU_GAIN) -> Value:
        """conv2d without bias (a batch norm follows every convolution here)."""
        in_per_group = _channels(x) // groups
        weight = self.normal(f"{name}.weight", (out_channels, in_per_group, kernel, kernel),
                             gain / math.sqrt(in_per_group * kernel * kernel))
        return self.b.conv2d(x, weight, strides=(stride, stride), padding=padding, groups=groups)

    def batch_norm(self, x: Value, name: str, axis: int = 1) -> Value:
        """Inference batch norm whose statistics sit near the identity: gamma and
        the variance in [0.5, 1.5), beta and the mean small."""
        c = x.type.shape[axis]
        gamma = self.uniform(f"{name}.weight", (c,), 0.5, 1.5)
        beta = self.normal(f"{name}.bias", (c,), 0.1)
        mean = self.normal(f"{name}.running_mean", (c,), 0.1)
        var = self.uniform(f"{name}.running_var", (c,), 0.5, 1.5)
        return self.b.batch_norm(x, gamma, beta, mean, var, axis=axis)

    def linear(self, x: Value, name: str, out_features: int, gain: float = 1.0) -> Value:
        """dense + bias_add on the last axis (a framework's Linear layer)."""
        in_features = x.type.shape[-1]
        weight = self.normal(f"{name}.weight", (out_features, in_features), gain / math.sqrt(in_features))
        bias = self.normal(f"{name}.bias", (out_features,), 0.1)
        # Rank 2 keeps Relay's default axis (1, not printed); deeper data names the last.
        return self.b.bias_add(self.b.dense(x, weight), bias, axis=-1 if x.type.rank > 2 else 1)

    def relu6(self, x: Value) -> Value:
        return self.b.clip(x, min=0.0, max=6.0)


def _channels(x: Value) -> int:
    """The channel count of an NCHW value."""
    return x.type.shape[1]


# ------------------------------------------------------------------ TVM's tutorial program


def tutorial_program(seed: int = 0) -> Example:
    """TVM's pass-infrastructure tutorial program: a conv2d and six arithmetic ops.

    As in fusion-examples.md §1:

        conv = conv2d(x, weight)                      x 1x64x56x56, weight 64x64x3x3 (parameters)
        y = multiply(add(c, c), 2.0)                  c: one 1x64x54x54 constant, 2.0 rank 0
        y = add(conv, y); z = add(y, c); z1 = add(y, c)
        return add(z, z1)

    One conv2d, five adds and a multiply besides the two constants; the
    duplicated `add(y, c)` is there for common-subexpression elimination, `add(c, c)`
    and the multiply for constant folding.
    """
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, 64, 56, 56))
    weight = b.param("weight", (64, 64, 3, 3))
    c = net.normal("c", (1, 64, 54, 54), 1.0)
    conv = b.conv2d(x, weight)
    y = b.add(c, c)
    y = b.multiply(y, b.const(2.0))
    y = b.add(conv, y)
    z = b.add(y, c)
    z1 = b.add(y, c)
    z2 = b.add(z, z1)
    return Example("tutorial", b.module(z2),
                   input_scales={"weight": _RELU_GAIN / math.sqrt(64 * 3 * 3)})


# ------------------------------------------------------------------ MLP


def mlp(seed: int = 0) -> Example:
    """The MLC course's two-layer perceptron: 784 -> dense 128 -> relu -> dense 10.

    On a flattened 28x28 image:

        x 1x784 -> dense 128 + bias_add -> relu -> dense 10 + bias_add -> 1x10

    Five ops besides the four weight constants.
    """
    net = _Network(seed)
    x = net.b.param("x", (1, 784))
    h = net.b.relu(net.linear(x, "fc1", 128))
    return Example("mlp", net.b.module(net.linear(h, "fc2", 10, gain=_RELU_GAIN)))


# ------------------------------------------------------------------ ResNet


def _basic_block(net: _Network, x: Value, name: str, out_channels: int, stride: int,
                 residual_gain: float) -> Value:
    """torchvision's BasicBlock: conv3x3 + bn + relu, conv3x3 + bn, add(main, shortcut),
    relu; the shortcut is a 1x1 conv + bn when the block changes shape."""
    b = net.b
    h = b.relu(net.batch_norm(net.conv(x, f"{name}.conv1", out_channels, 3, stride, 1), f"{name}.bn1"))
    # The main branch is damped so that the variance added by each residual block
    # sums to O(1) over the whole network instead of compounding block by block.
    h = net.batch_norm(net.conv(h, f"{name}.conv2", out_channels, 3, 1, 1,
                                gain=_RELU_GAIN * residual_gain), f"{name}.bn2")
    shortcut = x
    if stride != 1 or _channels(x) != out_channels:
        shortcut = net.batch_norm(net.conv(x, f"{name}.downsample.0", out_channels, 1, stride),
                                  f"{name}.downsample.1")
    # Main branch first: fusion puts the add in the main branch's kernel.
    return b.relu(b.add(h, shortcut))


def resnet18(image_size: int = 224, num_classes: int = 1000, seed: int = 0) -> Example:
    """torchvision's ResNet-18: 20 convolutions, 11.7M weights.

    On a 1x3x`image_size`x`image_size` image:

        conv1 7x7/2 pad 3 (64) + bn + relu, max_pool2d 3x3/2 pad 1
        layer1..layer4: 2 BasicBlocks each, 64/128/256/512 channels; the first block of
            layers 2-4 has stride 2 and a 1x1/2 conv + bn on the shortcut
        global_avg_pool2d, flatten, dense `num_classes` + bias_add

    70 ops besides constants: 20 conv2d (each followed by a batch_norm), 20 batch_norm,
    17 relu, 8 add, 1 max_pool2d, 1 global_avg_pool2d, 1 flatten, 1 dense, 1 bias_add.
    11,689,512 trainable weights at 1000 classes, as torchvision counts them (convolution
    kernels, batch-norm gamma and beta, the classifier), plus the 9,600 running means
    and variances. `image_size` must be at least 32 (the last stage is then 1x1).
    """
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, 3, image_size, image_size))
    h = b.relu(net.batch_norm(net.conv(x, "conv1", 64, 7, 2, 3), "bn1"))
    h = b.max_pool2d(h, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    residual_gain = 1 / math.sqrt(8)
    for stage, width in enumerate((64, 128, 256, 512), start=1):
        for index in range(2):
            stride = 2 if stage > 1 and index == 0 else 1
            h = _basic_block(net, h, f"layer{stage}.{index}", width, stride, residual_gain)
    h = b.flatten(b.global_avg_pool2d(h))
    return Example("resnet18", b.module(net.linear(h, "fc", num_classes, gain=_RELU_GAIN)))


def deep_convnet(blocks: int = 10, width: int = 64, image_size: int = 14, seed: int = 0) -> Example:
    """A synthetic stack of `blocks` ResNet BasicBlocks: size linear in depth.

    x 1x`width`x`image_size`x`image_size` through `blocks` BasicBlocks of constant
    shape (conv3x3 + bn + relu, conv3x3 + bn, add(main, x), relu).

    7 ops per block (2 conv2d, 2 batch_norm, 2 relu, 1 add) and 10 constants; used to
    show that graph passes scale linearly with depth.
    """
    net = _Network(seed)
    h = net.b.param("x", (1, width, image_size, image_size))
    for index in range(blocks):
        h = _basic_block(net, h, f"blocks.{index}", width, 1, 1 / math.sqrt(max(blocks, 1)))
    return Example("deep_convnet", net.b.module(h))


# ------------------------------------------------------------------ MobileNetV2

# torchvision's inverted-residual settings (expansion t, channels c, repeats n,
# first stride s), the first four rows: 1 + 2 + 3 + 4 = 10 blocks.
_MOBILENET_V2_SETTINGS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2))


def mobilenet_v2_blocks(image_size: int = 224, num_classes: int = 1000, seed: int = 0) -> Example:
    """torchvision's MobileNetV2, its first ten inverted-residual blocks: 31 convolutions.

    With its stem and head, on a 1x3x`image_size`x`image_size` image:

        features.0: conv 3x3/2 pad 1 (32) + bn + relu6 (clip 0..6)
        features.1-10, settings (t, c, n, s) = (1,16,1,1) (6,24,2,2) (6,32,3,2) (6,64,4,2):
            expand 1x1 conv to t*in + bn + relu6 (absent when t == 1),
            depthwise 3x3/s pad 1 conv + bn + relu6, project 1x1 conv to c + bn,
            add(main, input) when the stride is 1 and the channels match
        features.11: conv 1x1 (1280) + bn + relu6
        global_avg_pool2d, flatten, dense `num_classes` + bias_add

    93 ops besides constants: 31 conv2d, 31 batch_norm, 21 clip, 6 add,
    1 global_avg_pool2d, 1 flatten, 1 dense, 1 bias_add.
    """
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, 3, image_size, image_size))
    h = net.relu6(net.batch_norm(net.conv(x, "features.0.0", 32, 3, 2, 1), "features.0.1"))
    index = 1
    for t, c, n, s in _MOBILENET_V2_SETTINGS:
        for repeat in range(n):
            h = _inverted_residual(net, h, f"features.{index}.conv", t, c, s if repeat == 0 else 1)
            index += 1
    h = net.relu6(net.batch_norm(net.conv(h, f"features.{index}.0", 1280, 1),
                                 f"features.{index}.1"))
    h = b.flatten(b.global_avg_pool2d(h))
    return Example("mobilenet_v2", b.module(net.linear(h, "classifier.1", num_classes, gain=_RELU_GAIN)))


def _inverted_residual(net: _Network, x: Value, name: str, expansion: int, out_channels: int,
                       stride: int) -> Value:
    """torchvision's InvertedResidual; its layers are numbered as in its state dict."""
    in_channels = _channels(x)
    hidden = in_channels * expansion
    h, layer = x, 0
    if expansion != 1:
        h = net.relu6(net.batch_norm(net.conv(h, f"{name}.0.0", hidden, 1), f"{name}.0.1"))
        layer = 1
    h = net.relu6(net.batch_norm(net.conv(h, f"{name}.{layer}.0", hidden, 3, stride, 1, groups=hidden),
                                 f"{name}.{layer}.1"))
    h = net.batch_norm(net.conv(h, f"{name}.{layer + 1}", out_channels, 1),
                       f"{name}.{layer + 2}")
    if stride == 1 and in_channels == out_channels:
        h = net.b.add(h, x)
    return h


# ------------------------------------------------------------------ transformer


def transformer_encoder(seq: int = 128, hidden: int = 256, heads: int = 4, ffn: int = 1024,
                        seed: int = 0) -> Example:
    """One post-norm transformer encoder layer (BERT's), as exported through ONNX.

    On x 1x`seq`x`hidden`:

        q, k, v = dense + bias_add(axis=-1) of x, each
        per q/k/v: reshape (1, seq, heads, d), transpose to (1, heads, seq, d),
            reshape (heads, seq, d)                     d = hidden / heads
        scores = batch_matmul(q, k, transpose_b) / sqrt(d); softmax(axis=-1)
        ctx = batch_matmul(probs, v); reshape (1, heads, seq, d), transpose to
            (1, seq, heads, d), reshape (1, seq, hidden)
        h = layer_norm(add(x, dense + bias_add of ctx))
        f = dense `ffn` + bias_add of h; GELU as ONNX spells it:
            multiply(multiply(f, add(erf(divide(f, sqrt 2)), 1.0)), 0.5)
        out = layer_norm(add(h, dense `hidden` + bias_add of f))

    37 ops besides constants: 6 dense, 6 bias_add, 6 reshape + 3 transpose in, 2
    reshape + 1 transpose out, 2 batch_matmul, 2 divide, 1 softmax, 1 erf, 3 add
    (two residual, GELU's +1), 2 multiply, 2 layer_norm. (Rank-3 batch_matmul costs
    one reshape per head split and merge over the 33 ops of a rank-4 export.)
    """
    if hidden % heads:
        raise ValueError(f"hidden size {hidden} is not a multiple of {heads} heads")
    d = hidden // heads
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, seq, hidden))

    def split_heads(t: Value) -> Value:
        t = b.transpose(b.reshape(t, shape=(1, seq, heads, d)), axes=(0, 2, 1, 3))
        return b.reshape(t, shape=(heads, seq, d))

    q = split_heads(net.linear(x, "attention.query", hidden))
    k = split_heads(net.linear(x, "attention.key", hidden))
    v = split_heads(net.linear(x, "attention.value", hidden))
    scores = b.divide(b.batch_matmul(q, k, transpose_b=True), b.const(math.sqrt(d)))
    context = b.batch_matmul(b.softmax(scores, axis=-1), v)
    context = b.transpose(b.reshape(context, shape=(1, heads, seq, d)), axes=(0, 2, 1, 3))
    context = b.reshape(context, shape=(1, seq, hidden))
    h = _layer_norm(net, b.add(x, net.linear(context, "attention.output", hidden)),
                    "attention.layer_norm")
    f = net.linear(h, "intermediate", ffn, gain=1.0)
    gelu = b.multiply(f, b.add(b.erf(b.divide(f, b.const(math.sqrt(2.0)))), b.const(1.0)))
    gelu = b.multiply(gelu, b.const(0.5))
    out = _layer_norm(net, b.add(h, net.linear(gelu, "output", hidden, gain=_RELU_GAIN)),
                      "output.layer_norm")
    return Example("transformer", b.module(out))


def _layer_norm(net: _Network, x: Value, name: str) -> Value:
    size = x.type.shape[-1]
    gamma = net.uniform(f"{name}.weight", (size,), 0.5, 1.5)
    beta = net.normal(f"{name}.bias", (size,), 0.1)
    return net.b.layer_norm(x, gamma, beta, axis=-1)


EXAMPLES: dict[str, Callable[[], Example]] = {
    "tutorial": tutorial_program,
    "mlp": mlp,
    "resnet18": resnet18,
    "mobilenet_v2": mobilenet_v2_blocks,
    "transformer": transformer_encoder,
    "deep_convnet": deep_convnet,
}
"""The acceptance networks by name, at their default sizes (for tools and demos)."""

__all__ = ["EXAMPLES", "Example", "deep_convnet", "mlp", "mobilenet_v2_blocks",
           "resnet18", "transformer_encoder", "tutorial_program"]
