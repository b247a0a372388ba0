"""The `graph` dialect object, the base class of its ops, and the attribute kinds
graph ops declare.

A graph op is declared once, as data, like every mlc op; on top of the core's
declaration it states three things Relay keeps in separate registries:

- `infer(types, attrs)`: result types from operand types and attribute values
  (raise :class:`ShapeError`; the verifier and the builders both use it);
- `reference(attrs, *arrays)`: what the op computes, on numpy arrays (the oracle the
  interpreter, fold-constant and every later stage are checked against);
- `pattern`: TVM's OpPatternKind, which graph-fuse-ops reads.

Numbers. Graph tensors hold i1, 8/16/32/64-bit integers (signless, signed or
unsigned), index, f16, bf16, f32 or f64 elements: the types numpy computes in, so
the reference is exact about them. Integer arithmetic is done in integers and wraps
modulo 2^bits on overflow; floats are computed in float64 and rounded once to the
result type (inf and NaN are values, as IEEE says). Where an op's result is
undefined (an integer division by zero, an out-of-range index) the reference raises
:class:`UndefinedResultError`: the interpreter reports it and graph-fold-constant
leaves the op alone. Each op's description says what it does with integers and NaN.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from mlc.ir.core.attributes import (
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    Location,
    RankedTensorType,
    StringAttr,
    Type,
    TypeAttr,
    f32,
    i1,
    i64,
)
from mlc.ir.core.ir import Operation
from mlc.ir.dialect import Dialect
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.opdef import spelling
from mlc.ir.opdef.constraints import AttrConstraint, TypeMatches
from mlc.ir.opdef.declare import AttrDef, Op
from mlc.ir.opdef.spelling import Spelling
from mlc.ir.opdef.traits import Pure


class GraphDialect(Dialect):
    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        if isinstance(value, (DenseElementsAttr, DenseResourceElementsAttr)) and value.type == type_:
            from mlc.graph.ops.constant import ConstantOp

            return ConstantOp.build(value=value, loc=loc)
        return None


graph = GraphDialect("graph", "Tensor-level ops (mlc's Relay): what models arrive in, where "
                              "graph optimisations and operator fusion run.")


class PatternKind(enum.IntEnum):
    """TVM's OpPatternKind: how an op's outputs depend on its inputs, which decides
    what graph-fuse-ops may fuse. Combining two kinds takes the larger."""

    ELEMWISE = 0  # out[i] depends on in[i] only
    BROADCAST = 1  # out[i] depends on in[f(i)], f dropping or zeroing axes
    INJECTIVE = 2  # out[i] depends on one input element (reshape, transpose...)
    COMM_REDUCE = 3  # commutative reduction
    OUT_ELEMWISE_FUSABLE = 4  # complex op (conv2d) whose output can take elementwise ops
    TUPLE = 7  # a tuple of values (concat's operands, split's results)
    OPAQUE = 8  # cannot fuse

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "-")


class ShapeError(Exception):
    """An operand type or attribute an op cannot accept; the message says what was
    expected (reported as a verifier error at the op, or raised by the builder)."""


class UndefinedResultError(ArithmeticError):
    """An op's result is undefined on these inputs (an integer division by zero, a
    gather index out of range, a float cast to an integer type it does not fit): the
    reference raises it, the interpreter reports it, and graph-fold-constant leaves
    the op unfolded rather than invent a value."""


# ------------------------------------------------------------------ attribute kinds


@dataclass(frozen=True)
class GraphAttr(AttrConstraint):
    """An attribute kind of graph ops, with its Python spelling: `ints` (a dense i64
    array), `int`, `float`, `bool`, `str` (optionally one of `choices`), `type`."""

    kind: str
    choices: tuple[str, ...] = ()

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        # A type attribute is written as the bare type in custom assembly.
        return spelling.TYPE_ATTR if self.kind == "type" else spelling.ATTRIBUTE

    @property
    def description(self) -> str:  # type: ignore[override]
        return {
            "ints": "i64 array", "int": "i64 integer", "float": "f32 float", "bool": "bool",
            "type": "element type",
            "str": "string" + (", one of " + ", ".join(self.choices) if self.choices else ""),
        }[self.kind]

    def check(self, attr: Attribute) -> bool:
        kind = self.kind
        if kind == "ints":
            return isinstance(attr, DenseArrayAttr) and attr.element_type == i64
        if kind == "int":
            return isinstance(attr, IntegerAttr) and attr.type == i64
        if kind == "float":
            return isinstance(attr, FloatAttr)
        if kind == "bool":
            return isinstance(attr, IntegerAttr) and attr.type == i1
        if kind == "type":
            return isinstance(attr, TypeAttr)
        return isinstance(attr, StringAttr) and (not self.choices or attr.value in self.choices)

    def to_attr(self, value: Any) -> Attribute:
        """The attribute for a Python value (`(1, 1)`, `2`, `0.5`, `True`, `"NCHW"`)."""
        kind = self.kind
        if kind == "type" and isinstance(value, Type):
            return TypeAttr(value)  # a type is itself an attribute: wrap it
        if isinstance(value, Attribute):
            return value
        if kind == "ints":
            return DenseArrayAttr(i64, tuple(int(v) for v in value))
        if kind == "int":
            return IntegerAttr(int(value), i64)
        if kind == "float":
            return FloatAttr.from_value(float(value), f32)
        if kind == "bool":
            return BoolAttr(bool(value))
        if kind == "type":
            return TypeAttr(value)
        return StringAttr(str(value))


def attribute_value(attr: Attribute) -> Any:
    """The Python value of a graph attribute (tuple, int, float, bool, str or type)."""
    if isinstance(attr, DenseArrayAttr):
        return tuple(attr.values)
    if isinstance(attr, IntegerAttr):
        return bool(attr.value) if attr.type == i1 else attr.value
    if isinstance(attr, FloatAttr):
        return attr.value
    if isinstance(attr, StringAttr):
        return attr.value
    if isinstance(attr, TypeAttr):
        return attr.value
    return attr


def _attr(kind: str, default: Any, doc: str, choices: tuple[str, ...] = ()) -> AttrDef:
    constraint = GraphAttr(kind, choices)
    return AttrDef(constraint, default=None if default is None else constraint.to_attr(default),
                   doc=doc)


def ints(default: Sequence[int] | None = None, doc: str = "") -> AttrDef:
    """An i64-array attribute (`array<i64: ...>`)."""
    return _attr("ints", default, doc)


def integer(default: int | None = None, doc: str = "") -> AttrDef:
    """An i64 attribute."""
    return _attr("int", default, doc)


def real(default: float | None = None, doc: str = "") -> AttrDef:
    """An f32 attribute."""
    return _attr("float", default, doc)


def flag(default: bool | None = None, doc: str = "") -> AttrDef:
    """A bool attribute."""
    return _attr("bool", default, doc)


def string(default: str | None = None, doc: str = "", choices: tuple[str, ...] = ()) -> AttrDef:
    """A string attribute, optionally one of `choices`."""
    return _attr("str", default, doc, choices)


def element_type(default: Type | None = None, doc: str = "") -> AttrDef:
    """A type attribute naming an element type."""
    return _attr("type", default, doc)


# ------------------------------------------------------------------ types

_FLOATS = frozenset({"f16", "bf16", "f32", "f64"})


def computable(element: Type) -> bool:
    """Whether graph ops compute on `element`: i1, 8/16/32/64-bit integers, index, f16,
    bf16, f32, f64. (Narrower integers and the small float formats would need their own
    wrapping and rounding rules; the reference does not have them.)"""
    if isinstance(element, IntegerType):
        return element.width in (8, 16, 32, 64) or (element.width == 1
                                                    and element.signedness == "signless")
    if isinstance(element, FloatType):
        return element.name in _FLOATS
    return isinstance(element, IndexType)


def _tensor_of(kind, description: str) -> TypeMatches:
    return TypeMatches(lambda t: isinstance(t, RankedTensorType) and computable(t.element_type)
                       and kind(t.element_type), description)


Tensor = _tensor_of(lambda e: True,
                    "ranked tensor of i1, 8-64-bit integers, index, f16, bf16, f32 or f64")
NumericTensor = _tensor_of(lambda e: e != i1,
                           "ranked tensor of 8-64-bit integers, index, f16, bf16, f32 or f64")
FloatTensor = _tensor_of(lambda e: isinstance(e, FloatType),
                         "ranked tensor of f16, bf16, f32 or f64")
BoolTensor = _tensor_of(lambda e: e == i1, "ranked tensor of i1")


def tensor(shape: Sequence[int], element: Type = f32) -> RankedTensorType:
    """`tensor<shape x element>`."""
    return RankedTensorType(tuple(int(d) for d in shape), element)


# ------------------------------------------------------------------ the op base


_DEFAULT_VALUES: dict[type, dict[str, Any]] = {}


class GraphOp(Op):
    """Base of graph ops: pure, with shape inference, reference semantics and a
    fusion pattern kind (see the module docstring)."""

    pattern: ClassVar[PatternKind] = PatternKind.OPAQUE
    traits = (Pure, InferType())

    @classmethod
    def infer(cls, types: list[RankedTensorType], attrs: dict[str, Any]) -> list[Type]:
        """Result types from operand types and attribute values; raise ShapeError."""
        raise NotImplementedError

    @classmethod
    def reference(cls, attrs: dict[str, Any], *inputs):
        """numpy reference semantics: one array, or a tuple for several results."""
        raise NotImplementedError

    @classmethod
    def pattern_of(cls, op: Operation) -> PatternKind:
        """The op's pattern kind (an op may refine it from its attributes)."""
        return cls.pattern

    # -- plumbing shared by every graph op

    @classmethod
    def attribute_values(cls, attributes: dict[str, Attribute]) -> dict[str, Any]:
        """Attribute values by name, declared defaults filled in."""
        defaults = _DEFAULT_VALUES.get(cls)
        if defaults is None:  # converted once per op class: the verifier asks per op
            defaults = _DEFAULT_VALUES[cls] = {
                name: attribute_value(d.default) for name, d in cls.op_def.attributes.items()
                if d.default is not None}
        values = dict(defaults)
        for name, attr in attributes.items():
            values[name] = attribute_value(attr)
        return values

    @property
    def values(self) -> dict[str, Any]:
        """This op's attribute values (see attribute_values)."""
        return self.attribute_values(self.attributes)

    @classmethod
    def infer_result_types(cls, operand_types: list[Type], attributes: dict[str, Attribute]) -> list[Type]:
        for i, t in enumerate(operand_types):
            if not isinstance(t, RankedTensorType):
                raise TypeInferenceError(cls.op_def.name, f"operand #{i} must be a ranked tensor, "
                                         f"got {t}")
        try:
            _require_static(operand_types)
            return list(cls.infer(list(operand_types), cls.attribute_values(attributes)))
        except ShapeError as exc:
            raise TypeInferenceError(cls.op_def.name, str(exc)) from None

    def evaluate(self, inputs: Sequence) -> list:
        """Run the reference semantics on `inputs` (numpy arrays as stored: bf16 as raw
        16-bit patterns); one array per result, in its type's storage dtype. inf and NaN
        results are values, never numpy warnings; an undefined result raises
        UndefinedResultError."""
        values = [from_bf16_bits(a) if _is_bf16(v.type) else a for a, v in zip(inputs, self.operands)]
        # Overflow to inf, 0/0 and the like are what IEEE arithmetic computes (and
        # integer overflow wraps, as documented): results, not errors.
        with np.errstate(all="ignore"):
            out = self.reference(self.values, *values)
            out = list(out) if isinstance(out, (tuple, list)) else [out]
            return [stored(a, r.type, self.op_def.name) for a, r in zip(out, self.results)]

    @classmethod
    def doc_facts(cls) -> list[str]:
        return [f"Fusion pattern: `{cls.pattern.label}`"]


