"""Elementwise and broadcast ops: activations, unary math, casts, and the binary
arithmetic/comparison/logical ops with numpy broadcasting."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlc.graph.attributes import element_type, flag, real, string
from mlc.graph.dialect import graph
from mlc.graph.op_base import (
    GraphOp,
    PatternKind,
    UndefinedResultError,
    same_element_type,
    shape_check,
)
from mlc.graph.ops.compute import ordered
from mlc.graph.types import (
    BoolTensor,
    FloatTensor,
    IntegerTensor,
    NumericTensor,
    Tensor,
    computable,
    tensor,
)
from mlc.ir import FloatType, IntegerType, RankedTensorType, Type, element_dtype, i1
from mlc.ir.opdef import Commutative, OperandDef, ResultDef, SameOperandsAndResultType

# ------------------------------------------------------------------ unary


class Unary(GraphOp):
    """An elementwise op of one number tensor; `fn` is its numpy semantics, given
    integers as they are and floats as float64."""

    x = OperandDef(NumericTensor)
    result = ResultDef(NumericTensor)
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
        return cls.fn(wide_floats(x), **attrs)


class FloatUnary(Unary):
    x = OperandDef(FloatTensor)
    result = ResultDef(FloatTensor)


def wide_floats(x: np.ndarray) -> np.ndarray:
    """Floats as float64 (computed once there, rounded once to the result type);
    integers and booleans as they are."""
    return x.astype(np.float64) if x.dtype.kind == "f" else x


_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise (exact to double precision)."""
    return np.asarray(_erf(np.asarray(x, np.float64)), np.float64)  # a rank-0 x gives a float


def sigmoid(x: np.ndarray) -> np.ndarray:
    """1/(1+e^-x) without overflow: e^-|x| is at most 1, and for x < 0 the logistic is
    e^x/(1+e^x), which keeps the tiny values of very negative x."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def gelu(x: np.ndarray) -> np.ndarray:
    """x·Φ(x) as x/2·erfc(-x/√2): 1 + erf(x/√2) cancels to 0 for x below about -6,
    erfc keeps the value's relative precision."""
    return 0.5 * x * np.asarray(_erfc(-x / math.sqrt(2)), np.float64)


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """x/2·(1 + tanh(u)), u = √(2/π)·(x + 0.044715·x³), as x·sigmoid(2u): the same
    number (1 + tanh(u) = 2·sigmoid(2u)) without the cancellation for negative x."""
    return x * sigmoid(2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))


_NAN_STAYS = "NaN: NaN gives NaN."


def _unary(op_name: str, fn, doc: str, base: type = FloatUnary, compute=None) -> type:
    """A unary op class; `compute(te, x)` (optional) gives its element from the
    operand's, for the op's compute rule."""
    members = {"name": op_name, "__doc__": doc, "fn": staticmethod(fn), "__module__": __name__}
    if compute is not None:
        members["compute"] = _elementwise_rule(lambda te, attrs, x: compute(te, x), op_name)
    cls = type(op_name.split(".")[1].title().replace("_", "") + "Op", (base,), members)
    return graph.op(cls)


def _elementwise_rule(element, op_name: str):
    """The compute rule (a staticmethod) of an elementwise or broadcasting op whose
    result element is `element(te, attrs, *operand elements)`, the operands read as
    numpy broadcasts them; the stage is named `T_<op>`, as TOPI names its stages."""
    stage = "T_" + op_name.split(".")[1]

    def rule(te, attrs, *inputs):
        shape = broadcast_shape(*(x.shape for x in inputs))
        return te.compute(shape, lambda *index: element(
            te, attrs, *(broadcast_read(x, index) for x in inputs)), name=stage)
    return staticmethod(rule)


def broadcast_read(tensor, index: tuple):
    """The element of te tensor `tensor` that numpy's broadcasting pairs with `index`
    of the (higher- or equal-rank) result: trailing axes aligned, size-1 axes at 0."""
    trailing = index[len(index) - len(tensor.shape):] if tensor.shape else ()
    # An axis of extent 1 on both sides is read as it is (a broadcast needs no 0 there).
    return tensor[tuple(0 if extent == 1 and getattr(i, "extent", None) != 1 else i
                        for i, extent in zip(trailing, tensor.shape))]


def _is_float(x) -> bool:
    return isinstance(x.dtype, FloatType)


def _sigmoid(te, x):
    """1/(1+e^-x) without overflow, as `sigmoid` computes it."""
    e = te.exp(-te.abs(x))
    return te.if_then_else(x >= 0.0, 1.0 / (1.0 + e), e / (1.0 + e))


def _softplus(te, x):
    """log(1 + e^x) as max(x, 0) + log(1 + e^-|x|): no overflow (`softplus`)."""
    return te.maximum(x, 0.0) + te.log(1.0 + te.exp(-te.abs(x)))


def _integer_range(dtype) -> tuple[int, int]:
    """The values of a signless (two's complement) integer type."""
    return -(1 << (dtype.width - 1)), (1 << (dtype.width - 1)) - 1


def _less_than_real(te, x, bound: float):
    """Integer element `x` < the real `bound`, exactly: x < ceil(bound), folded to a
    constant where the bound lies outside x's type."""
    low, high = _integer_range(x.dtype)
    if math.isnan(bound) or bound <= low:
        return te.const(0, "bool")
    if bound > high:
        return te.const(1, "bool")
    return x < te.const(math.ceil(bound), x.dtype)


def _greater_than_real(te, x, bound: float):
    """Integer element `x` > the real `bound`, exactly: x > floor(bound)."""
    low, high = _integer_range(x.dtype)
    if math.isnan(bound) or bound >= high:
        return te.const(0, "bool")
    if bound < low:
        return te.const(1, "bool")
    return x > te.const(math.floor(bound), x.dtype)


def _wrapped(value: int, dtype) -> int:
    """`value` modulo 2^bits, as a signed value of the integer type `dtype`."""
    half = 1 << (dtype.width - 1)
    return (value + half) % (2 * half) - half


