"""graph-fuse-ops around what it does not fuse: calls and other ops that stay in the
caller are ordered with the kernels (a call may read one kernel and feed another),
and dead ops do not change how live ones group (TVM's graph holds only what the
results reach)."""

from __future__ import annotations

import numpy as np

from mlc.graph import evaluate
from mlc.ir import Context, parse_module, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline


def _fuse(text: str, pipeline: str = "graph-fuse-ops"):
    module = parse_module(text, Context())
    verify(module)
    x = np.linspace(-1, 1, 4).astype(np.float32)
    expected = evaluate(module, [x])
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)
    for e, a in zip(expected, evaluate(module, [x]), strict=True):
        np.testing.assert_allclose(a, e, rtol=1e-5)
    return module


CALL_BETWEEN_KERNELS = """
func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : tensor<4xf32>
  %1 = func.call @helper(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.exp %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""


def test_kernel_call_dominates_non_graph_user():
    # The func.call reads @fused_relu's result and feeds @fused_exp: it must sit between.
    _fuse(CALL_BETWEEN_KERNELS)


def test_kernel_call_dominates_non_graph_user_graph_optimize():
    _fuse(CALL_BETWEEN_KERNELS, "graph-optimize")


def test_dead_op_does_not_split_groups():
    # TVM's forward graph holds only what the results reach; here a dead softmax
    # reading %m takes %m's post-dominator away, so %m and %n become two kernels
    # (and the softmax is then erased anyway). TVM: one kernel multiply+multiply.
    module = _fuse("""
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<2.0> : tensor<f32>
  %m = graph.multiply %x, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %u = graph.softmax %m : tensor<4xf32>
  %n = graph.multiply %m, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}
""")
    names = sorted(op.sym_name.value for op in module.regions[0].ops()
                   if op.name == "func.func" and op.sym_name.value != "main")
    assert names == ["fused_multiply_multiply"], names


def test_value_read_inside_a_region_leaves_fusion_view():
    # %m is read inside an op fusion does not look into: like a returned value it has
    # no post-dominator, so it does not fuse forward into %n, and the region op comes
    # after the kernel that computes %m.
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %m = graph.exp %x : tensor<4xf32>
  "other.wrap"() ({
    "other.use"(%m) : (tensor<4xf32>) -> ()
  }) : () -> ()
  %n = graph.relu %m : tensor<4xf32>
  return %n : tensor<4xf32>
}
"""
    module = parse_module(text, Context(allow_unregistered=True))
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-fuse-ops").success
    verify(module)
    main = next(op for op in module.regions[0].ops() if op.sym_name.value == "main")
    names = [op.name if op.name != "func.call" else op.callee.leaf for op in main.entry_block.ops()]
    assert names == ["fused_exp", "other.wrap", "fused_relu", "func.return"]
