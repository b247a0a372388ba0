"""Elementwise and broadcast ops: activations, unary math, casts, and the binary
arithmetic/comparison/logical ops with numpy broadcasting."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlc.graph.dialect import (
    BoolTensor,
    FloatTensor,
    GraphOp,
    PatternKind,
    Tensor,
    element_type,
    graph,
    real,
    same_element_type,
    shape_check,
    tensor,
)
from mlc.ir.core.attributes import RankedTensorType, Type, i1
from mlc.ir.opdef.declare import OperandDef, ResultDef
from mlc.ir.opdef.traits import Commutative, SameOperandsAndResultType

# ------------------------------------------------------------------ unary


class Unary(GraphOp):
    """An elementwise op of one tensor; `fn` is its numpy semantics."""

    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.ELEMWISE
    traits = (SameOperandsAndResultType,)
    assembly_format = "$x attr-dict `:` type($result)"

    @staticmethod
    def fn(x, **attrs):  # pragma: no cover - each op sets it
        raise NotImplementedError

    @classmethod
    def infer(cls, types, attrs):
        return [types[0]]

    @classmethod
    def reference(cls, attrs, x):
        return cls.fn(x, **attrs)


class FloatUnary(Unary):
    x = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)


_erf = np.frompyfunc(math.erf, 1, 1)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise (exact to double precision)."""
    return _erf(np.asarray(x, np.float64)).astype(np.float64)


def _unary(op_name: str, fn, doc: str, base: type = FloatUnary) -> type:
    cls = type(op_name.split(".")[1].title().replace("_", "") + "Op", (base,),
               {"name": op_name, "__doc__": doc, "fn": staticmethod(fn),
                "__module__": __name__})
    return graph.op(cls)


NegOp = _unary("graph.neg", lambda x: -x, "Elementwise negation.", Unary)
AbsOp = _unary("graph.abs", np.abs, "Elementwise absolute value.", Unary)
ExpOp = _unary("graph.exp", np.exp, "Elementwise e^x.")
LogOp = _unary("graph.log", np.log, "Elementwise natural logarithm.")
SqrtOp = _unary("graph.sqrt", np.sqrt, "Elementwise square root.")
RsqrtOp = _unary("graph.rsqrt", lambda x: 1 / np.sqrt(x), "Elementwise 1/sqrt(x).")
ReciprocalOp = _unary("graph.reciprocal", lambda x: 1 / x, "Elementwise 1/x.")
TanhOp = _unary("graph.tanh", np.tanh, "Elementwise hyperbolic tangent.")
SigmoidOp = _unary("graph.sigmoid", lambda x: 1 / (1 + np.exp(-x)), "Elementwise logistic 1/(1+e^-x).")
ReluOp = _unary("graph.relu", lambda x: np.maximum(x, 0), "Elementwise max(x, 0).", Unary)
ErfOp = _unary("graph.erf", erf, "Elementwise error function.")
GeluOp = _unary("graph.gelu", lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))),
                "Elementwise GELU, exact form x·Φ(x) = x/2·(1 + erf(x/√2)).")
FloorOp = _unary("graph.floor", np.floor, "Elementwise round down.")
CeilOp = _unary("graph.ceil", np.ceil, "Elementwise round up.")
RoundOp = _unary("graph.round", np.round, "Elementwise round to nearest, ties to even (as ONNX).")
SignOp = _unary("graph.sign", np.sign, "Elementwise sign: -1, 0 or 1.", Unary)


@graph.op
class LogicalNotOp(Unary):
    """Elementwise boolean negation."""

    name = "graph.logical_not"
    x = OperandDef(BoolTensor)
    result = ResultDef(BoolTensor)
    fn = staticmethod(np.logical_not)


@graph.op
class LeakyReluOp(FloatUnary):
    """Elementwise x if x > 0 else alpha·x."""

    name = "graph.leaky_relu"
    alpha = real(0.01, "slope for negative inputs")

    @staticmethod
    def fn(x, alpha):
        return np.where(x > 0, x, x * np.float32(alpha))


@graph.op
class ClipOp(Unary):
    """Elementwise clamp to [min, max] (relu6 is clip 0..6)."""

    name = "graph.clip"
    min = real(doc="lower bound")
    max = real(doc="upper bound")

    @classmethod
    def infer(cls, types, attrs):
        shape_check(attrs["min"] <= attrs["max"], f"needs min <= max, got min {attrs['min']} "
                                                  f"and max {attrs['max']}")
        return [types[0]]

    @staticmethod
    def fn(x, min, max):  # noqa: A002 - the attribute names
        return np.clip(x, min, max)


@graph.op
class DropoutOp(FloatUnary):
    """Dropout; the identity at inference (graph-simplify-inference removes it)."""

    name = "graph.dropout"
    rate = real(0.5, "fraction dropped during training")

    @staticmethod
    def fn(x, rate):
        return x


