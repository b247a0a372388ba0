"""Op traits: properties an op declares, some of which the verifier checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mlc.ir.core.ir import Operation


class Trait:
    """A named property of an op. `verify` returns an error message or None."""

    name = "Trait"
    summary = ""

    def verify(self, op: Operation) -> str | None:
        return None

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


class _SimpleTrait(Trait):
    def __init__(self, name: str, summary: str):
        self.name = name
        self.summary = summary


Pure = _SimpleTrait("Pure", "no side effects; dead instances may be removed, and CSE may merge them")
Commutative = _SimpleTrait("Commutative", "operands may be swapped")
IsTerminator = _SimpleTrait("IsTerminator", "ends its block")
NoTerminator = _SimpleTrait("NoTerminator", "its regions' blocks need no terminator")
IsolatedFromAbove = _SimpleTrait("IsolatedFromAbove",
                                 "its regions use no value defined outside them")
SymbolTable = _SimpleTrait("SymbolTable", "its region holds symbols with unique names")
ConstantLike = _SimpleTrait("ConstantLike", "materialises a constant attribute as a value")
SingleBlock = _SimpleTrait("SingleBlock", "each region has at most one block")
GraphRegions = _SimpleTrait("GraphRegions",
                            "its regions are graph regions: ops may use values defined later")
AttrSizedOperandSegments = _SimpleTrait(
    "AttrSizedOperandSegments", "the `operandSegmentSizes` property splits the operands into groups")


class _Symbol(Trait):
    name = "Symbol"
    summary = "defines a symbol named by its `sym_name` attribute"

    def verify(self, op: Operation) -> str | None:
        from mlc.ir.core.attributes import StringAttr

        if not isinstance(op.attributes.get("sym_name"), StringAttr):
            return "requires string attribute 'sym_name'"
        parent = op.parent_op
        if parent is not None and parent.op_def is not None and SymbolTable not in parent.op_def.trait_set:
            return "symbol's parent must have the SymbolTable trait"
        return None


Symbol = _Symbol()


class _SameOperandsAndResultType(Trait):
    name = "SameOperandsAndResultType"
    summary = "every operand and result has the same type"

    def verify(self, op: Operation) -> str | None:
        results = op.results
        first = results[0].type if results else None
        for use in op.op_operands:
            type_ = use.value.type
            if first is None:
                first = type_
            elif type_ is not first and type_ != first:
                return "requires the same type for all operands and results"
        for result in results:
            if result.type is not first and result.type != first:
                return "requires the same type for all operands and results"
        return None


SameOperandsAndResultType = _SameOperandsAndResultType()


class _SameTypeOperands(Trait):
    name = "SameTypeOperands"
    summary = "every operand has the same type"

    def verify(self, op: Operation) -> str | None:
        types = [o.value.type for o in op.op_operands]
        if types and any(t != types[0] for t in types):
            return "requires all operands to have the same type"
        return None


SameTypeOperands = _SameTypeOperands()


@dataclass(frozen=True, eq=False)
class HasParent(Trait):
    """The op must sit directly inside one of the named ops."""

    parents: tuple[str, ...]

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"HasParent<{', '.join(self.parents)}>"

    @property
    def summary(self) -> str:  # type: ignore[override]
        return "nested directly in " + " or ".join(f"'{p}'" for p in self.parents)

    def verify(self, op: Operation) -> str | None:
        parent = op.parent_op
        if parent is None or parent.name not in self.parents:
            expected = ", ".join(f"'{p}'" for p in self.parents)
            return f"expects parent op {'to be one of ' if len(self.parents) > 1 else ''}{expected}"
        return None

    def __hash__(self) -> int:
        return hash(self.parents)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HasParent) and other.parents == self.parents


@dataclass(frozen=True, eq=False)
class AllTypesMatch(Trait):
    """The named operands/results all have one type (MLIR's `AllTypesMatch`); a custom
    format may then spell the type once."""

    names: tuple[str, ...]

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"AllTypesMatch<{', '.join(self.names)}>"

    @property
    def summary(self) -> str:  # type: ignore[override]
        return " and ".join(f"'{n}'" for n in self.names) + " have the same type"

    def verify(self, op: Operation) -> str | None:
        types = [getattr(op, n).type for n in self.names]
        if any(t != types[0] for t in types):
            return f"failed to verify that all of {{{', '.join(self.names)}}} have same type"
        return None

    def __hash__(self) -> int:
        return hash(self.names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AllTypesMatch) and other.names == self.names