def _isinf(te, attrs, x):
    false = te.const(0, "bool")
    if not _is_float(x):
        return false
    positive = te.equal(x, math.inf) if attrs["detect_positive"] else false
    negative = te.equal(x, -math.inf) if attrs["detect_negative"] else false
    return te.if_then_else(positive, te.const(1, "bool"), negative)


def _shrink(te, attrs, x):
    lambd, bias = attrs["lambd"], attrs["bias"]
    if _is_float(x):
        return te.if_then_else(x < -lambd, x + bias, te.if_then_else(x > lambd, x - bias, 0.0))
    step = _wrapped(int(bias), x.dtype)
    return te.if_then_else(_less_than_real(te, x, -lambd), x + step, te.if_then_else(
        _greater_than_real(te, x, lambd), x - step, te.const(0, x.dtype)))


def _gelu(te, attrs, x):
    if attrs["approximate"] == "tanh":
        return x * _sigmoid(te, 2 * math.sqrt(2 / math.pi) * (x + 0.044715 * (x * x * x)))
    # x/2·(1 + erf(x/√2)): the reference's erfc form keeps the relative precision of
    # the tiny results below x ≈ -5, this one their absolute precision only.
    return 0.5 * x * (1.0 + te.erf(x * (1 / math.sqrt(2))))


def _clip(te, attrs, x):
    low, high = attrs["min"], attrs["max"]
    if _is_float(x):
        return te.minimum(te.maximum(x, te.const(low, x.dtype)), te.const(high, x.dtype))
    smallest, largest = _integer_range(x.dtype)

    def bound(value: float, to_integer) -> int:
        return smallest if value <= smallest else largest if value >= largest \
            else to_integer(value)

    return te.minimum(te.maximum(x, te.const(bound(low, math.ceil), x.dtype)),
                      te.const(bound(high, math.floor), x.dtype))


def _cast(te, attrs, x):
    target = attrs["dtype"]
    if target == i1 and x.dtype != i1:
        return te.not_equal(x, 0)  # every non-zero is true, NaN too (une)
    return te.cast(x, target)


def _is_unsigned(x) -> bool:
    return isinstance(x.dtype, IntegerType) and x.dtype.signedness == "unsigned"


def _divide(te, attrs, a, b):
    if _is_float(a) or _is_unsigned(a):  # unsigned: arith.divui, no overflow
        return a / b
    # arith.divsi leaves MIN / -1 undefined; the op wraps it to MIN, which is -a.
    by_minus_one = te.equal(b, -1)
    return te.if_then_else(by_minus_one, -a, a / te.if_then_else(by_minus_one, 1, b))


def _extremum(which: str):
    def element(te, attrs, a, b):
        if a.dtype == i1:  # on i1, maximum is or and minimum and (false < true)
            return te.if_then_else(a, te.const(1, "bool"), b) if which == "maximum" \
                else te.if_then_else(a, b, te.const(0, "bool"))
        return getattr(te, which)(a, b)
    return element


def _ordered(compare):
    def element(te, attrs, a, b):
        compared = ordered(a.dtype)  # i1 as i8: false < true
        return compare(te.cast(a, compared), te.cast(b, compared))
    return element


def _mod(te, attrs, a, b):
    if _is_float(a):
        return te.remainder(a, b)  # the verifier requires fmod for floats
    if _is_unsigned(a):
        return te.remainder(a, b)  # arith.remui: no overflow, no sign to fix
    # arith.remsi leaves MIN % -1 undefined; any remainder by -1 is 0, as by 1.
    r = te.remainder(a, te.if_then_else(te.equal(b, -1), 1, b))
    if attrs["fmod"]:
        return r
    # Python's %: a non-zero remainder takes the sign of b.
    wrong_sign = te.if_then_else(te.not_equal(r, 0), te.not_equal(r < 0, b < 0),
                                 te.const(0, "bool"))
    return te.if_then_else(wrong_sign, r + b, r)


NegOp = _unary("graph.neg", np.negative, """Elementwise negation.

Integers: wraps: -INT_MIN is INT_MIN, and an unsigned x gives 2^bits - x.

NaN: NaN gives NaN (its sign flips).""", Unary,
                compute=lambda te, x: -x)
AbsOp = _unary("graph.abs", np.abs, """Elementwise absolute value.

Integers: |INT_MIN| wraps to INT_MIN.

NaN: NaN gives NaN.""", Unary,
                compute=lambda te, x: te.abs(x) if _is_float(x) else te.if_then_else(x < 0, -x, x))
ExpOp = _unary("graph.exp", np.exp, f"""Elementwise e^x.

Overflows to inf (e^-inf is 0). {_NAN_STAYS}""",
                compute=lambda te, x: te.exp(x))
LogOp = _unary("graph.log", np.log, f"""Elementwise natural logarithm.

log(0) is -inf, log of a negative number NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.log(x))
SqrtOp = _unary("graph.sqrt", np.sqrt, f"""Elementwise square root.

The root of a negative number is NaN (sqrt(-0) is -0). {_NAN_STAYS}""",
                compute=lambda te, x: te.sqrt(x))
RsqrtOp = _unary("graph.rsqrt", lambda x: 1 / np.sqrt(x), f"""Elementwise 1/sqrt(x).

rsqrt(+0) is inf, rsqrt(-0) -inf, a negative number gives NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.rsqrt(x))
ReciprocalOp = _unary("graph.reciprocal", lambda x: 1 / x, f"""Elementwise 1/x.

1/±0 is ±inf. {_NAN_STAYS}""",
                compute=lambda te, x: 1.0 / x)
TanhOp = _unary("graph.tanh", np.tanh, f"""Elementwise hyperbolic tangent.

{_NAN_STAYS}""",
                compute=lambda te, x: te.tanh(x))
SigmoidOp = _unary("graph.sigmoid", sigmoid, f"""Elementwise logistic 1/(1+e^-x).

Computed without overflow, so very negative x give the small (subnormal) values the
result type holds rather than 0. {_NAN_STAYS}""",
                compute=_sigmoid)
ReluOp = _unary("graph.relu", lambda x: np.maximum(x, x.dtype.type(0)), """Elementwise max(x, 0).

Integers: exact.

NaN: NaN gives NaN (as ONNX Relu).""", Unary,
                compute=lambda te, x: te.maximum(x, te.const(0, x.dtype)))
