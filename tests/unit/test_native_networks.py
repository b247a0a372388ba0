"""The acceptance networks (MLP, ResNet-18, MobileNetV2's blocks, the transformer
encoder of mlc.graph.examples) compiled to one native entry (`mlc.llvm.build`) compute
what the graph interpreter computes (`mlc.graph.evaluate`), and the native module
defines one function per distinct kernel graph-lower-to-loop made (the structural
cache survives the lowering to LLVM: no kernel is duplicated or lost), plus @main.

Tolerance: the graph interpreter computes each op in float64 and rounds once to
float32; the native kernels compute and accumulate in float32 in the order the
loops say (LLVM does not reassociate; `contract` lets it fuse a multiply-add into an
FMA), so |native - graph| <= 1e-5 * |graph| + 1e-5 * the output's largest magnitude
(at least 1). The fast suite runs small parameters, the
slow one the full sizes (whose distinct-kernel counts tests/filecheck/loop/
pipeline-networks.mlir also states).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from mlc.graph import evaluate
from mlc.graph.examples import EXAMPLES
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.build import build, graph_to_loops
from mlc.llvm.profile import PROFILE_SUFFIX
from mlc.llvm.target import Target

sys.path.insert(0, str(Path(__file__).parents[1] / "property"))
from native_runs import assert_close, defined_functions  # noqa: E402

RTOL = ATOL = 1e-5

SMALL = {
    "mlp": {"in_features": 64, "hidden": 32, "num_classes": 10},
    "resnet18": {"image_size": 32, "num_classes": 10},
    "mobilenet_v2": {"image_size": 32, "num_classes": 10},
    "transformer": {"seq": 8, "hidden": 32, "heads": 2, "ffn": 64},
}
# Distinct kernels at full size, as graph-lower-to-loop's statistics count them.
FULL_SIZE_KERNELS = {"mlp": 2, "resnet18": 20, "mobilenet_v2": 24, "transformer": 10}


def distinct_kernels(module) -> int:
    """The kernels a default build's graph-lower-to-loop makes of `module` (a copy is
    lowered)."""
    lowered = module.clone()
    with PassContext(opt_level=3):
        result = run_pipeline(lowered, graph_to_loops(Target()))
    assert result.success
    return sum(1 for fn in defined_functions(lowered) if fn.sym_name.value != "main")


def native_definitions(llvm_ir: str) -> list[str]:
    """The module's external functions: kernels and entries, not the internal bodies
    the OpenMP lowering outlines from parallel loops."""
    return re.findall(r"^define (?![^@]*\b(?:internal|private)\b)[^@]*@\"?([\w.$]+)\"?\(",
                      llvm_ir, re.M)


def check_network(name: str, params: dict, kernels: int | None = None) -> None:
    example = EXAMPLES[name](**params)
    inputs = example.inputs(seed=1)
    expected = evaluate(example.module, inputs)
    model = build(example.module)
    got = model(**inputs)
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(expected)
    for n, (g, e) in enumerate(zip(got, expected)):
        assert g.dtype == e.dtype == np.float32
        assert_close(g, e, RTOL, ATOL, f"{name}: output #{n}")
    defined = [name for name in native_definitions(model.llvm_ir)
               if name != "main" + PROFILE_SUFFIX]
    assert "main" in defined
    count = distinct_kernels(example.module)
    assert len(defined) - 1 == count, defined
    if kernels is not None:
        assert count == kernels


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_networks_run_natively_like_the_graph_interpreter(name):
    check_network(name, SMALL[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FULL_SIZE_KERNELS))
def test_full_size_networks_run_natively_like_the_graph_interpreter(name):
    check_network(name, {}, FULL_SIZE_KERNELS[name])


def test_the_comparison_tells_other_weights_apart():
    # The comparison above is only as strong as its power to tell apart: a network
    # whose weights differ (another seed) must not pass it.
    example, other = EXAMPLES["mlp"](**SMALL["mlp"]), EXAMPLES["mlp"](**SMALL["mlp"], seed=3)
    inputs = example.inputs(seed=1)
    [expected] = evaluate(example.module, inputs)
    with pytest.raises(AssertionError):
        assert_close(build(other.module)(**inputs), expected, RTOL, ATOL, "mlp, another seed")
