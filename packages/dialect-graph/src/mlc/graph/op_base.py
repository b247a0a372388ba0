"""The base class of graph ops, their fusion pattern kinds and the errors of their
shape inference and semantics.

A graph op is declared once, as data, like every mlc op; on top of the core's
declaration it states three things Relay keeps in separate registries:

- `infer(types, attrs)`: result types from operand types and attribute values
  (raise :class:`ShapeError`; the verifier and the builders both use it);
- `reference(attrs, *arrays)`: what the op computes, on numpy arrays (the oracle the
  interpreter, fold-constant and every later stage are checked against);
- `pattern`: TVM's OpPatternKind, which graph-fuse-ops reads;
- `compute(te, attrs, *inputs)`: TE's compute rule, from which the loop level builds
  the op's loop nest (`mlc.loop.compute_rules`); the reference stays the oracle.

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
from typing import Any, ClassVar

import numpy as np

from mlc.graph.attributes import attribute_value
from mlc.graph.storage import _is_bf16, from_bf16_bits, stored
from mlc.ir import Attribute, Operation, RankedTensorType, Type
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.opdef import Op, Pure


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




# ------------------------------------------------------------------ the op base


_DEFAULT_VALUES: dict[type, dict[str, Any]] = {}


class GraphOp(Op):
    """Base of graph ops: pure, with shape inference, reference semantics and a
    fusion pattern kind (see the module docstring)."""

    pattern: ClassVar[PatternKind] = PatternKind.OPAQUE
    # Every result element is a copy of an operand element (a shape or layout change,
    # a selection): on operands that are one and the same splat, the results are that
    # splat too, which graph-fold-constant uses to fold them at any size.
    copies_elements: ClassVar[bool] = False
    traits = (Pure, InferType())

    @classmethod
    def infer(cls, types: list[RankedTensorType], attrs: dict[str, Any]) -> list[Type]:
        """Result types from operand types and attribute values; raise ShapeError."""
        raise NotImplementedError

    @classmethod
    def reference(cls, attrs: dict[str, Any], *inputs):
        """numpy reference semantics: one array, or a tuple for several results."""
        raise NotImplementedError

    # TE's compute rule: `compute(te, attrs, *inputs)` builds the op's results from
    # `inputs` (tensor placeholders of `mlc.loop.te`, passed in as `te` so this package
    # does not depend on the loop level) and returns a te.Tensor, or a tuple of them
    # for several results. `attrs` are the op's attribute values and, under
    # "result_types", its result types (whose element type may be an attribute's type,
    # which the values do not keep: one_hot, range). None: the op does not lower to
    # loops (yet).
    compute: ClassVar[Any] = None

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
        """The op reference's lines on fusion and on lowering to loops."""
        lowers = "yes (TE compute rule)" if cls.compute is not None else "not yet (no compute rule)"
        return [f"Fusion pattern: `{cls.pattern.label}`", f"Lowers to loops: {lowers}"]




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