ErfOp = _unary("graph.erf", erf, f"""Elementwise error function.

{_NAN_STAYS}""",
                compute=lambda te, x: te.erf(x))
FloorOp = _unary("graph.floor", np.floor, f"""Elementwise round down.

±inf stay. {_NAN_STAYS}""",
                compute=lambda te, x: te.floor(x))
CeilOp = _unary("graph.ceil", np.ceil, f"""Elementwise round up.

±inf stay. {_NAN_STAYS}""",
                compute=lambda te, x: te.ceil(x))
RoundOp = _unary("graph.round", np.round, f"""Elementwise round to nearest, ties to even (as ONNX).

±inf stay. {_NAN_STAYS}""",
                compute=lambda te, x: te.roundeven(x))
SignOp = _unary("graph.sign", np.sign, """Elementwise sign: -1, 0 or 1.

Integers: -1, 0 or 1 (unsigned: 0 or 1).

NaN: NaN gives NaN; the sign of ±0 is 0.""", Unary,
                compute=lambda te, x: te.if_then_else(x > 0, 1, te.if_then_else(x < 0, -1, x - x)))

SinOp = _unary("graph.sin", np.sin, f"""Elementwise sine.

sin(±inf) is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.sin(x))
CosOp = _unary("graph.cos", np.cos, f"""Elementwise cosine.

cos(±inf) is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.cos(x))
TanOp = _unary("graph.tan", np.tan, f"""Elementwise tangent.

tan(±inf) is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.tan(x))
AsinOp = _unary("graph.asin", np.arcsin, f"""Elementwise arcsine.

Outside [-1, 1] it is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.asin(x))
AcosOp = _unary("graph.acos", np.arccos, f"""Elementwise arccosine.

Outside [-1, 1] it is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.acos(x))
AtanOp = _unary("graph.atan", np.arctan, f"""Elementwise arctangent.

atan(±inf) is ±π/2. {_NAN_STAYS}""",
                compute=lambda te, x: te.atan(x))
SinhOp = _unary("graph.sinh", np.sinh, f"""Elementwise hyperbolic sine.

Overflows to ±inf. {_NAN_STAYS}""",
                compute=lambda te, x: te.sinh(x))
CoshOp = _unary("graph.cosh", np.cosh, f"""Elementwise hyperbolic cosine.

Overflows to inf. {_NAN_STAYS}""",
                compute=lambda te, x: te.cosh(x))
AsinhOp = _unary("graph.asinh", np.arcsinh, f"""Elementwise inverse hyperbolic sine.

{_NAN_STAYS}""",
                compute=lambda te, x: te.asinh(x))
AcoshOp = _unary("graph.acosh", np.arccosh, f"""Elementwise inverse hyperbolic cosine.

Below 1 it is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.acosh(x))
AtanhOp = _unary("graph.atanh", np.arctanh, f"""Elementwise inverse hyperbolic tangent.

atanh(±1) is ±inf; outside [-1, 1] it is NaN. {_NAN_STAYS}""",
                compute=lambda te, x: te.atanh(x))


class Predicate(GraphOp):
    """An elementwise test of numbers with i1 results; `fn` is its numpy semantics."""

    x = OperandDef(NumericTensor)
    result = ResultDef(BoolTensor)
    pattern = PatternKind.ELEMWISE
    assembly_format = "$x attr-dict `:` type($x)"

    @staticmethod
    def fn(x, **attrs):  # pragma: no cover - each op sets it
        raise NotImplementedError

    @classmethod
    def infer(cls, types, attrs):
        return [tensor(types[0].shape, i1)]

    @classmethod
    def reference(cls, attrs, x):
        return cls.fn(wide_floats(x), **attrs)


@graph.op
class IsNanOp(Predicate):
    """Elementwise x is NaN, as i1 (ONNX IsNaN).

    Integers: never NaN (false)."""

    name = "graph.isnan"
    compute = _elementwise_rule(lambda te, attrs, x: te.isnan(x), name)
    fn = staticmethod(np.isnan)


@graph.op
class IsInfOp(Predicate):
    """Elementwise x is +inf or -inf, as i1 (ONNX IsInf); `detect_positive` and
    `detect_negative` choose which.

    Integers: never infinite (false). NaN: not infinite (false)."""

    name = "graph.isinf"
    compute = _elementwise_rule(_isinf, name)
    detect_positive = flag(True, "+inf counts")
    detect_negative = flag(True, "-inf counts")

    @staticmethod
    def fn(x, detect_positive, detect_negative):
        return np.isinf(x) & np.where(x > 0, detect_positive, detect_negative)


@graph.op
class ShrinkOp(Unary):
    """Elementwise x + bias if x < -lambd, x - bias if x > lambd, else 0 (ONNX
    Shrink; the soft shrinkage for bias = lambd, the hard one for bias = 0).

    Integers: x is compared with lambd exactly; bias must be an integer (the verifier
    checks), added or subtracted wrapping modulo 2^bits.

    NaN: NaN is neither below nor above, so it gives 0 (as ONNX's reference)."""

    name = "graph.shrink"
    compute = _elementwise_rule(_shrink, name)
    lambd = real(0.5, "the half-width of the band mapped to 0")
    bias = real(0.0, "moved toward 0 outside the band")

    @classmethod
    def infer(cls, types, attrs):
        if not isinstance(types[0].element_type, FloatType):
            shape_check(float(attrs["bias"]).is_integer(),
                        f"bias {attrs['bias']} must be an integer for {types[0].element_type} values")
        return [types[0]]

    @staticmethod
    def fn(x, lambd, bias):
        if x.dtype.kind in "iu":
            # An integral bias moves integers exactly, in their own type.
            step = x.dtype.type(int(bias))
            return np.where(x < -lambd, x + step, np.where(x > lambd, x - step, x.dtype.type(0)))
        return np.where(x < -lambd, x + bias, np.where(x > lambd, x - bias, 0.0))


