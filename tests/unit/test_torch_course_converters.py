"""from_fx takes converters with the MLC course's signatures, `(bb, node_map, node)`
for functions and `(bb, node_map, node, nn_mod)` for modules, beside mlc's
`(node)`: the chapter "integration with machine learning frameworks" written as the
course writes it (map_param, map_nn_linear with emit_te and TOPI's dense, map_nn_relu
with a high-level op), checked against torch, interpreted and native."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from mlc.graph import evaluate
from mlc.graph.ops.call import CallTIROp
from mlc.llvm.build import build
from mlc.loop import topi
from mlc.torch import from_fx


class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear0 = nn.Linear(784, 128, bias=True)
        self.relu = nn.ReLU()
        self.linear1 = nn.Linear(128, 10, bias=True)

    def forward(self, x):
        x = self.linear0(x)
        x = self.relu(x)
        x = self.linear1(x)
        return x


# The course's converters, verbatim but for the module names (relax.const -> bb.const,
# relax.op.nn.relu(A) -> bb.relu(A): mlc's builder makes ops as it is asked for them).
def map_param(bb, param: nn.Parameter):
    return bb.const(param.data.cpu().numpy())


def map_nn_linear(bb, node_map, node, nn_mod):
    x = node_map[node.args[0]]
    w = map_param(bb, nn_mod.weight)
    if nn_mod.bias is not None:
        b = map_param(bb, nn_mod.bias)
    y = bb.emit_te(topi.nn.dense, x, w)
    return bb.emit_te(topi.add, y, b)


def map_nn_relu(bb, node_map, node, nn_mod):
    return map_relu(bb, node_map, node)


def map_relu(bb, node_map, node):
    A = node_map[node.args[0]]
    return bb.emit(bb.relu(A))


def test_the_courses_converters_import_my_model():
    torch.manual_seed(0)
    model = MyModel().eval()
    module = from_fx(model, [(1, 784)],
                     call_function_map={torch.relu: map_relu},
                     call_module_map={nn.Linear: map_nn_linear, nn.ReLU: map_nn_relu})
    calls = sorted({op.callee_name for op in module.walk() if isinstance(op, CallTIROp)})
    # dense at two shapes and add at two: four primitive functions, the relu a graph op.
    assert calls == ["add", "add_1", "dense", "dense_1"]
    x = torch.randn(1, 784)
    with torch.no_grad():
        expected = model(x).numpy()
    np.testing.assert_allclose(evaluate(module, [x.numpy()])[0], expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(build(module)(x.numpy()), expected, rtol=1e-4, atol=1e-4)


def test_both_signatures_in_one_import():
    """A course-style function converter next to an mlc one (`node.b` is the builder)."""
    class Model(nn.Module):
        def forward(self, x):
            return torch.sigmoid(torch.relu(x))

    def mlc_sigmoid(node):
        return node.b.sigmoid(node.tensor(0, "input"))

    module = from_fx(Model(), [(2, 3)],
                     call_function_map={torch.relu: map_relu, torch.sigmoid: mlc_sigmoid})
    x = np.array([[-1.0, 0.5, 2.0], [3.0, -4.0, 0.0]], np.float32)
    expected = 1 / (1 + np.exp(-np.maximum(x, 0)))
    np.testing.assert_allclose(evaluate(module, [x])[0], expected, rtol=1e-6)
