"""The acceptance networks: the graph modules the graph passes, operator fusion and the
demos are measured on, built with :class:`~mlc.graph.builder.GraphBuilder`.

    from mlc.graph import evaluate
    from mlc.graph.examples import EXAMPLES, resnet18

    net = resnet18(image_size=64)
    [logits] = evaluate(net.module, net.inputs())      # (1, 1000)
    deep = EXAMPLES["deep_convnet"](blocks=4)          # the same, by name
    EXAMPLES["deep_convnet"].parameters                # name, default, minimum, doc of each

Each network is a :class:`Network`: called with its parameters (keywords, each an
integer with a smallest value; an unknown name or a bad value is a
:class:`NetworkParameterError`), it builds an :class:`Example`.

Every network is float32, batch 1, with seeded random weights stored as
`graph.constant`s named after the framework's state-dict keys (`layer1.0.conv1.weight`,
`features.3.conv.1.0.weight`) so that printed IR reads against the original model.
The weights are scaled so that activations stay of order one however deep the network
(He initialisation for convolutions and dense layers, inference batch-norm statistics
near the identity, each residual branch damped by 1/sqrt(number of blocks)),
which keeps `evaluate` free of overflow and makes value comparisons between pipeline
stages meaningful.

Ops carry the name of the layer that applies them as their location
(`loc("layer1.0.conv1")`), named as torch.fx names the nodes of the framework's
model: a module's path (`layer1.0.bn1`, `features.3.conv.1.2` for a ReLU6), `_1` for
a module's second application (`layer1.0.relu_1`), and the block's path for
functional ops (`layer1.0.add`). Diagnostics and fusion remarks about an op therefore
name its layer.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
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
    parameters: Mapping[str, int] = field(default_factory=dict)
    """The network's parameters it was built with, defaults included."""

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


class NetworkParameterError(ValueError):
    """A parameter a network does not have, or a value it cannot take."""


@dataclass(frozen=True)
class NetworkParameter:
    """One parameter of an example network: an integer of at least `minimum`."""

    name: str
    default: int
    minimum: int
    doc: str


@dataclass(frozen=True)
class _Spec:
    minimum: int
    doc: str


SEED_DOC = "seed of the random weights"


class Network:
    """An example network by name: calling it with its parameters (keywords; the
    builder's defaults for the others) checks them and builds the :class:`Example`."""

    def __init__(self, name: str, build: Callable[..., Example], specs: Mapping[str, _Spec]):
        functools.update_wrapper(self, build)
        self.name = name
        self.build = build
        self._signature = inspect.signature(build)
        declared = list(self._signature.parameters)
        if declared != list(specs):
            raise TypeError(f"network {name!r}: parameters {declared} declared as {list(specs)}")
        self.parameters = tuple(NetworkParameter(key, self._signature.parameters[key].default,
                                                 spec.minimum, spec.doc)
                                for key, spec in specs.items())

    @property
    def summary(self) -> str:
        """The first line of the network's docstring."""
        return (self.build.__doc__ or "").strip().splitlines()[0]

    def check(self, *args: int, **kwargs: int) -> dict[str, int]:
        """Every parameter's value (the given ones checked, defaults for the others);
        NetworkParameterError says what is wrong."""
        known = {p.name: p for p in self.parameters}
        for key in kwargs:
            if key not in known:
                raise NetworkParameterError(
                    f"network '{self.name}' has no parameter '{key}'; its parameters: "
                    + ", ".join(known))
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise NetworkParameterError(f"network '{self.name}': {exc}") from None
        bound.apply_defaults()
        for key, value in bound.arguments.items():
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise NetworkParameterError(
                    f"network '{self.name}': {key} must be an integer, got {value!r}")
            if value < known[key].minimum:
                raise NetworkParameterError(
                    f"network '{self.name}': {key} must be at least {known[key].minimum}, "
                    f"got {value}")
        return {key: int(value) for key, value in bound.arguments.items()}

    def __call__(self, *args: int, **kwargs: int) -> Example:
        values = self.check(*args, **kwargs)
        return dataclasses.replace(self.build(**values), parameters=values)

    def __repr__(self) -> str:
        return f"<network {self.name}>"


EXAMPLES: dict[str, Network] = {}
"""The acceptance networks by name (for tools and demos), in the order they are listed."""


def _network(name: str, **specs: _Spec) -> Callable[[Callable[..., Example]], Network]:
    """Register the decorated builder as network `name`; `specs` gives each parameter's
    minimum and meaning (its default is the builder's)."""
    def register(build: Callable[..., Example]) -> Network:
        network = EXAMPLES[name] = Network(name, build, specs)
        return network
    return register