@graph.op
class BitwiseNotOp(Unary):
    """Elementwise bitwise complement (ONNX BitwiseNot): every bit flipped.

    Integers: exact: ~x = -x - 1 for signed integers, 2^bits - 1 - x for unsigned
    ones."""

    name = "graph.bitwise_not"
    # ~x is -x - 1 in two's complement.
    compute = _elementwise_rule(lambda te, attrs, x: -x - 1, name)
    x = OperandDef(IntegerTensor)
    result = ResultDef(IntegerTensor)
    fn = staticmethod(np.invert)


@graph.op
class LogicalNotOp(Unary):
    """Elementwise boolean negation."""

    name = "graph.logical_not"
    compute = _elementwise_rule(lambda te, attrs, x: te.if_then_else(x, te.const(0, "bool"), te.const(1, "bool")), name)
    x = OperandDef(BoolTensor)
    result = ResultDef(BoolTensor)
    fn = staticmethod(np.logical_not)


@graph.op
class LeakyReluOp(FloatUnary):
    """Elementwise x if x > 0 else alpha·x.

    NaN: NaN gives NaN."""

    name = "graph.leaky_relu"
    compute = _elementwise_rule(lambda te, attrs, x: te.if_then_else(x > 0.0, x, x * attrs["alpha"]), name)
    alpha = real(0.01, "slope for negative inputs")

    @staticmethod
    def fn(x, alpha):
        return np.where(x > 0, x, x * alpha)


@graph.op
class GeluOp(FloatUnary):
    """Elementwise GELU (ONNX Gelu): the exact form x·Φ(x) = x/2·(1 + erf(x/√2)), or
    with `approximate = "tanh"` x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³))).

    The exact form is computed as x/2·erfc(-x/√2), the tanh form as x·sigmoid(2·√(2/π)·
    (x + 0.044715·x³)): both keep their precision for very negative x, where
    1 + erf or 1 + tanh would cancel to 0. gelu(-inf) is NaN (-inf · 0), as in ONNX.
    NaN: NaN gives NaN."""

    name = "graph.gelu"
    compute = _elementwise_rule(_gelu, name)
    approximate = string("none", "the exact form (none) or the tanh approximation",
                         choices=("none", "tanh"))

    @staticmethod
    def fn(x, approximate):
        return gelu_tanh(x) if approximate == "tanh" else gelu(x)


def softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + e^x) without overflow (log(e^0 + e^x)), precise for very negative x."""
    return np.logaddexp(0.0, x)


def _hard_sigmoid(x: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    # maximum/minimum (not clip) so that NaN propagates, as ONNX's reference does.
    return np.maximum(0.0, np.minimum(1.0, alpha * x + beta))


@graph.op
class EluOp(FloatUnary):
    """Elementwise ELU: x if x > 0 else alpha·(e^x - 1) (ONNX Elu).

    e^x - 1 is computed as expm1, precise near 0. NaN: NaN gives NaN."""

    name = "graph.elu"
    compute = _elementwise_rule(lambda te, attrs, x: te.if_then_else(x > 0.0, x, attrs["alpha"] * (te.exp(x) - 1.0)), name)
    alpha = real(1.0, "scale of the negative part")

    @staticmethod
    def fn(x, alpha):
        return np.where(x > 0, x, alpha * np.expm1(x))


# ONNX Selu's defaults, the constants of "Self-Normalizing Neural Networks" as f32.
_SELU_ALPHA = 1.67326319217681884765625
_SELU_GAMMA = 1.05070102214813232421875


@graph.op
class SeluOp(FloatUnary):
    """Elementwise SELU: gamma·x if x > 0 else gamma·alpha·(e^x - 1) (ONNX Selu).

    NaN: NaN gives NaN."""

    name = "graph.selu"
    compute = _elementwise_rule(lambda te, attrs, x: attrs["gamma"] * te.if_then_else(
        x > 0.0, x, attrs["alpha"] * (te.exp(x) - 1.0)), name)
    alpha = real(_SELU_ALPHA, "scale of the negative part")
    gamma = real(_SELU_GAMMA, "scale of the whole")

    @staticmethod
    def fn(x, alpha, gamma):
        return gamma * np.where(x > 0, x, alpha * np.expm1(x))


@graph.op
class CeluOp(FloatUnary):
    """Elementwise CELU: max(0, x) + min(0, alpha·(e^(x/alpha) - 1)) (ONNX Celu).

    The verifier requires a non-zero alpha. NaN: NaN gives NaN."""

    name = "graph.celu"
    compute = _elementwise_rule(lambda te, attrs, x: te.maximum(0.0, x) + te.minimum(
        0.0, attrs["alpha"] * (te.exp(x / attrs["alpha"]) - 1.0)), name)
    alpha = real(1.0, "scale of the negative part, non-zero")

    @classmethod
    def infer(cls, types, attrs):
        shape_check(attrs["alpha"] != 0, "alpha must be non-zero")
        return [types[0]]

    @staticmethod
    def fn(x, alpha):
        return np.maximum(0.0, x) + np.minimum(0.0, alpha * np.expm1(x / alpha))


@graph.op
class ThresholdedReluOp(FloatUnary):
    """Elementwise x if x > alpha else 0 (ONNX ThresholdedRelu).

    NaN: NaN is not greater than alpha, so it gives 0 (as ONNX's reference)."""

    name = "graph.thresholded_relu"
    compute = _elementwise_rule(lambda te, attrs, x: te.if_then_else(x > attrs["alpha"], x, 0.0), name)
    alpha = real(1.0, "the threshold")

    @staticmethod
    def fn(x, alpha):
        return np.where(x > alpha, x, 0.0)


SoftplusOp = _unary("graph.softplus", softplus, f"""Elementwise softplus log(1 + e^x).

Computed as log(e^0 + e^x), without overflow: softplus(inf) is inf, and very negative
x give e^x rather than 0. {_NAN_STAYS}""",
                compute=_softplus)
SoftsignOp = _unary("graph.softsign", lambda x: x / (1 + np.abs(x)), """Elementwise x/(1 + |x|).

NaN: NaN gives NaN, and so do ±inf (inf/inf), as ONNX's reference computes.""",
                compute=lambda te, x: x / (1.0 + te.abs(x)))
MishOp = _unary("graph.mish", lambda x: x * np.tanh(softplus(x)), """Elementwise mish x·tanh(softplus(x)).

softplus is computed without overflow (see graph.softplus). mish(-inf) is NaN
(-inf · 0), as ONNX's function body computes. NaN: NaN gives NaN.""",
                compute=lambda te, x: x * te.tanh(_softplus(te, x)))
HardSwishOp = _unary("graph.hard_swish", lambda x: x * _hard_sigmoid(x / 6, 1.0, 0.5), """Elementwise x·max(0, min(1, x/6 + 1/2)) (ONNX HardSwish).

x/6 is exact to float64 (ONNX's function body multiplies by the f32 0.16666667
instead, which moves results by about 1e-8·x²). hard_swish(-inf) is NaN (-inf · 0),
as ONNX's reference computes. NaN: NaN gives NaN.""",
                compute=lambda te, x: x * te.maximum(0.0, te.minimum(1.0, x / 6.0 + 0.5)))


@graph.op
class HardSigmoidOp(FloatUnary):
    """Elementwise max(0, min(1, alpha·x + beta)) (ONNX HardSigmoid).

    NaN: NaN gives NaN."""

    name = "graph.hard_sigmoid"
    compute = _elementwise_rule(lambda te, attrs, x: te.maximum(0.0, te.minimum(
        1.0, attrs["alpha"] * x + attrs["beta"])), name)
    alpha = real(0.2, "slope")
    beta = real(0.5, "offset")

    fn = staticmethod(_hard_sigmoid)


@graph.op
class SwishOp(FloatUnary):
    """Elementwise swish x·sigmoid(alpha·x) (ONNX Swish; SiLU for alpha 1).

    The sigmoid is computed without overflow (see graph.sigmoid). swish(-inf) is NaN
    (-inf · 0) for alpha > 0, as ONNX's reference computes. NaN: NaN gives NaN."""

    name = "graph.swish"
    compute = _elementwise_rule(lambda te, attrs, x: x * _sigmoid(te, attrs["alpha"] * x), name)
    alpha = real(1.0, "scale of x inside the sigmoid")

    @staticmethod
    def fn(x, alpha):
        return x * sigmoid(alpha * x)


@graph.op
class ClipOp(Unary):
    """Elementwise clamp to [min, max] (relu6 is clip 0..6): min(max(x, min), max).

    When min > max every element becomes max, as in ONNX Clip and numpy's clip.

    Integers: the bounds are taken inward to integers (min rounded up, max rounded
    down, both limited to the element type's range); when min <= max the verifier
    requires an integer between them.

    NaN: NaN gives NaN.
    """

    name = "graph.clip"
    compute = _elementwise_rule(_clip, name)
    min = real(doc="lower bound")
    max = real(doc="upper bound")

    @classmethod
    def infer(cls, types, attrs):
        low, high = attrs["min"], attrs["max"]
        shape_check(not (math.isnan(low) or math.isnan(high)),
                    f"min and max must be numbers, got min {low} and max {high}")
        element = types[0].element_type
        if not isinstance(element, FloatType) and math.isfinite(low) and math.isfinite(high) \
                and low <= high:
            shape_check(math.ceil(low) <= math.floor(high),
                        f"[{low}, {high}] holds no integer to clip {element} values to")
        return [types[0]]

    @staticmethod
    def fn(x, min, max):  # noqa: A002 - the attribute names
        if x.dtype.kind in "iu":
            info = np.iinfo(x.dtype)

            def bound(value: float, to_integer) -> int:
                return info.min if value <= info.min else info.max if value >= info.max \
                    else to_integer(value)

            low, high = bound(min, math.ceil), bound(max, math.floor)
            return np.minimum(np.maximum(x, x.dtype.type(low)), x.dtype.type(high))
        return np.minimum(np.maximum(x, min), max)


@graph.op
class DropoutOp(FloatUnary):
    """Dropout; the identity at inference (graph-simplify-inference removes it).

    NaN: passes through."""

    name = "graph.dropout"
    compute = _elementwise_rule(lambda te, attrs, x: x, name)
    rate = real(0.5, "fraction dropped during training")

    @staticmethod
    def fn(x, rate):
        return x


@graph.op
class CastOp(GraphOp):
    """Elementwise conversion to another element type.

    To a float type: rounded once to nearest, ties to even (also to bf16 from f64 or
    from integers above 2^24); past the type's range ±inf. To i1: zero is false,
    anything else (NaN too) true. From i1: 0 or 1.

    Integers: between integer types the value wraps modulo 2^bits (its low bits are
    kept). A float converted to an integer type is truncated toward zero; NaN, ±inf or
    a value whose truncation the type cannot hold has no defined result (the
    interpreter reports it, graph-fold-constant does not fold it).

    NaN: to a float type NaN stays NaN; to an integer type see above.
    """

    name = "graph.cast"
    compute = _elementwise_rule(_cast, name)
    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    dtype = element_type(doc="the result's element type")
    pattern = PatternKind.ELEMWISE
    assembly_format = "$x attr-dict `:` type($x) `to` $dtype"

    @classmethod
    def infer(cls, types, attrs):
        target = attrs["dtype"]
        shape_check(computable(target), f"cannot cast to {target}: graph tensors hold i1, "
                                        f"8/16/32/64-bit integers, index, f16, bf16, f32 or f64")
        return [RankedTensorType(types[0].shape, target)]

    @classmethod
    def reference(cls, attrs, x):
        target = attrs["dtype"]
        if isinstance(target, FloatType):
            return x  # rounded once, by storing it in the result type
        dtype = element_dtype(target)
        if x.dtype.kind != "f" or dtype.kind == "b":
            return x.astype(dtype)  # integers wrap; to i1 every non-zero (NaN too) is true
        whole = np.trunc(x.astype(np.float64))
        info = np.iinfo(dtype)
        # -2^(bits-1) and 2^(bits-1) (or 0 and 2^bits) are exact in float64, so these
        # comparisons of integral values are exact; NaN fails them both.
        fits = (whole >= float(info.min)) & (whole < float(info.max) + 1.0)
        if not np.all(fits):
            bad = x.reshape(-1)[np.argmin(fits.reshape(-1))]
            raise UndefinedResultError(f"{bad} does not convert to {target}: its value is "
                                       "undefined")
        return whole.astype(dtype)


def _bits(element: Type) -> int:
    """How many bits an element of `element` occupies (i1 a byte, as ONNX stores it)."""
    if isinstance(element, FloatType):
        return element.width
    return max(8, element_dtype(element).itemsize * 8)


def _bitcast(te, attrs, x):
    # An i1 is a byte holding 0 or 1 (any other byte read as i1 is true).
    if x.dtype == i1 or attrs["dtype"] == i1:
        return _cast(te, attrs, x)
    return te.bitcast(x, attrs["dtype"])


@graph.op
class BitcastOp(GraphOp):
    """Elementwise reinterpretation of each element's bits as another element type of
    the same width (ONNX BitCast, arith.bitcast): f32 1.0 is i32 1065353216.

    i1 counts as a byte holding 0 or 1 (as ONNX and numpy store booleans): to an 8-bit
    integer it is 0 or 1, and a byte read as i1 is true unless it is 0.

    Integers and NaN: the bits are kept as they are (a NaN's payload too)."""

    name = "graph.bitcast"
    compute = _elementwise_rule(_bitcast, name)
    x = OperandDef(Tensor)
    result = ResultDef(Tensor)
    dtype = element_type(doc="the result's element type, as wide as the operand's")
    pattern = PatternKind.ELEMWISE
    assembly_format = "$x attr-dict `:` type($x) `to` $dtype"

    @classmethod
    def infer(cls, types, attrs):
        source, target = types[0].element_type, attrs["dtype"]
        shape_check(computable(target), f"cannot bitcast to {target}: graph tensors hold i1, "
                                        f"8/16/32/64-bit integers, index, f16, bf16, f32 or f64")
        shape_check(isinstance(target, (FloatType, IntegerType)) and
                    isinstance(source, (FloatType, IntegerType)) and
                    _bits(source) == _bits(target),
                    f"cannot bitcast {source} to {target}: bitcasts keep the width")
        return [RankedTensorType(types[0].shape, target)]

    @classmethod
    def reference(cls, attrs, x):
        dtype = element_dtype(attrs["dtype"])
        if x.dtype == np.bool_ or dtype == np.bool_:
            return x.astype(dtype)
        # (np.ascontiguousarray would make a 0-d array 1-d.)
        return (x if x.flags.c_contiguous else x.copy()).view(dtype)


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
    """A broadcasting binary op on numbers; `fn` is its numpy semantics, given
    integers as they are and floats as float64."""

    lhs = OperandDef(NumericTensor)
    rhs = OperandDef(NumericTensor)
    result = ResultDef(NumericTensor)
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
        # float64 then one rounding is exact for +, -, *, / of f16/bf16/f32 operands:
        # 53 bits cover twice their precision plus two, so no double rounding.
        return cls.fn(wide_floats(a), wide_floats(b))


class OrderedBinary(Binary):
    """A binary op that also takes i1 (false < true)."""

    lhs = OperandDef(Tensor)
    rhs = OperandDef(Tensor)
    result = ResultDef(Tensor)


class LogicalBinary(Binary):
    lhs = OperandDef(BoolTensor)
    rhs = OperandDef(BoolTensor)
    result = ResultDef(BoolTensor)


def _is_integer(x: np.ndarray) -> bool:
    return x.dtype.kind in "iu"


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b: IEEE for floats; for integers truncated toward zero, in integers."""
    if not _is_integer(a):
        return a / b
    if np.any(b == 0):
        raise UndefinedResultError("integer division by zero has no defined result")
    # fmod is C's remainder (the sign of a), so a - r is a multiple of b and floor
    # division of it is exact: the truncated quotient. INT_MIN / -1 wraps to INT_MIN.
    return (a - np.fmod(a, b)) // b


def power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a^b: C's pow for floats; for integers by repeated multiplication (wrapping),
    with a negative exponent giving 1/a^|b| truncated toward zero."""
    if not _is_integer(a):
        return np.power(a, b)
    a, b = np.broadcast_arrays(a, b)
    negative = b < 0
    if np.any(negative & (a == 0)):
        raise UndefinedResultError("0 raised to a negative power (an integer division by "
                                   "zero) has no defined result")
    positive = np.power(a, np.where(negative, b.dtype.type(0), b))
    # 1/a^n truncates to 0 unless |a| is 1: then it is 1, or -1 for a = -1 and odd n.
    odd = (b % 2) != 0
    reciprocal = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0))
    return np.where(negative, reciprocal.astype(a.dtype), positive)