@graph.op
class CastOp(GraphOp):
    """Elementwise conversion to another element type."""

    name = "graph.cast"
    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    dtype = element_type(doc="the result's element type")
    pattern = PatternKind.ELEMWISE
    assembly_format = "$x attr-dict `:` type($x) `to` $dtype"

    @classmethod
    def infer(cls, types, attrs):
        return [RankedTensorType(types[0].shape, attrs["dtype"])]

    @classmethod
    def reference(cls, attrs, x):
        from mlc.ir.core.attributes import element_dtype

        target = attrs["dtype"]
        if getattr(target, "name", "") == "bf16":
            return x.astype(np.float32)  # evaluate stores it as bf16 bit patterns
        return x.astype(element_dtype(target))


# ------------------------------------------------------------------ broadcast binary


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's broadcast of `shapes`, or ShapeError naming the mismatch."""
    rank = max(len(s) for s in shapes)
    out = []
    for axis in range(rank):
        dims = {s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0} - {1}
        shape_check(len(dims) <= 1, "operand shapes " + ", ".join(str(list(s)) for s in shapes)
                    + " do not broadcast")
        out.append(dims.pop() if dims else 1)
    return tuple(out)


class Binary(GraphOp):
    """A broadcasting binary op; `fn` is its numpy semantics."""

    lhs = OperandDef(Tensor)
    rhs = OperandDef(Tensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.BROADCAST
    assembly_format = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"
    result_element: Type | None = None  # None: the operands' element type

    @staticmethod
    def fn(a, b):  # pragma: no cover - each op sets it
        raise NotImplementedError

    @classmethod
    def infer(cls, types, attrs):
        a, b = types
        same_element_type(a, b)
        return [tensor(broadcast_shape(a.shape, b.shape), cls.result_element or a.element_type)]

    @classmethod
    def reference(cls, attrs, a, b):
        return cls.fn(a, b)


class LogicalBinary(Binary):
    lhs = OperandDef(BoolTensor)
    rhs = OperandDef(BoolTensor)
    result = ResultDef(BoolTensor)


def _binary(op_name: str, fn, doc: str, base: type = Binary, commutative: bool = False,
            result_element: Type | None = None) -> type:
    namespace: dict[str, Any] = {"name": op_name, "__doc__": doc, "fn": staticmethod(fn),
                                 "__module__": __name__}
    if commutative:
        namespace["traits"] = (Commutative,)
    if result_element is not None:
        namespace["result_element"] = result_element
    cls = type("".join(p.title() for p in op_name.split(".")[1].split("_")) + "Op", (base,), namespace)
    return graph.op(cls)


AddOp = _binary("graph.add", np.add, "Elementwise sum, broadcasting.", commutative=True)
SubtractOp = _binary("graph.subtract", np.subtract, "Elementwise difference, broadcasting.")
MultiplyOp = _binary("graph.multiply", np.multiply, "Elementwise product, broadcasting.",
                     commutative=True)
DivideOp = _binary("graph.divide", np.divide, "Elementwise quotient, broadcasting.")
PowerOp = _binary("graph.power", np.power, "Elementwise lhs^rhs, broadcasting.")
MaximumOp = _binary("graph.maximum", np.maximum, "Elementwise maximum, broadcasting.",
                    commutative=True)
MinimumOp = _binary("graph.minimum", np.minimum, "Elementwise minimum, broadcasting.",
                    commutative=True)
LessOp = _binary("graph.less", np.less, "Elementwise lhs < rhs, broadcasting; i1 results.",
                 result_element=i1)
GreaterOp = _binary("graph.greater", np.greater, "Elementwise lhs > rhs, broadcasting; i1 results.",
                    result_element=i1)
EqualOp = _binary("graph.equal", np.equal, "Elementwise lhs == rhs, broadcasting; i1 results.",
                  commutative=True, result_element=i1)
LogicalAndOp = _binary("graph.logical_and", np.logical_and, "Elementwise boolean and, broadcasting.",
                       LogicalBinary, commutative=True)
LogicalOrOp = _binary("graph.logical_or", np.logical_or, "Elementwise boolean or, broadcasting.",
                      LogicalBinary, commutative=True)


@graph.op
class WhereOp(GraphOp):
    """Elementwise select: `x` where `condition` holds, else `y`; all three broadcast."""

    name = "graph.where"
    condition = OperandDef(BoolTensor)
    x = OperandDef(Tensor)
    y = OperandDef(Tensor)
    result = ResultDef(Tensor)
    pattern = PatternKind.BROADCAST
    assembly_format = "$condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)"

    @classmethod
    def infer(cls, types, attrs):
        c, x, y = types
        same_element_type(x, y)
        return [tensor(broadcast_shape(c.shape, x.shape, y.shape), x.element_type)]

    @classmethod
    def reference(cls, attrs, c, x, y):
        return np.where(c, x, y)