class _Network:
    """A GraphBuilder that also draws the weights: one seeded generator per network,
    so the same arguments always give the same module. Each layer helper builds its
    ops inside `b.layer(name)`, so they are located at the layer's name."""

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
        with self.b.layer(name):
            return self.b.conv2d(x, weight, strides=(stride, stride), padding=padding, groups=groups)

    def batch_norm(self, x: Value, name: str, axis: int = 1) -> Value:
        """Inference batch norm whose statistics sit near the identity: gamma and
        the variance in [0.5, 1.5), beta and the mean small."""
        c = x.type.shape[axis]
        gamma = self.uniform(f"{name}.weight", (c,), 0.5, 1.5)
        beta = self.normal(f"{name}.bias", (c,), 0.1)
        mean = self.normal(f"{name}.running_mean", (c,), 0.1)
        var = self.uniform(f"{name}.running_var", (c,), 0.5, 1.5)
        with self.b.layer(name):
            return self.b.batch_norm(x, gamma, beta, mean, var, axis=axis)

    def linear(self, x: Value, name: str, out_features: int, gain: float = 1.0) -> Value:
        """dense + bias_add on the last axis (a framework's Linear layer)."""
        in_features = x.type.shape[-1]
        weight = self.normal(f"{name}.weight", (out_features, in_features), gain / math.sqrt(in_features))
        bias = self.normal(f"{name}.bias", (out_features,), 0.1)
        with self.b.layer(name):
            # Rank 2 keeps Relay's default axis (1, not printed); deeper data names the last.
            return self.b.bias_add(self.b.dense(x, weight), bias, axis=-1 if x.type.rank > 2 else 1)

    def relu(self, x: Value, name: str) -> Value:
        with self.b.layer(name):
            return self.b.relu(x)

    def relu6(self, x: Value, name: str) -> Value:
        with self.b.layer(name):
            return self.b.clip(x, min=0.0, max=6.0)

    def add(self, x: Value, y: Value, name: str) -> Value:
        with self.b.layer(name):
            return self.b.add(x, y)

    def classifier_head(self, x: Value, avgpool: str, linear: str, num_classes: int) -> Value:
        """global average pooling, flatten, and the Linear layer `linear`."""
        with self.b.layer(avgpool):
            pooled = self.b.global_avg_pool2d(x)
        with self.b.layer("flatten"):
            flat = self.b.flatten(pooled)
        return self.linear(flat, linear, num_classes, gain=_RELU_GAIN)


def _channels(x: Value) -> int:
    """The channel count of an NCHW value."""
    return x.type.shape[1]


# ------------------------------------------------------------------ TVM's tutorial program


@_network("tutorial", seed=_Spec(0, SEED_DOC))
def tutorial_program(seed: int = 0) -> Example:
    """TVM's pass-infrastructure tutorial program: a conv2d and six arithmetic ops.

    As in fusion-examples.md §1:

        conv = conv2d(x, weight)                      x 1x64x56x56, weight 64x64x3x3 (parameters)
        y = multiply(add(c, c), 2.0)                  c: one 1x64x54x54 constant, 2.0 rank 0
        y = add(conv, y); z = add(y, c); z1 = add(y, c)
        return add(z, z1)

    One conv2d, five adds and a multiply besides the two constants; the
    duplicated `add(y, c)` is there for common-subexpression elimination, `add(c, c)`
    and the multiply for constant folding. Each op is located at the name of the
    variable it defines (`y` three times: `y`, `y_1`, `y_2`).
    """
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, 64, 56, 56))
    weight = b.param("weight", (64, 64, 3, 3))
    c = net.normal("c", (1, 64, 54, 54), 1.0)
    with b.layer("conv"):
        conv = b.conv2d(x, weight)
    with b.layer("y"):
        y = b.add(c, c)
    with b.layer("y_1"):
        y = b.multiply(y, b.const(2.0))
    with b.layer("y_2"):
        y = b.add(conv, y)
    with b.layer("z"):
        z = b.add(y, c)
    with b.layer("z1"):
        z1 = b.add(y, c)
    with b.layer("z2"):
        z2 = b.add(z, z1)
    return Example("tutorial", b.module(z2),
                   input_scales={"weight": _RELU_GAIN / math.sqrt(64 * 3 * 3)})


# ------------------------------------------------------------------ MLP


@_network("mlp", in_features=_Spec(1, "inputs, a flattened 28x28 image by default"),
          hidden=_Spec(1, "width of the hidden layer"),
          num_classes=_Spec(1, "outputs"), seed=_Spec(0, SEED_DOC))