_WRAPS = "Integers: wraps modulo 2^bits."
_NAN_PROPAGATES = "NaN: a NaN operand gives NaN."


def _binary(op_name: str, fn, doc: str, base: type = Binary, commutative: bool = False,
            result_element: Type | None = None, compute=None) -> type:
    """A broadcasting binary op class; `compute(te, attrs, a, b)` (optional) gives its
    element from the operands', for the op's compute rule."""
    namespace: dict[str, Any] = {"name": op_name, "__doc__": doc, "fn": staticmethod(fn),
                                 "__module__": __name__}
    if compute is not None:
        namespace["compute"] = _elementwise_rule(compute, op_name)
    if commutative:
        namespace["traits"] = (Commutative,)
    if result_element is not None:
        namespace["result_element"] = result_element
    cls = type("".join(p.title() for p in op_name.split(".")[1].split("_")) + "Op", (base,), namespace)
    return graph.op(cls)


AddOp = _binary("graph.add", np.add, f"""Elementwise sum, broadcasting.

{_WRAPS}
{_NAN_PROPAGATES} inf + -inf is NaN.""", commutative=True,
    compute=lambda te, attrs, a, b: a + b)
SubtractOp = _binary("graph.subtract", np.subtract, f"""Elementwise difference, broadcasting.

{_WRAPS}
{_NAN_PROPAGATES} inf - inf is NaN.""",
    compute=lambda te, attrs, a, b: a - b)
