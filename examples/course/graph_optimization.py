"""The MLC course, "Computational graph optimization": a rewrite pattern of our own
on the graph (the course's DenseAddFusor matches dense + add; here the add of a
per-feature bias becomes graph.bias_add), then operator fusion (FuseOps: dense,
bias_add and relu in one primitive function) and lowering to loop kernels
(LowerToTensorIR + FuseTIR), built and checked against numpy at every stage.

    python examples/course/graph_optimization.py
"""

from __future__ import annotations

import numpy as np

from mlc.graph import GraphBuilder, evaluate
from mlc.graph.builder import emit
from mlc.graph.ops.elementwise import AddOp
from mlc.graph.ops.nn import DenseOp
from mlc.ir import Operation, print_op
from mlc.ir.passes import run_pipeline
from mlc.ir.rewrite import PatternRewriter, PatternSet, RewritePattern
from mlc.ir.rewrite.greedy import apply_patterns_greedily
from mlc.llvm.build import build


class DenseAddToBiasAdd(RewritePattern):
    """add(dense(x, w), b) with a bias b of one value per output feature ->
    bias_add(dense(x, w), b): what fusion and the kernels know as a dense layer."""

    root = AddOp

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        dense, bias = op.operands
        if not isinstance(dense.defining_op, DenseOp):
            dense, bias = bias, dense
        if not isinstance(dense.defining_op, DenseOp):
            return rewriter.notify_match_failure(op, "no operand is a dense")
        if bias.type.shape != dense.type.shape[-1:] or op.result.type != dense.type:
            return rewriter.notify_match_failure(op, "the other operand is not a bias vector")
        rewriter.set_insertion_point_before(op)
        rewriter.replace_op(op, [emit(rewriter, "bias_add", dense, bias, loc=op.loc,
                                      axis=-1)])
        return True


def mlp(params):
    """The course's MLP at the graph level: dense, add, relu, dense, add."""
    b = GraphBuilder()
    x = b.param("x", (1, 784))
    h = b.relu(b.add(b.dense(x, b.const(params["w0"])), b.const(params["b0"])))
    return b.module(b.add(b.dense(h, b.const(params["w1"])), b.const(params["b1"])))


def main() -> None:
    rng = np.random.default_rng(0)
    params = {"w0": rng.standard_normal((128, 784), np.float32) * 0.05,
              "b0": rng.standard_normal(128).astype(np.float32),
              "w1": rng.standard_normal((10, 128), np.float32) * 0.05,
              "b1": rng.standard_normal(10).astype(np.float32)}
    data = rng.uniform(size=(1, 784)).astype(np.float32)
    expected = np.maximum(data @ params["w0"].T + params["b0"], 0) @ params["w1"].T + params["b1"]

    module = mlp(params)
    result = apply_patterns_greedily(module, PatternSet([DenseAddToBiasAdd()]))
    print(result.patterns_applied, "adds rewritten to bias_add")
    np.testing.assert_allclose(evaluate(module, [data])[0], expected, rtol=1e-4, atol=1e-4)

    assert run_pipeline(module, "graph-fuse-ops").success          # relax.transform.FuseOps
    functions = [op.sym_name.value for op in module.regions[0].ops()]
    print("after fusion:", functions)
    np.testing.assert_allclose(evaluate(module, [data])[0], expected, rtol=1e-4, atol=1e-4)

    assert run_pipeline(module, "graph-lower-to-loop").success     # LowerToTensorIR + FuseTIR
    calls = [line.strip() for line in print_op(module).splitlines() if "call @" in line]
    print("\n".join(calls))                                       # @main calls two kernels
    np.testing.assert_allclose(build(mlp(params))(data), expected, rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    main()
