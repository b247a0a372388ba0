"""mlc.graph.windows against torch: convolutions, transposed convolutions and pools of
1, 2 and 3 spatial axes composed of the graph dialect's 2-D ops compute what torch's
conv{1,2,3}d, conv_transpose{1,2,3}d, max/avg_pool{1,2,3}d and lp_pool compute, on
random shapes, strides, padding, dilations and groups (interpreted)."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlc.graph import GraphBuilder, evaluate, windows

SETTINGS = settings(max_examples=25, deadline=None)


@st.composite
def window_cases(draw, transposed: bool = False, pooled: bool = False):
    rank = draw(st.integers(1, 3))
    kernel = [draw(st.integers(1, 3)) for _ in range(rank)]
    strides = [draw(st.integers(1, 3)) for _ in range(rank)]
    dilations = [draw(st.integers(1, 2)) for _ in range(rank)]
    # torch pads both ends of an axis alike, and a pool at most half its window.
    pads = [draw(st.integers(0, (k - 1) * d if transposed else (k // 2 if pooled else 2)))
            for k, d in zip(kernel, dilations)]
    # The window fits the padded input (torch's pools: the input alone).
    spatial = [max(draw(st.integers(1, 5)),
                   1 if transposed else (k - 1) * d + 1 - (0 if pooled else 2 * p))
               for k, d, p in zip(kernel, dilations, pads)]
    groups = 1 if pooled else draw(st.sampled_from([1, 2]))
    channels = groups * draw(st.integers(1, 2))
    out_channels = groups * draw(st.integers(1, 2))
    extra = [draw(st.integers(0, max(s, d) - 1)) for s, d in zip(strides, dilations)] \
        if transposed else [0] * rank
    return dict(rank=rank, kernel=kernel, strides=strides, dilations=dilations, pads=pads,
                spatial=spatial, groups=groups, channels=channels, out_channels=out_channels,
                extra=extra, seed=draw(st.integers(0, 2 ** 16)))


def _run(build, *arrays):
    b = GraphBuilder()
    params = [b.param(f"p{i}", a.shape) for i, a in enumerate(arrays)]
    [result] = evaluate(b.module(build(b, *params)), list(arrays))
    return result


@SETTINGS
@given(window_cases())
def test_convolution_matches_torch(case):
    rng = np.random.default_rng(case["seed"])
    x = rng.standard_normal((2, case["channels"], *case["spatial"])).astype(np.float32)
    w = rng.standard_normal((case["out_channels"], case["channels"] // case["groups"],
                             *case["kernel"])).astype(np.float32)
    got = _run(lambda b, xv, wv: windows.convolution(
        b, xv, wv, case["strides"], case["pads"] * 2, case["dilations"], case["groups"]), x, w)
    conv = getattr(F, f"conv{case['rank']}d")
    want = conv(torch.from_numpy(x), torch.from_numpy(w), stride=case["strides"],
                padding=case["pads"], dilation=case["dilations"], groups=case["groups"]).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@SETTINGS
@given(window_cases(transposed=True))
def test_transposed_convolution_matches_torch(case):
    assume(all(s * (n - 1) + e + (k - 1) * d + 1 - 2 * p >= 1 for s, n, e, k, d, p in zip(
        case["strides"], case["spatial"], case["extra"], case["kernel"], case["dilations"],
        case["pads"])))
    rng = np.random.default_rng(case["seed"])
    x = rng.standard_normal((1, case["channels"], *case["spatial"])).astype(np.float32)
    w = rng.standard_normal((case["channels"], case["out_channels"] // case["groups"],
                             *case["kernel"])).astype(np.float32)
    conv = getattr(F, f"conv_transpose{case['rank']}d")
    want = conv(torch.from_numpy(x), torch.from_numpy(w), stride=case["strides"],
                padding=case["pads"], output_padding=case["extra"], dilation=case["dilations"],
                groups=case["groups"]).numpy()
    got = _run(lambda b, xv, wv: windows.transposed_convolution(
        b, xv, wv, case["strides"], case["pads"] * 2, case["dilations"], want.shape[2:],
        case["groups"]), x, w)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@SETTINGS
@given(window_cases(pooled=True), st.sampled_from(["max", "avg"]), st.booleans(), st.booleans())
def test_pool_matches_torch(case, kind, ceil_mode, count_include_pad):
    rank = case["rank"]
    if kind == "avg" and (case["dilations"] != [1] * rank or ceil_mode):
        # torch's avg_pool has no dilation, and its ceil_mode divisor counts the
        # overhang differently from ONNX's (which graph.avg_pool2d follows).
        case["dilations"], ceil_mode = [1] * rank, False
    rng = np.random.default_rng(case["seed"])
    x = rng.standard_normal((2, 3, *case["spatial"])).astype(np.float32)
    extra = {"count_include_pad": count_include_pad} if kind == "avg" else {}
    got = _run(lambda b, xv: windows.pool(b, xv, kind, case["kernel"], case["strides"],
                                          case["pads"] * 2, case["dilations"], ceil_mode,
                                          **extra), x)
    xt = torch.from_numpy(x)
    if kind == "max":
        want = getattr(F, f"max_pool{rank}d")(xt, case["kernel"], case["strides"], case["pads"],
                                              case["dilations"], ceil_mode=ceil_mode)
    else:
        want = getattr(F, f"avg_pool{rank}d")(xt, case["kernel"], case["strides"], case["pads"],
                                              count_include_pad=count_include_pad)
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-6)


@SETTINGS
@given(window_cases(pooled=True), st.sampled_from([1.0, 2.0, 3.0]))
def test_lp_pool_matches_torch(case, p):
    # torch's lp_pool raises x (not |x|) to p and has no dilation, padding or ceil_mode
    # of its own: positive inputs, plain windows.
    rank = min(case["rank"], 2)
    rng = np.random.default_rng(case["seed"])
    x = np.abs(rng.standard_normal((1, 2, *case["spatial"][:rank]))).astype(np.float32)
    kernel = [min(k, s) for k, s in zip(case["kernel"], x.shape[2:])]
    got = _run(lambda b, xv: windows.lp_pool(b, xv, p, kernel, case["strides"][:rank],
                                             [0] * 2 * rank, [1] * rank), x)
    size = kernel[0] if rank == 1 else kernel  # lp_pool1d takes an int
    want = getattr(F, f"lp_pool{rank}d")(torch.from_numpy(x), p, size,
                                         case["strides"][0] if rank == 1 else case["strides"][:2])
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-4, atol=1e-5)


def test_a_convolution_needs_a_spatial_axis():
    b = GraphBuilder()
    with pytest.raises(ValueError, match="spatial axis"):
        windows.convolution(b, b.param("x", (1, 2)), b.param("w", (3, 2)), [], [], [])