MultiplyOp = _binary("graph.multiply", np.multiply, f"""Elementwise product, broadcasting.

{_WRAPS}
{_NAN_PROPAGATES} 0 · inf is NaN.""", commutative=True,
    compute=lambda te, attrs, a, b: a * b)
DivideOp = _binary("graph.divide", divide, f"""Elementwise quotient, broadcasting.

Integers: computed in integers and truncated toward zero (C and ONNX Div): -7 / 2 is
-3; INT_MIN / -1 wraps to INT_MIN. Division by zero has no defined result: the
interpreter reports it and graph-fold-constant does not fold it.

{_NAN_PROPAGATES} Floats divide as IEEE says: x / ±0 is ±inf, 0 / 0 is NaN.""",
    compute=_divide)
PowerOp = _binary("graph.power", power, """Elementwise lhs^rhs, broadcasting.

Integers: computed in integers, wrapping modulo 2^bits; x^0 is 1 (0^0 too). A negative
exponent gives 1/lhs^|rhs| truncated toward zero: 1 for lhs 1, 1 or -1 for lhs -1
(even or odd exponent), 0 for any other lhs, and for lhs 0 no defined result (the
interpreter reports it, graph-fold-constant does not fold it).

NaN: as C's pow: NaN gives NaN, except x^0 = 1 and 1^y = 1. A negative lhs to a
non-integer power is NaN, 0 to a negative power inf.""",
    compute=lambda te, attrs, a, b: te.power(a, b))
MaximumOp = _binary("graph.maximum", np.maximum, f"""Elementwise maximum, broadcasting.

Integers: exact; on i1 it is logical or.

{_NAN_PROPAGATES}""", OrderedBinary, commutative=True,
    compute=_extremum("maximum"))
MinimumOp = _binary("graph.minimum", np.minimum, f"""Elementwise minimum, broadcasting.

Integers: exact; on i1 it is logical and.

{_NAN_PROPAGATES}""", OrderedBinary, commutative=True,
    compute=_extremum("minimum"))
_UNORDERED = "NaN: unordered, so every comparison with NaN is false (NaN == NaN too)."
LessOp = _binary("graph.less", np.less, f"""Elementwise lhs < rhs, broadcasting; i1 results.

Integers: exact (signed or unsigned as the type says; on i1 false < true).

{_UNORDERED}""", OrderedBinary, result_element=i1,
    compute=_ordered(lambda a, b: a < b))
GreaterOp = _binary("graph.greater", np.greater, f"""Elementwise lhs > rhs, broadcasting; i1 results.

Integers: exact (signed or unsigned as the type says; on i1 false < true).

{_UNORDERED}""", OrderedBinary, result_element=i1,
    compute=_ordered(lambda a, b: a > b))
EqualOp = _binary("graph.equal", np.equal, f"""Elementwise lhs == rhs, broadcasting; i1 results.

Integers: exact.

{_UNORDERED} -0 equals +0.""", OrderedBinary, commutative=True, result_element=i1,
    compute=lambda te, attrs, a, b: te.equal(a, b))
LessEqualOp = _binary("graph.less_equal", np.less_equal, f"""Elementwise lhs <= rhs, broadcasting; i1 results.

Integers: exact (signed or unsigned as the type says; on i1 false < true).

{_UNORDERED} -0 <= +0 holds.""", OrderedBinary, result_element=i1,
    compute=_ordered(lambda a, b: a <= b))
GreaterEqualOp = _binary("graph.greater_equal", np.greater_equal, f"""Elementwise lhs >= rhs, broadcasting; i1 results.

Integers: exact (signed or unsigned as the type says; on i1 false < true).

{_UNORDERED} -0 >= +0 holds.""", OrderedBinary, result_element=i1,
    compute=_ordered(lambda a, b: a >= b))
NotEqualOp = _binary("graph.not_equal", np.not_equal, """Elementwise lhs != rhs, broadcasting; i1 results.

Integers: exact.

NaN: unordered, so NaN differs from everything, NaN too (the negation of
graph.equal). -0 equals +0.""", OrderedBinary, commutative=True, result_element=i1,
    compute=lambda te, attrs, a, b: te.not_equal(a, b))
LogicalAndOp = _binary("graph.logical_and", np.logical_and, "Elementwise boolean and, broadcasting.",
                       LogicalBinary, commutative=True,
    compute=lambda te, attrs, a, b: te.if_then_else(a, b, te.const(0, "bool")))
LogicalOrOp = _binary("graph.logical_or", np.logical_or, "Elementwise boolean or, broadcasting.",
                      LogicalBinary, commutative=True,
    compute=lambda te, attrs, a, b: te.if_then_else(a, te.const(1, "bool"), b))

LogicalXorOp = _binary("graph.logical_xor", np.logical_xor, "Elementwise boolean exclusive or, "
                       "broadcasting.", LogicalBinary, commutative=True,
    compute=lambda te, attrs, a, b: te.not_equal(a, b))


class IntegerBinary(Binary):
    """A broadcasting binary op on integers."""

    lhs = OperandDef(IntegerTensor)
    rhs = OperandDef(IntegerTensor)
    result = ResultDef(IntegerTensor)


_BITWISE = "Integers: bit by bit on the two's complement patterns; exact."
BitwiseAndOp = _binary("graph.bitwise_and", np.bitwise_and, f"""Elementwise bitwise and, broadcasting (ONNX BitwiseAnd).

{_BITWISE}""", IntegerBinary, commutative=True,
    compute=lambda te, attrs, a, b: te.bitwise_and(a, b))
BitwiseOrOp = _binary("graph.bitwise_or", np.bitwise_or, f"""Elementwise bitwise or, broadcasting (ONNX BitwiseOr).

{_BITWISE}""", IntegerBinary, commutative=True,
    compute=lambda te, attrs, a, b: te.bitwise_or(a, b))
BitwiseXorOp = _binary("graph.bitwise_xor", np.bitwise_xor, f"""Elementwise bitwise exclusive or, broadcasting (ONNX BitwiseXor).

{_BITWISE}""", IntegerBinary, commutative=True,
    compute=lambda te, attrs, a, b: te.bitwise_xor(a, b))


