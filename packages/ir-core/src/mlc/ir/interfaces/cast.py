"""Casts (MLIR's CastOpInterface), declared by the (source, target) types they allow.

    traits = (Cast(CastRule(AnyFloat, AnyFloat, WIDER), elementwise=True),)

From the rules come the verifier's check and `are_cast_compatible(inputs, outputs)`,
which a pass can ask of an op class before it builds the cast. An elementwise cast
applies its rules to element types, between scalars or containers of one shape (as
arith's casts); a cast without rules allows any types, any number of them
(`builtin.unrealized_conversion_cast`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mlc.ir.core.attributes import (
    RankedTensorType,
    ShapedType,
    Type,
    UnrankedTensorType,
    VectorType,
)
from mlc.ir.core.ir import Operation
from mlc.ir.opdef.constraints import TypeConstraint
from mlc.ir.opdef.traits import Interface


@dataclass(frozen=True)
class TypeRelation:
    """A relation the source and target types of a cast must satisfy."""

    holds: Callable[[Type, Type], bool] = field(compare=False)
    description: str


WIDER = TypeRelation(lambda s, t: s.width < t.width, "wider")
NARROWER = TypeRelation(lambda s, t: s.width > t.width, "narrower")
SAME_WIDTH = TypeRelation(lambda s, t: s.width == t.width, "same-width")


@dataclass(frozen=True)
class CastRule:
    """Casts from a `source` type to a `target` type are allowed (when `relation`,
    if given, holds between them)."""

    source: TypeConstraint
    target: TypeConstraint
    relation: TypeRelation | None = None

    def allows(self, source: Type, target: Type) -> bool:
        return self.source.check(source) and self.target.check(target) and (
            self.relation is None or self.relation.holds(source, target))

    def __str__(self) -> str:
        target = self.target.description
        if self.relation is not None:
            target = f"{self.relation.description} {target}"
        return f"{self.source.description} to {target}"


def _element(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, ShapedType) else type_


def _shape_problem(source: Type, target: Type) -> str | None:
    """Why an elementwise cast from `source` to `target` changes the shape, in MLIR's
    words and order: its tensor-dimensions constraint (when a tensor is involved), then
    the SameOperandsAndResultShape trait."""
    def shaped(t: Type) -> bool:
        return isinstance(t, (ShapedType, UnrankedTensorType))

    if shaped(source) and shaped(target) and (
            isinstance(source, (RankedTensorType, UnrankedTensorType))
            or isinstance(target, (RankedTensorType, UnrankedTensorType))):
        if type(source) is not type(target) or getattr(source, "shape", None) != getattr(target, "shape", None):
            return "failed to verify that input and output have the same tensor dimensions"
        return None
    if shaped(source) != shaped(target) or (
            isinstance(source, VectorType) and (source.shape, source.scalable) != (target.shape, target.scalable)):
        return "requires the same shape for all operands and results"
    return None


class Cast(Interface):
    """A cast, allowed between the types its rules name. `scaled`: the op's first
    operand is the one cast, the others parametrise the cast (arith.scaling_extf's
    scales) and are not checked against the rules."""

    def __init__(self, *rules: CastRule, elementwise: bool = False, scaled: bool = False):
        self.rules = rules
        self.elementwise = elementwise
        self.scaled = scaled

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"Cast({'; '.join(map(str, self.rules)) or 'any'})"

    @property
    def summary(self) -> str:  # type: ignore[override]
        return "a cast: " + ("; ".join(map(str, self.rules)) or "between any types")

    def incompatibility(self, inputs: Sequence[Type], outputs: Sequence[Type]) -> str | None:
        """Why a cast of `inputs` to `outputs` is not allowed, or None if it is."""
        if not self.rules:
            return None
        if (len(inputs) != 1 and not (self.scaled and inputs)) or len(outputs) != 1:
            return f"expected one input and one output, got {len(inputs)} and {len(outputs)}"
        source, target = inputs[0], outputs[0]
        same_encoding = True
        if self.elementwise:
            problem = _shape_problem(source, target)
            if problem is not None:
                return problem
            # A tensor's encoding is no element: the cast keeps it (MLIR).
            same_encoding = getattr(source, "encoding", None) == getattr(target, "encoding", None)
            source, target = _element(source), _element(target)
        if same_encoding and any(rule.allows(source, target) for rule in self.rules):
            return None
        allowed = ", or ".join(map(str, self.rules)) if same_encoding else \
            "a tensor to one of the same encoding"
        operands = ", ".join(f"'{t}'" for t in inputs)
        return (f"operand type{'s' if len(inputs) > 1 else ''} {operands} and result type "
                f"'{outputs[0]}' are cast incompatible (it casts {allowed})")

    def are_cast_compatible(self, inputs: Sequence[Type], outputs: Sequence[Type]) -> bool:
        """Whether the op may cast values of types `inputs` to `outputs`."""
        return self.incompatibility(inputs, outputs) is None

    def verify(self, op: Operation) -> str | None:
        return self.incompatibility(op.operand_types, op.result_types)


def are_cast_compatible(op_class, inputs: Sequence[Type], outputs: Sequence[Type]) -> bool:
    """Whether ops of `op_class` (which declares Cast) may cast `inputs` to `outputs`."""
    declared = Cast.get(op_class)
    if declared is None:
        raise TypeError(f"'{op_class.op_def.name}' is not a cast")
    return declared.are_cast_compatible(inputs, outputs)
