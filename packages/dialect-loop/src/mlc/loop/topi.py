"""TOPI's operators for TE: every graph op with a compute rule, as a function of te
tensors (`topi.dense(x, w)`, `topi.add(a, b)`, `topi.nn.relu(x)`,
`topi.conv2d(x, w, strides=(2, 2))`), for `BlockBuilder.emit_te` and hand-written
kernels, as the MLC course uses `topi.nn.dense`.

    from mlc.loop import te, topi

    x = te.placeholder((1, 784), name="x")
    w = te.placeholder((128, 784), name="w")
    y = topi.nn.relu(topi.nn.dense(x, w))

Each function builds the graph op on tensors of the inputs' types (its shape
inference checks them and its attributes, as `GraphBuilder` does) and returns what
the op's compute rule makes of the inputs: one te tensor, or a tuple for several
results. The graph op's rule is the one definition; nothing is repeated here.
"""

from __future__ import annotations

from types import SimpleNamespace

from mlc.graph.builder import make_op
from mlc.graph.dialect import graph
from mlc.graph.types import tensor
from mlc.ir import Block
from mlc.loop import te
from mlc.loop.compute_rules import op_tensors

__all__ = ["operator", "nn"]


def operator(short_name: str):
    """The TOPI function of `graph.<short_name>`: `(*te_tensors, **attributes)` to te
    tensor(s). AttributeError when there is no such op or it has no compute rule."""
    cls = graph.ops.get(f"graph.{short_name}")
    if cls is None or getattr(cls, "compute", None) is None:
        raise AttributeError(f"topi has no '{short_name}': no graph op of that name with a "
                             "compute rule")

    def apply(*inputs: te.Tensor, **attrs):
        block = Block([tensor(t.shape, t.dtype) for t in inputs])
        op = make_op(short_name, *block.args, **attrs)
        outputs = op_tensors(op, list(inputs))
        return outputs[0] if len(outputs) == 1 else outputs

    apply.__name__ = short_name
    apply.__qualname__ = short_name
    apply.__doc__ = f"TOPI's {short_name}: the compute rule of graph.{short_name} on te tensors."
    return apply


def __getattr__(name: str):
    if name.startswith("_"):
        raise AttributeError(name)
    return operator(name)


class _Namespace(SimpleNamespace):
    """`topi.nn`: TVM keeps the neural-network operators there; here they are the same
    functions as `topi.<name>`."""

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return operator(name)


nn = _Namespace()
