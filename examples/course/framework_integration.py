"""The MLC course, "Integration with machine learning frameworks": a BlockBuilder
building a module from TE (emit_te), then a PyTorch model imported with from_fx and
the course's own converters (map_param, map_nn_linear with emit_te of TOPI's dense,
map_nn_relu with a high-level op), checked against numpy and torch.

    python examples/course/framework_integration.py
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from mlc.ir import print_op
from mlc.llvm.build import build
from mlc.loop import BlockBuilder, te, topi
from mlc.torch import from_fx


def te_matmul(A: te.Tensor, B: te.Tensor) -> te.Tensor:
    assert A.shape[1] == B.shape[0]
    n, m, l_ = A.shape[0], B.shape[1], A.shape[1]
    k = te.reduce_axis((0, l_), name="k")
    return te.compute((n, m), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="matmul")


def te_relu(A: te.Tensor) -> te.Tensor:
    return te.compute(A.shape, lambda *i: te.max(A(*i), 0), name="relu")


def block_builder_module():
    """The chapter's first module: matmul then relu, both from TE."""
    bb = BlockBuilder()
    A = bb.param("A", (128, 128))
    B = bb.param("B", (128, 128))
    with bb.function("main"):
        with bb.dataflow():
            C = bb.emit_te(te_matmul, A, B)
            D = bb.emit_te(te_relu, C)
            R = bb.emit_output(D)
        bb.emit_func_output(R, [A, B])
    return bb.get()


class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(128, 128))

    def forward(self, x):
        x = torch.matmul(x, self.weight)
        x = torch.relu(x)
        return x


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear0 = nn.Linear(784, 128, bias=True)
        self.relu = nn.ReLU()
        self.linear1 = nn.Linear(128, 10, bias=True)

    def forward(self, x):
        return self.linear1(self.relu(self.linear0(x)))


# The course's converters (relax.const -> bb.const, relax.op.nn.relu(A) -> bb.relu(A)).
def map_param(bb, param: nn.Parameter):
    return bb.const(param.data.cpu().numpy())


def map_matmul(bb, node_map, node):
    A = node_map[node.args[0]]
    B = node_map[node.args[1]]
    return bb.emit_te(te_matmul, A, B)


def map_relu(bb, node_map, node):
    A = node_map[node.args[0]]
    return bb.emit(bb.relu(A))


def map_nn_linear(bb, node_map, node, nn_mod):
    x = node_map[node.args[0]]
    w = map_param(bb, nn_mod.weight)
    if nn_mod.bias is not None:
        b = map_param(bb, nn_mod.bias)
    y = bb.emit_te(topi.nn.dense, x, w)
    return bb.emit_te(topi.add, y, b)


def map_nn_relu(bb, node_map, node, nn_mod):
    return map_relu(bb, node_map, node)


def main() -> None:
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    module = block_builder_module()
    print(print_op(module).split("func.func @main")[1])
    a = rng.standard_normal((128, 128), np.float32)
    b = rng.standard_normal((128, 128), np.float32)
    np.testing.assert_allclose(build(module)(a, b), np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)

    model = MyModel()
    imported = from_fx(model, [(1, 128)], call_function_map={torch.matmul: map_matmul,
                                                             torch.relu: map_relu})
    x = torch.randn(1, 128)
    with torch.no_grad():
        np.testing.assert_allclose(build(imported)(x.numpy()), model(x).numpy(),
                                   rtol=1e-4, atol=1e-4)

    mlp = MLP().eval()
    imported = from_fx(mlp, [(1, 784)], call_function_map={torch.relu: map_relu},
                       call_module_map={nn.Linear: map_nn_linear, nn.ReLU: map_nn_relu})
    x = torch.randn(1, 784)
    with torch.no_grad():
        np.testing.assert_allclose(build(imported)(x.numpy()), mlp(x).numpy(),
                                   rtol=1e-4, atol=1e-4)
    # Without converters of its own, from_fx maps each module and function to graph ops.
    default = from_fx(mlp, [(1, 784)])
    with torch.no_grad():
        np.testing.assert_allclose(build(default)(x.numpy()), mlp(x).numpy(),
                                   rtol=1e-4, atol=1e-4)
    print("from_fx: MyModel and the MLP agree with torch")


if __name__ == "__main__":
    main()