def _is_bf16(type_: Type) -> bool:
    return isinstance(type_, RankedTensorType) and getattr(type_.element_type, "name", "") == "bf16"


def stored(array, type_: Type, producer: str = "a graph op") -> np.ndarray:
    """`array` in the storage dtype of `type_`'s elements (bf16 as bit patterns,
    rounded once); floats overflow to inf. An integer result must be computed in
    integers: a float array for one is a bug in `producer`'s reference."""
    from mlc.ir.core.attributes import element_dtype

    array = np.asarray(array)
    if not isinstance(type_, RankedTensorType):
        return array
    if _is_bf16(type_):
        return to_bf16_bits(array)
    dtype = element_dtype(type_.element_type)
    if dtype.kind in "iub" and array.dtype.kind == "f":
        raise TypeError(f"{producer} computed {array.dtype} values for a {type_} result")
    with np.errstate(over="ignore"):
        return np.asarray(array, dtype)


def to_bf16_bits(array) -> np.ndarray:
    """bfloat16 bit patterns (uint16) of numbers of any dtype, rounded once to nearest
    even (f64 and integers are not rounded through f32 first); beyond bf16's range
    they become ±inf, NaN the quiet NaN 0x7FC0."""
    x = np.asarray(array)
    if x.dtype.kind in "iu":
        x = _integers_to_bf16_values(x)
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        # bf16 keeps 8 significant bits; below its smallest normal, 2^-126, the
        # quantum stays 2^-133 (the subnormals). Scaling by powers of two is exact, so
        # np.round (half to even) is the only rounding.
        _, exponent = np.frexp(x)  # |x| in [2^(e-1), 2^e)
        quantum = np.maximum(exponent, -125) - 8
        rounded = np.ldexp(np.round(np.ldexp(x, -quantum)), quantum)
        single = rounded.astype(np.float32)  # exact, or ±inf past bf16's largest value
    bits = (single.view(np.uint32) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), bits)