def mlp(in_features: int = 784, hidden: int = 128, num_classes: int = 10, seed: int = 0) -> Example:
    """The MLC course's two-layer perceptron: 784 -> dense 128 -> relu -> dense 10.

    On a flattened 28x28 image (sizes are the parameters' defaults):

        x 1x784 -> dense 128 + bias_add (fc1) -> relu -> dense 10 + bias_add (fc2) -> 1x10

    Five ops besides the four weight constants.
    """
    net = _Network(seed)
    x = net.b.param("x", (1, in_features))
    h = net.relu(net.linear(x, "fc1", hidden), "relu")
    return Example("mlp", net.b.module(net.linear(h, "fc2", num_classes, gain=_RELU_GAIN)))


# ------------------------------------------------------------------ ResNet


def _basic_block(net: _Network, x: Value, name: str, out_channels: int, stride: int,
                 residual_gain: float) -> Value:
    """torchvision's BasicBlock: conv3x3 + bn + relu, conv3x3 + bn, add(main, shortcut),
    relu; the shortcut is a 1x1 conv + bn when the block changes shape."""
    h = net.relu(net.batch_norm(net.conv(x, f"{name}.conv1", out_channels, 3, stride, 1),
                                f"{name}.bn1"), f"{name}.relu")
    # The main branch is damped so that the variance added by each residual block
    # sums to O(1) over the whole network instead of compounding block by block.
    h = net.batch_norm(net.conv(h, f"{name}.conv2", out_channels, 3, 1, 1,
                                gain=_RELU_GAIN * residual_gain), f"{name}.bn2")
    shortcut = x
    if stride != 1 or _channels(x) != out_channels:
        shortcut = net.batch_norm(net.conv(x, f"{name}.downsample.0", out_channels, 1, stride),
                                  f"{name}.downsample.1")
    # Main branch first: fusion puts the add in the main branch's kernel.
    return net.relu(net.add(h, shortcut, f"{name}.add"), f"{name}.relu_1")


