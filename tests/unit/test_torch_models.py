"""Whole networks written with torch.nn through the torch frontend (issue 14): the MLC
course's MyModel, an MLP, a ResNet-18 and a post-norm transformer encoder layer, each
imported with torch.fx (`from_fx`) and with torch.export (`from_exported_program`),
computing what torch computes (seeded weights, rtol 1e-4) through the graph
interpreter and natively (`mlc.llvm.build`); after graph-optimize they are as many
kernels as the same networks imported from ONNX (`mlc.onnx.examples`)."""

from __future__ import annotations

import math
import os
import re
from collections import Counter

import numpy as np
import pytest

if os.environ.get("CI") == "true":
    import torch  # CI installs the torch frontend: its tests must run there
else:
    torch = pytest.importorskip("torch")

from torch import nn  # noqa: E402

from mlc.graph import evaluate  # noqa: E402
from mlc.graph.fusion.outline import is_primitive  # noqa: E402
from mlc.ir.dialects.func import FuncOp  # noqa: E402
from mlc.ir.passes.context import PassContext  # noqa: E402
from mlc.ir.passes.manager import run_pipeline  # noqa: E402
from mlc.ir.passes.registry import load_pass_plugins  # noqa: E402
from mlc.torch import from_exported_program, from_fx  # noqa: E402

RTOL = ATOL = 1e-4


# ------------------------------------------------------------------ the networks


class MyModel(nn.Module):
    """The MLC course's model: a matmul with an nn.Parameter, then relu."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(128, 128))

    def forward(self, x):
        return torch.relu(torch.matmul(x, self.weight))


class MLP(nn.Module):
    def __init__(self, in_features: int = 784, hidden: int = 128, num_classes: int = 10):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class BasicBlock(nn.Module):
    def __init__(self, in_channels: int, channels: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, channels, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(channels, channels, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.downsample = None
        if stride != 1 or in_channels != channels:
            self.downsample = nn.Sequential(nn.Conv2d(in_channels, channels, 1, stride, bias=False),
                                            nn.BatchNorm2d(channels))

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet18(nn.Module):
    """torchvision's ResNet-18, written out."""

    def __init__(self, num_classes: int = 1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        channels = 64
        for stage, width in enumerate((64, 128, 256, 512), start=1):
            stride = 1 if stage == 1 else 2
            blocks = [BasicBlock(channels, width, stride), BasicBlock(width, width, 1)]
            setattr(self, f"layer{stage}", nn.Sequential(*blocks))
            channels = width
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class SelfAttention(nn.Module):
    def __init__(self, hidden: int, heads: int):
        super().__init__()
        self.heads, self.d = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.output = nn.Linear(hidden, hidden)

    def forward(self, x):
        batch, seq, hidden = x.shape
        q, k, v = (layer(x).view(batch, seq, self.heads, self.d).permute(0, 2, 1, 3)
                   for layer in (self.query, self.key, self.value))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d)
        context = torch.matmul(torch.softmax(scores, dim=-1), v)
        context = context.permute(0, 2, 1, 3).contiguous().view(batch, seq, hidden)
        return self.output(context)


class TransformerEncoderLayer(nn.Module):
    """A post-norm (BERT) encoder layer: attention, residual, LayerNorm, GELU FFN,
    residual, LayerNorm; dropout as in training code, the identity in eval mode."""

    def __init__(self, hidden: int = 256, heads: int = 4, ffn: int = 1024):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.attention_norm = nn.LayerNorm(hidden)
        self.intermediate = nn.Linear(hidden, ffn)
        self.gelu = nn.GELU()
        self.output = nn.Linear(ffn, hidden)
        self.dropout = nn.Dropout(0.1)
        self.output_norm = nn.LayerNorm(hidden)

    def forward(self, x):
        h = self.attention_norm(x + self.dropout(self.attention(x)))
        return self.output_norm(h + self.dropout(self.output(self.gelu(self.intermediate(h)))))


