"""Models users bring, through torch.export (and torch.fx where they trace): Hugging Face
transformers (BERT, DistilBERT, GPT-2 with its causal mask, T5's encoder, ViT) built
from small configs, and torchvision's classification models, built with random weights
(no downloads; swin_t's shifted-window mask is built by slice assignments). Each imports, and its output through the graph interpreter and as
native code (graph-optimize, mlc.llvm.build) equals torch's: the ATen ops of
`mlc.torch.aten` on real models, token ids (int64) and masks (bool) included.

Tolerance: rtol 1e-4, atol 1e-4 on outputs of magnitude about 1: float32 throughout,
summed in another order than torch's kernels (matmul blocking, softmax, layer norms).
Small configs and the smaller torchvision models run in `make test`; the larger
torchvision models are slow (`make test-slow`).

PyPI's torchvision wheel links its C++ ops against CUDA libraries the CPU build of
torch does not have: its extension does not load, and torchvision's import then fails
on registering fake kernels for two of those ops (`torchvision::nms`, `qnms`), which no
classification model uses. Declaring their schemas first lets it (and transformers,
which imports it) import; the models are pure Python."""

import warnings

import numpy as np
import pytest
import torch

from mlc.graph import evaluate
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.torch import from_exported_program, from_fx

_SCHEMAS = torch.library.Library("torchvision", "DEF")
for _op in ("nms", "qnms"):
    _SCHEMAS.define(f"{_op}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")

torchvision = pytest.importorskip("torchvision")
transformers = pytest.importorskip("transformers")

RTOL = ATOL = 1e-4


def hugging_face(name: str):
    """(model, example inputs) of a small config: 2 layers, 4 heads, width 32."""
    T = transformers
    common = dict(num_attention_heads=4, max_position_embeddings=64)
    if name == "bert":
        model = T.BertModel(T.BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2,
                                         intermediate_size=64, **common))
    elif name == "distilbert":
        model = T.DistilBertModel(T.DistilBertConfig(vocab_size=100, dim=32, n_layers=2,
                                                     n_heads=4, hidden_dim=64,
                                                     max_position_embeddings=64))
    elif name == "gpt2":
        model = T.GPT2Model(T.GPT2Config(vocab_size=100, n_embd=32, n_layer=2, n_head=4,
                                         n_positions=64, use_cache=False, bos_token_id=0,
                                         eos_token_id=0))
    elif name == "t5-encoder":
        model = T.T5EncoderModel(T.T5Config(vocab_size=100, d_model=32, d_kv=8, d_ff=64,
                                            num_layers=2, num_heads=4))
    else:
        model = T.ViTModel(T.ViTConfig(hidden_size=32, num_hidden_layers=2, intermediate_size=64,
                                       image_size=32, patch_size=8, num_attention_heads=4))
        return model, (torch.randn(2, 3, 32, 32),)
    ids = torch.randint(0, 100, (2, 8))
    if name in ("bert", "distilbert", "gpt2"):  # padding in the second sequence
        mask = torch.ones(2, 8, dtype=torch.int64)
        mask[1, 6:] = 0
        return WithMask(model), (ids, mask)
    return model, (ids,)


class WithMask(torch.nn.Module):
    """A model called as model(input_ids=, attention_mask=): its last hidden state."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, mask):
        return self.model(input_ids=ids, attention_mask=mask).last_hidden_state


def vision(name: str):
    if name == "vit_b_16-small":
        model = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                                                     num_heads=4, hidden_dim=32, mlp_dim=64,
                                                     num_classes=10)
        return model, (torch.randn(1, 3, 32, 32),)
    return getattr(torchvision.models, name)(num_classes=10), (torch.randn(1, 3, 64, 64),)


def check(model, inputs, module) -> None:
    """The module's output through the interpreter and natively equals the model's."""
    from mlc.llvm.build import GRAPH_LOWER, build

    with torch.no_grad():
        expected = model(*inputs)
    expected = getattr(expected, "last_hidden_state", expected)
    expected = (expected[0] if isinstance(expected, (tuple, list)) else expected).numpy()
    arrays = [x.numpy() for x in inputs]
    interpreted = evaluate(module, arrays)[0]
    np.testing.assert_allclose(interpreted, expected, rtol=RTOL, atol=ATOL)
    load_pass_plugins()
    run_pipeline(module, "graph-optimize")
    native = build(module, pipeline=GRAPH_LOWER)(*arrays)
    native = native[0] if isinstance(native, tuple) else native
    np.testing.assert_allclose(native, expected, rtol=RTOL, atol=ATOL)


def exported(model, inputs):
    torch.manual_seed(0)
    with warnings.catch_warnings():  # transformers' and torch's notices while tracing
        warnings.simplefilter("ignore")
        return from_exported_program(torch.export.export(model.eval(), inputs))


@pytest.mark.parametrize("name", ["bert", "distilbert", "gpt2", "t5-encoder", "vit"])
def test_hugging_face_model_through_torch_export(name):
    torch.manual_seed(0)
    model, inputs = hugging_face(name)
    check(model.eval(), inputs, exported(model, inputs))


SMALL_VISION = ["mobilenet_v3_small", "shufflenet_v2_x0_5", "squeezenet1_0", "vit_b_16-small"]
LARGE_VISION = ["resnet18", "mobilenet_v2", "efficientnet_b0", "convnext_tiny", "densenet121",
                "mnasnet0_5", "regnet_y_400mf", "alexnet", "vgg11", "swin_t"]


@pytest.mark.parametrize("name", SMALL_VISION + [pytest.param(n, marks=pytest.mark.slow)
                                                 for n in LARGE_VISION])
def test_torchvision_model_through_torch_export(name):
    torch.manual_seed(0)
    model, inputs = vision(name)
    check(model.eval(), inputs, exported(model, inputs))


@pytest.mark.parametrize("name", ["mobilenet_v3_small", pytest.param("efficientnet_b0",
                                                                     marks=pytest.mark.slow)])
def test_torchvision_model_through_fx(name):
    # Hardswish, Hardsigmoid, ReLU6 and stochastic depth (efficientnet) as fx modules.
    torch.manual_seed(0)
    model, inputs = vision(name)
    module = from_fx(model.eval(), [tuple(x.shape) for x in inputs])
    check(model, inputs, module)
