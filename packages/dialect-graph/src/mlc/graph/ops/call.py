"""Calls out of a graph function into code on buffers: Relax's `call_tir` and
`call_dps_packed`.

    %y = graph.call_tir @linear0(%x, %w, %b)
           : (tensor<1x784xf32>, tensor<128x784xf32>, tensor<128xf32>) -> tensor<1x128xf32>
    %z = graph.call_dps_packed "env.linear"(%y, %w1, %b1)
           : (tensor<1x128xf32>, tensor<10x128xf32>, tensor<10xf32>) -> tensor<1x10xf32>

Both call in destination-passing style: the callee gets one buffer per operand and
then one per result, fresh ones the call's result tensors are read from afterwards.
`call_tir`'s callee is a primitive function of the module (a `func.func` on memrefs,
such as `mlc.loop.te.create_prim_func` makes, or one written at the memref level);
`call_dps_packed`'s is an external function registered with
`mlc.ir.extern.register_func`. The result types are the call's to state: nothing
infers them from the operands.

They are not `GraphOp`s: they have no compute rule or numpy reference of their own.
Fusion sees them as opaque (nothing fuses into or out of them),
graph-lower-to-loop keeps a `call_tir`'s callee as its kernel (schedulable like the
kernels it makes) and turns a `call_dps_packed` into a call of a declaration the
runtime binds to the registered function.

Dataflow. Relax marks the pure region of a function with `R.dataflow()` because a
Relax function may also hold impure calls. A graph function cannot: every graph op is
pure, and so are these calls, by contract (the callee writes only its output buffers
and reads only its inputs, as Relax asks of `call_tir` and `call_dps_packed` too). A
graph function's body is therefore one dataflow block already, and Relax's
`R.output(v)` (a value the block hands to the rest of the function) is a value
`func.return` returns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mlc.graph.dialect import graph
from mlc.ir import MemRefType, Operation, RankedTensorType, element_dtype
from mlc.ir.opdef.constraints import FlatSymbolRefAttr, StrAttr
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import Pure

__all__ = ["CallDPSPackedOp", "CallTIROp", "DestinationCall", "run_destination_call"]


class DestinationCall(Op):
    """A call in destination-passing style from a graph function (see the module
    docstring); subclasses say what they call."""

    arguments = OperandDef(variadic=True)
    outputs = ResultDef(variadic=True)
    traits = (Pure,)

    def verify_custom(self) -> None:
        for kind, values in (("operand", self.operands), ("result", self.results)):
            for i, value in enumerate(values):
                type_ = value.type
                if not isinstance(type_, RankedTensorType) or any(d < 0 for d in type_.shape):
                    raise VerificationError(f"{kind} #{i} must be a tensor of static shape, "
                                            f"got {type_}")
        if not self.results:
            raise VerificationError("a call in destination-passing style has at least one "
                                    "result")

    @property
    def callee_name(self) -> str:
        """The name of the function called."""
        raise NotImplementedError

    def buffer_types(self) -> list[MemRefType]:
        """The callee's parameter types: a buffer per operand, then one per result."""
        return [MemRefType(tuple(v.type.shape), v.type.element_type)
                for v in (*self.operands, *self.results)]


@graph.op
class CallTIROp(DestinationCall):
    """Calls the primitive function `callee` of the module on buffers holding the
    operands and fresh buffers for the results, which it writes (Relax's `call_tir`).

    The callee is a `func.func` on memrefs returning nothing (a loop-level kernel, or
    memref-level code): one memref per operand, then one per result, of the same
    shapes and element types. Fusion treats the call as an opaque kernel;
    graph-lower-to-loop keeps the callee as the kernel it calls.

    Integers and NaN: whatever the callee computes."""

    name = "graph.call_tir"
    callee = AttrDef(FlatSymbolRefAttr)
    assembly_format = ("$callee `(` $arguments `)` attr-dict `:` "
                       "functional-type($arguments, results)")

    @property
    def callee_name(self) -> str:
        return self.callee.leaf

    def verify_custom(self) -> None:
        super().verify_custom()
        from mlc.ir.dialects.func import FuncOp, lookup_symbol

        target = lookup_symbol(self, self.callee)
        if not isinstance(target, FuncOp):
            raise VerificationError(f"'{self.callee.leaf}' does not reference a function")
        fn_type = target.type
        expected = self.buffer_types()
        if fn_type.results:
            raise VerificationError(f"@{self.callee.leaf} returns values; a primitive function "
                                    "writes its results into the buffers after its inputs")
        if len(fn_type.inputs) != len(expected):
            raise VerificationError(
                f"@{self.callee.leaf} takes {len(fn_type.inputs)} buffers; the call passes "
                f"{len(self.operands)} operands and {len(self.results)} results")
        for i, (want, got) in enumerate(zip(expected, fn_type.inputs)):
            if got != want:
                role = (f"operand #{i}" if i < len(self.operands)
                        else f"result #{i - len(self.operands)}")
                raise VerificationError(f"parameter #{i} of @{self.callee.leaf} is {got}, but "
                                        f"{role} of the call needs {want}")


@graph.op
class CallDPSPackedOp(DestinationCall):
    """Calls the external function registered as `callee` on arrays holding the
    operands and fresh arrays for the results, which it writes (Relax's
    `call_dps_packed`).

    The function is registered with `mlc.ir.extern.register_func` and must write only
    its result arrays (the call is pure, as Relax asks). graph-lower-to-loop declares
    it once per name and signature; the runtime binds the declaration to it.

    Integers and NaN: whatever the function computes."""

    name = "graph.call_dps_packed"
    callee = AttrDef(StrAttr)
    assembly_format = ("$callee `(` $arguments `)` attr-dict `:` "
                       "functional-type($arguments, results)")

    @property
    def callee_name(self) -> str:
        return self.callee.value


def run_destination_call(interpreter, op: DestinationCall, operands: Sequence[np.ndarray]
                         ) -> list[np.ndarray]:
    """Run `op` in `interpreter` (an `mlc.ir.interpreter.Interpreter` of its module):
    the callee on copies of the operands (a callee writing an input must not change a
    tensor) and zero-filled result buffers; the results."""
    from mlc.ir.interpreter import UnsupportedOperation, buffer_dtype

    outputs = [np.zeros(r.type.shape, buffer_dtype(r.type.element_type)) for r in op.results]
    inputs = [np.array(a, dtype=buffer_dtype(v.type.element_type))
              for a, v in zip(operands, op.operands)]
    if isinstance(op, CallTIROp):
        interpreter.call(interpreter.lookup_function(op.callee_name, op), [*inputs, *outputs])
    else:
        from mlc.ir.extern import get_func

        external = get_func(op.callee_name)
        if external is None:
            raise UnsupportedOperation(f"no external function is registered as "
                                       f"'{op.callee_name}' (mlc.ir.extern.register_func)")
        external(*inputs, *outputs)
    return [np.asarray(o, element_dtype(r.type.element_type))
            for o, r in zip(outputs, op.results)]


def _interpreter_handler(interp, op: Operation, operands: list) -> list:
    return run_destination_call(interp, op, operands)


def register_interpreter_handlers() -> None:
    """Let mlc.ir's interpreter run the calls."""
    from mlc.ir.interpreter import impl

    impl(CallTIROp, CallDPSPackedOp)(_interpreter_handler)