def _seeded(model: nn.Module) -> nn.Module:
    """`model` in eval mode with batch-norm statistics and layer-norm affines drawn from
    the seeded generator too (their defaults, 0 and 1, would hide mistakes)."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.1, 0.1)
            module.running_var.uniform_(0.5, 1.5)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.normal_(0, 0.1)
        elif isinstance(module, nn.LayerNorm):
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.normal_(0, 0.1)
    return model.eval()


# name: (build, input shape, the ONNX example and its parameters, kernels after graph-optimize)
NETWORKS = {
    "my_model": (MyModel, (1, 128), None, 1),
    "mlp": (MLP, (1, 784), ("mlp", {}), 2),
    "resnet18": (ResNet18, (1, 3, 32, 32), ("resnet18", {"image_size": 32}), 24),
    "transformer": (TransformerEncoderLayer, (1, 32, 256), ("transformer", {"seq": 32}), 15),
}


def _network(name: str):
    build, shape, _, _ = NETWORKS[name]
    torch.manual_seed(0)
    model = _seeded(build())
    x = torch.randn(shape, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = model(x).numpy()
    return model, x, expected


@pytest.fixture(scope="module", params=list(NETWORKS))
def network(request):
    return (request.param, *_network(request.param))


def _assert_close(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    np.testing.assert_allclose(actual, expected, rtol=RTOL,
                               atol=ATOL * float(np.abs(expected).max()))


def _kernels(module) -> list[str]:
    load_pass_plugins()
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize")
    assert result.success, result.diagnostics
    return [op.sym_name.value for op in module.regions[0].ops()
            if isinstance(op, FuncOp) and is_primitive(op)]


# ------------------------------------------------------------------ torch.fx


def test_fx_import_computes_what_torch_does(network):
    name, model, x, expected = network
    module = from_fx(model, [tuple(x.shape)])
    [y] = evaluate(module, [x.numpy()])
    _assert_close(y, expected)


def test_exported_program_computes_what_torch_does(network):
    name, model, x, expected = network
    module = from_exported_program(torch.export.export(model, (x,)))
    [y] = evaluate(module, [x.numpy()])
    _assert_close(y, expected)


def test_fx_import_runs_natively(network):
    from mlc.llvm.build import build

    name, model, x, expected = network
    compiled = build(from_fx(model, [tuple(x.shape)]))
    _assert_close(compiled(x.numpy()), expected)


def _compositions(kernels: list[str]) -> Counter:
    return Counter(re.sub(r"^fused_|_\d+$", "", k) for k in kernels)


def test_kernel_counts_equal_the_onnx_paths(network):
    """Both torch paths fuse into as many kernels as the ONNX model of the same network
    (mlc.onnx.examples), the FX path into kernels of the same ops, and the optimised
    module still computes what torch does."""
    name, model, x, expected = network
    _, _, onnx_example, count = NETWORKS[name]
    fx_module = from_fx(model, [tuple(x.shape)])
    fx_kernels = _kernels(fx_module)
    exported_kernels = _kernels(from_exported_program(torch.export.export(model, (x,))))
    assert len(fx_kernels) == len(exported_kernels) == count
    if onnx_example is not None:
        onnx = pytest.importorskip("mlc.onnx")
        from mlc.onnx import examples as onnx_examples

        onnx_network, parameters = onnx_example
        onnx_module = onnx.import_onnx(onnx_examples.ONNX_EXAMPLES[onnx_network](**parameters))
        onnx_kernels = _kernels(onnx_module)
        assert len(onnx_kernels) == count
        if name != "transformer":  # torch's GELU is one op, ONNX opset 17's five
            assert _compositions(fx_kernels) == _compositions(onnx_kernels)
    [y] = evaluate(fx_module, [x.numpy()])
    _assert_close(y, expected)


def test_ops_are_located_at_fx_nodes_and_weights_named_by_state_dict_key():
    model, x, _ = _network("resnet18")
    module = from_fx(model, [tuple(x.shape)])
    main = next(op for op in module.regions[0].ops() if isinstance(op, FuncOp))
    located = {(op.name, str(op.loc)) for op in main.entry_block.ops()}
    assert ("graph.conv2d", 'loc("layer1_0_conv1")') in located
    assert ("graph.batch_norm", 'loc("layer1_0_bn1")') in located
    assert ("graph.add", 'loc("add")') in located or ("graph.add", 'loc("iadd")') in located
    assert ("graph.dense", 'loc("fc")') in located
    constants = {str(op.loc) for op in main.entry_block.ops() if op.name == "graph.constant"}
    assert set(model.state_dict()) - {k for k in model.state_dict()
                                      if k.endswith("num_batches_tracked")} == \
        {c[5:-2] for c in constants}