def _shift_amounts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b) broadcast, and where b is a shift the type can make (0 <= b < bits)."""
    a, b = np.broadcast_arrays(a, b)
    bits = a.dtype.itemsize * 8
    valid = (b >= 0) & (b < bits)
    return a, np.where(valid, b, 0).astype(a.dtype), valid


def left_shift(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a · 2^b modulo 2^bits; 0 for a shift past the width or a negative one."""
    a, b, valid = _shift_amounts(a, b)
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    shifted = np.left_shift(a.view(unsigned), b.view(unsigned)).view(a.dtype)
    return np.where(valid, shifted, a.dtype.type(0))


def right_shift(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / 2^b rounded down (arithmetic for signed types, logical for unsigned); past
    the width or negative, the sign fill: -1 for negative a, else 0."""
    a, b, valid = _shift_amounts(a, b)
    fill = np.where(a < 0, a.dtype.type(-1) if a.dtype.kind == "i" else 0, a.dtype.type(0))
    return np.where(valid, np.right_shift(a, b), fill.astype(a.dtype))


def _shift_in_range(te, b):
    """Whether the shift amount `b` lies in [0, bits): a shift arith defines."""
    return te.if_then_else(b >= 0, b < b.dtype.width, te.const(0, "bool"))


def _shifted_or_zero(te, shift, a, b):
    """`shift(a, b)`, 0 past the width: arith's shifts are poison there, so the shift
    is by 0 instead."""
    in_range = _shift_in_range(te, b)
    return te.if_then_else(in_range, shift(a, te.if_then_else(in_range, b, 0)), 0)


def _left_shift(te, attrs, a, b):
    return _shifted_or_zero(te, te.shift_left, a, b)


def _right_shift(te, attrs, a, b):
    if _is_unsigned(a):  # logical (arith.shrui): past the width, no bit is left
        return _shifted_or_zero(te, te.shift_right, a, b)
    # Past the width, every bit is the sign fill: what a shift by bits - 1 leaves.
    return te.shift_right(a, te.if_then_else(_shift_in_range(te, b), b, b.dtype.width - 1))


_SHIFT_EDGES = """A shift by bits or more, or by a negative amount, moves every bit out, as ONNX's
reference defines it."""
LeftShiftOp = _binary("graph.left_shift", left_shift, f"""Elementwise lhs << rhs, broadcasting (ONNX BitShift LEFT).

Integers: the low bits are kept (wraps modulo 2^bits). {_SHIFT_EDGES}""", IntegerBinary,
    compute=_left_shift)
RightShiftOp = _binary("graph.right_shift", right_shift, f"""Elementwise lhs >> rhs, broadcasting (ONNX BitShift RIGHT).

Integers: arithmetic for signed types (rounds toward -inf), logical for unsigned ones.
{_SHIFT_EDGES} (-1 remains of a negative signed lhs.)""", IntegerBinary,
    compute=_right_shift)


@graph.op
class ModOp(Binary):
    """Elementwise remainder, broadcasting (ONNX Mod).

    Without `fmod` the remainder takes the sign of rhs (Python's %, integers only);
    with `fmod` the sign of lhs (C's fmod), which floats require.

    Integers: exact. A zero rhs has no defined result: the interpreter reports it and
    graph-fold-constant does not fold it.

    NaN: a NaN operand gives NaN; fmod(±inf, y) and fmod(x, 0) are NaN, fmod(x, ±inf)
    is x (exact: the remainder of two floats is representable)."""

    name = "graph.mod"
    compute = _elementwise_rule(_mod, name)
    fmod = flag(False, "the sign of lhs (C's fmod) rather than of rhs")

    @classmethod
    def infer(cls, types, attrs):
        if isinstance(types[0].element_type, FloatType):
            shape_check(attrs["fmod"], f"{types[0].element_type} remainders need fmod (the sign "
                                       f"of lhs), as ONNX Mod does")
        return super().infer(types, attrs)

    @classmethod
    def reference(cls, attrs, a, b):
        if _is_integer(a) and np.any(b == 0):
            raise UndefinedResultError("an integer remainder by zero has no defined result")
        a, b = wide_floats(a), wide_floats(b)
        return np.fmod(a, b) if attrs["fmod"] else np.mod(a, b)


@graph.op
class PReluOp(GraphOp):
    """Elementwise x if x > 0 else slope·x, `slope` broadcast to `x` (ONNX PRelu).

    The broadcast is one-way, as ONNX's: the result has x's shape, and slope's shape
    must broadcast to it (a per-channel slope of NCHW data is (C, 1, 1)).

    Integers: slope·x wraps modulo 2^bits.

    NaN: a NaN x, or a NaN slope where x <= 0, gives NaN."""

    name = "graph.prelu"
    compute = _elementwise_rule(lambda te, attrs, x, slope: te.if_then_else(x > 0, x, x * slope), name)
    x = OperandDef(NumericTensor)
    slope = OperandDef(NumericTensor)
    result = ResultDef(NumericTensor)
    pattern = PatternKind.BROADCAST
    assembly_format = "$x `,` $slope attr-dict `:` functional-type(operands, results)"

    @classmethod
    def infer(cls, types, attrs):
        x, slope = types
        same_element_type(x, slope)
        shape_check(slope.rank <= x.rank and all(s in (1, d) for s, d in zip(slope.shape[::-1],
                                                                             x.shape[::-1])),
                    f"slope shape {list(slope.shape)} does not broadcast to x shape "
                    f"{list(x.shape)}")
        return [x]

    @classmethod
    def reference(cls, attrs, x, slope):
        x, slope = wide_floats(x), wide_floats(slope)
        return np.where(x > 0, x, x * slope)

@graph.op
class WhereOp(GraphOp):
    """Elementwise select: `x` where `condition` holds, else `y`; all three broadcast.

    Integers and NaN: the selected element is passed on as it is."""

    name = "graph.where"
    compute = _elementwise_rule(lambda te, attrs, c, x, y: te.if_then_else(c, x, y), name)
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
