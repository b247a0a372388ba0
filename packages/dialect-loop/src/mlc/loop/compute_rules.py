"""Loop kernels of single graph ops, built from their compute rules.

Each graph op declares, next to its numpy `reference`, a TE compute rule
(`compute(te, attrs, *inputs)`, see `mlc.graph.op_base`). This module calls it on
placeholders of the op's operand types and builds the kernel, which is what
graph-lower-to-loop does for each op of a fused function and what the tests use to
check every rule against its op's reference:

    from mlc.loop.compute_rules import run_op_kernel
    outputs = run_op_kernel(op, [x, y])     # numpy arrays, computed by the kernel
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mlc.ir.core.attributes import RankedTensorType
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func import FuncOp
from mlc.ir.interpreter import buffer_dtype, evaluate
from mlc.loop import te

__all__ = ["NoComputeRule", "op_kernel", "op_tensors", "run_op_kernel"]


class NoComputeRule(te.TEError):
    """The graph op has no compute rule (it cannot be lowered to loops yet)."""


def op_tensors(op: Operation, inputs: Sequence[te.Tensor]) -> tuple[te.Tensor, ...]:
    """The te tensors of `op`'s results, built by its compute rule on `inputs`."""
    rule = getattr(type(op), "compute", None)
    if rule is None:
        raise NoComputeRule(f"'{op.name}' has no compute rule, so it cannot be lowered to "
                            "loops")
    attrs = dict(op.values, result_types=tuple(r.type for r in op.results))
    outputs = rule(te, attrs, *inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    if len(outputs) != len(op.results):
        raise te.TEError(f"the compute rule of '{op.name}' gives {len(outputs)} tensors for "
                         f"{len(op.results)} results")
    for tensor, result in zip(outputs, op.results):
        if tensor.shape != tuple(result.type.shape) or tensor.dtype != result.type.element_type:
            raise te.TEError(f"the compute rule of '{op.name}' gives {tensor.shape} "
                             f"{tensor.dtype} for a result of type {result.type}")
    return outputs


def op_kernel(op: Operation, name: str = "kernel") -> FuncOp:
    """A kernel computing `op` alone: its operands, then its results, as memref
    arguments (destination-passing style)."""
    inputs = []
    for i, operand in enumerate(op.operands):
        type_ = operand.type
        if not isinstance(type_, RankedTensorType):
            raise te.TEError(f"operand #{i} of '{op.name}' is not a ranked tensor")
        inputs.append(te.placeholder(tuple(type_.shape), type_.element_type, name=f"p{i}"))
    outputs = op_tensors(op, inputs)
    distinct = [t for n, t in enumerate(outputs) if all(t is not u for u in outputs[:n])]
    if len(distinct) != len(outputs) or any(t in inputs for t in outputs):
        raise te.TEError(f"the compute rule of '{op.name}' must make a new tensor per result")
    return te.create_prim_func([*inputs, *outputs], name=name)


def run_op_kernel(op: Operation, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Run `op`'s kernel in the interpreter on `arrays` (one per operand); the results."""
    module = ModuleOp.build()
    module.body.append(op_kernel(op))
    outputs = [np.zeros(tuple(r.type.shape), buffer_dtype(r.type.element_type))
               for r in op.results]
    # np.require, not np.ascontiguousarray, which makes rank-0 arrays rank 1
    inputs = [np.require(np.asarray(a, buffer_dtype(v.type.element_type)), requirements="C")
              for a, v in zip(arrays, op.operands)]
    evaluate(module, "kernel", [*inputs, *outputs])
    return outputs