def _integers_to_bf16_values(x: np.ndarray) -> np.ndarray:
    """Integers rounded (half to even) to bf16's 8 significant bits, in integer
    arithmetic: float64 would already round those above 2^53."""
    if x.dtype.kind == "u":
        negative, magnitude = np.zeros(x.shape, bool), x.astype(np.uint64)
    else:
        wide = x.astype(np.int64)
        # |INT64_MIN| wraps to itself; as uint64 it reads 2^63, the right magnitude.
        negative, magnitude = wide < 0, np.abs(wide).astype(np.uint64)
    length = np.zeros(x.shape, np.uint64)  # bit length of each magnitude
    rest = magnitude
    for step in (32, 16, 8, 4, 2, 1):
        high = (rest >> np.uint64(step)) != 0
        length += np.where(high, np.uint64(step), np.uint64(0))
        rest = np.where(high, rest >> np.uint64(step), rest)
    length += (rest != 0).astype(np.uint64)
    shift = np.where(length > 8, length - np.uint64(8), np.uint64(0))
    kept = magnitude >> shift
    dropped = magnitude - (kept << shift)
    half = np.uint64(1) << (np.maximum(shift, np.uint64(1)) - np.uint64(1))  # unused at shift 0
    up = (shift > 0) & ((dropped > half) | ((dropped == half) & ((kept & np.uint64(1)) == 1)))
    value = np.ldexp((kept + up.astype(np.uint64)).astype(np.float64), shift.astype(np.int64))
    return np.where(negative, -value, value)


def from_bf16_bits(array) -> np.ndarray:
    """float32 values of bfloat16 bit patterns (uint16)."""
    return (np.asarray(array, np.uint16).astype(np.uint32) << 16).view(np.float32)


def _require_static(types) -> None:
    for i, t in enumerate(types):
        shape_check(all(d >= 0 for d in t.shape),
                    f"operand #{i} has type {t}: graph ops need static shapes")


def shape_check(condition: bool, message: str) -> None:
    """Raise ShapeError(message) unless `condition` holds."""
    if not condition:
        raise ShapeError(message)


def same_element_type(a: RankedTensorType, b: RankedTensorType, what: str = "operand") -> None:
    """Raise ShapeError unless `a` and `b` have one element type; `what` names them."""
    shape_check(a.element_type == b.element_type,
                f"{what} element types differ: {a.element_type} and {b.element_type}")


def unique_name(name: str, taken) -> str:
    """`name`, or `name_1`, `name_2`... : the first not in `taken`."""
    candidate, counter = name, 0
    while candidate in taken:
        counter += 1
        candidate = f"{name}_{counter}"
    return candidate