@_network("resnet18", image_size=_Spec(1, "height and width of the input image"),
          num_classes=_Spec(1, "outputs of the classifier"), seed=_Spec(0, SEED_DOC))
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
    and variances. Any `image_size` builds; below 32 the last stages see 1x1 images.
    """
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, 3, image_size, image_size))
    h = net.relu(net.batch_norm(net.conv(x, "conv1", 64, 7, 2, 3), "bn1"), "relu")
    with b.layer("maxpool"):
        h = b.max_pool2d(h, pool_size=(3, 3), strides=(2, 2), padding=(1, 1))
    residual_gain = 1 / math.sqrt(8)
    for stage, width in enumerate((64, 128, 256, 512), start=1):
        for index in range(2):
            stride = 2 if stage > 1 and index == 0 else 1
            h = _basic_block(net, h, f"layer{stage}.{index}", width, stride, residual_gain)
    return Example("resnet18", b.module(net.classifier_head(h, "avgpool", "fc", num_classes)))


@_network("deep_convnet", blocks=_Spec(1, "number of BasicBlocks"),
          width=_Spec(1, "channels of every block"),
          image_size=_Spec(1, "height and width of the input"), seed=_Spec(0, SEED_DOC))
def deep_convnet(blocks: int = 10, width: int = 64, image_size: int = 14, seed: int = 0) -> Example:
    """A synthetic stack of `blocks` ResNet BasicBlocks: size linear in depth.

    x 1x`width`x`image_size`x`image_size` through `blocks` BasicBlocks of constant
    shape (conv3x3 + bn + relu, conv3x3 + bn, add(main, x), relu), named `blocks.0`,
    `blocks.1`, ...

    7 ops per block (2 conv2d, 2 batch_norm, 2 relu, 1 add) and 10 constants; used to
    show that graph passes scale linearly with depth.
    """
    net = _Network(seed)
    h = net.b.param("x", (1, width, image_size, image_size))
    for index in range(blocks):
        h = _basic_block(net, h, f"blocks.{index}", width, 1, 1 / math.sqrt(blocks))
    return Example("deep_convnet", net.b.module(h))


# ------------------------------------------------------------------ MobileNetV2

# torchvision's inverted-residual settings (expansion t, channels c, repeats n,
# first stride s), the first four rows: 1 + 2 + 3 + 4 = 10 blocks.
_MOBILENET_V2_SETTINGS = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2))


@_network("mobilenet_v2", image_size=_Spec(1, "height and width of the input image"),
          num_classes=_Spec(1, "outputs of the classifier"), seed=_Spec(0, SEED_DOC))
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
    h = _conv_bn_relu6(net, x, "features.0", 32, 3, 2)
    index = 1
    for t, c, n, s in _MOBILENET_V2_SETTINGS:
        for repeat in range(n):
            h = _inverted_residual(net, h, f"features.{index}", t, c, s if repeat == 0 else 1)
            index += 1
    h = _conv_bn_relu6(net, h, f"features.{index}", 1280, 1)
    return Example("mobilenet_v2", b.module(net.classifier_head(h, "adaptive_avg_pool2d",
                                                                "classifier.1", num_classes)))


def _conv_bn_relu6(net: _Network, x: Value, name: str, out_channels: int, kernel: int,
                   stride: int = 1, groups: int = 1) -> Value:
    """torchvision's Conv2dNormActivation: `name`.0 conv (padding keeps the size at
    stride 1), `name`.1 batch norm, `name`.2 ReLU6."""
    h = net.conv(x, f"{name}.0", out_channels, kernel, stride, (kernel - 1) // 2, groups=groups)
    return net.relu6(net.batch_norm(h, f"{name}.1"), f"{name}.2")


def _inverted_residual(net: _Network, x: Value, name: str, expansion: int, out_channels: int,
                       stride: int) -> Value:
    """torchvision's InvertedResidual `name`; its layers are numbered as in its state dict
    (`name`.conv.0 the expansion, when there is one, then the depthwise convolution,
    the projection and its batch norm)."""
    in_channels = _channels(x)
    hidden = in_channels * expansion
    h, layer = x, 0
    if expansion != 1:
        h = _conv_bn_relu6(net, h, f"{name}.conv.0", hidden, 1)
        layer = 1
    h = _conv_bn_relu6(net, h, f"{name}.conv.{layer}", hidden, 3, stride, groups=hidden)
    h = net.batch_norm(net.conv(h, f"{name}.conv.{layer + 1}", out_channels, 1),
                       f"{name}.conv.{layer + 2}")
    if stride == 1 and in_channels == out_channels:
        h = net.add(h, x, f"{name}.add")
    return h


# ------------------------------------------------------------------ transformer


@_network("transformer", seq=_Spec(1, "sequence length"), hidden=_Spec(1, "hidden size"),
          heads=_Spec(1, "attention heads, a divisor of hidden"),
          ffn=_Spec(1, "width of the feed-forward layer"), seed=_Spec(0, SEED_DOC))
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
    Layers are named as BERT's (`attention.query`, `attention.softmax`,
    `intermediate.gelu`, `output.layer_norm`).
    """
    if hidden % heads:
        raise NetworkParameterError(f"network 'transformer': hidden ({hidden}) must be a "
                                    f"multiple of heads ({heads})")
    d = hidden // heads
    net = _Network(seed)
    b = net.b
    x = b.param("x", (1, seq, hidden))

    def split_heads(t: Value, name: str) -> Value:
        with b.layer(f"{name}.split_heads"):
            t = b.transpose(b.reshape(t, shape=(1, seq, heads, d)), axes=(0, 2, 1, 3))
            return b.reshape(t, shape=(heads, seq, d))

    q = split_heads(net.linear(x, "attention.query", hidden), "attention.query")
    k = split_heads(net.linear(x, "attention.key", hidden), "attention.key")
    v = split_heads(net.linear(x, "attention.value", hidden), "attention.value")
    with b.layer("attention.scores"):
        scores = b.divide(b.batch_matmul(q, k, transpose_b=True), b.const(math.sqrt(d)))
    with b.layer("attention.softmax"):
        probs = b.softmax(scores, axis=-1)
    with b.layer("attention.context"):
        context = b.batch_matmul(probs, v)
    with b.layer("attention.merge_heads"):
        context = b.transpose(b.reshape(context, shape=(1, heads, seq, d)), axes=(0, 2, 1, 3))
        context = b.reshape(context, shape=(1, seq, hidden))
    h = _layer_norm(net, net.add(x, net.linear(context, "attention.output", hidden),
                                 "attention.residual"), "attention.layer_norm")
    f = net.linear(h, "intermediate", ffn, gain=1.0)
    with b.layer("intermediate.gelu"):
        gelu = b.multiply(f, b.add(b.erf(b.divide(f, b.const(math.sqrt(2.0)))), b.const(1.0)))
        gelu = b.multiply(gelu, b.const(0.5))
    out = _layer_norm(net, net.add(h, net.linear(gelu, "output", hidden, gain=_RELU_GAIN),
                                   "output.residual"), "output.layer_norm")
    return Example("transformer", b.module(out))


def _layer_norm(net: _Network, x: Value, name: str) -> Value:
    size = x.type.shape[-1]
    gamma = net.uniform(f"{name}.weight", (size,), 0.5, 1.5)
    beta = net.normal(f"{name}.bias", (size,), 0.1)
    with net.b.layer(name):
        return net.b.layer_norm(x, gamma, beta, axis=-1)


__all__ = ["EXAMPLES", "Example", "Network", "NetworkParameter", "NetworkParameterError",
           "deep_convnet", "mlp", "mobilenet_v2_blocks", "resnet18", "transformer_encoder",
           "tutorial_program"]
