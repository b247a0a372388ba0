"""Op traits: properties an op declares, some of which the verifier checks.

Traits are listed in an op class's `traits` tuple, and they accumulate along the op's
base classes: a subclass lists only what it adds. A trait may imply others (`Pure` is
`NoMemoryEffect` and `AlwaysSpeculatable`). An :class:`Interface` is a trait with
methods that passes call (see :mod:`mlc.ir.interfaces`); an op declares it in the
same tuple, with the data it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mlc.ir.core.ir import Operation


class Trait:
    """A named property of an op. `verify` returns an error message or None.

    An `invariant` trait is a predicate of the declaration itself (MLIR's PredOpTrait:
    `AllTypesMatch`, `TypesMatchWith`...), which MLIR checks with the op's operand,
    result and attribute constraints, before the other traits: the verifier runs it
    right after those constraints, whatever its place in `traits`.
    """

    name = "Trait"
    summary = ""
    implies: tuple[Trait, ...] = ()
    invariant = False
    # Whether `verify` looks into the op's regions, so it runs once they are verified
    # (MLIR's verifyRegionTrait / verifyWithRegions).
    verifies_regions = False

    def verify(self, op: Operation) -> str | None:
        return None

    @property
    def key(self) -> object:
        """What identifies the trait when an op's traits are gathered from its base
        classes: a trait with the same key declared again replaces the earlier one."""
        return self

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


class _SimpleTrait(Trait):
    def __init__(self, name: str, summary: str, implies: tuple[Trait, ...] = ()):
        self.name = name
        self.summary = summary
        self.implies = implies


class Interface(Trait):
    """A trait with methods: what an op declares so that passes can ask it questions
    (its memory effects, its loop bounds, where control flows...) without knowing the
    op. Declared in `traits` like any trait, with the data the answers come from;
    an op whose answer depends on more than that data defines the interface's hook
    methods (listed in `hooks`) on its class.

    Each subclass that derives directly from Interface is one interface: an op has at
    most one declaration of it (a subclass's declaration replaces its base's), found
    with `TheInterface.get(op)`.
    """

    hooks: tuple[str, ...] = ()
    registry: list[type[Interface]] = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if Interface in cls.__bases__:
            Interface.registry.append(cls)

    @classmethod
    def interface(cls) -> type[Interface]:
        """The interface this class declares (itself, or the base it refines)."""
        for klass in cls.__mro__:
            if Interface in klass.__bases__:
                return klass
        raise TypeError("Interface itself is not an interface")

    @property
    def key(self) -> object:
        return self.interface()

    @classmethod
    def get(cls, op) -> Interface | None:
        """The declaration of this interface on `op` (an op or an op class), or None."""
        op_def = op.op_def
        return None if op_def is None else op_def.interfaces.get(cls.interface())

    def bind(self, op_def) -> None:
        """Check the declaration against the op it is declared on (names of operands,
        regions...); raise TypeError for a mistake. Called once per op class."""


# Memory effects and speculation (MLIR's NoMemoryEffect, AlwaysSpeculatable, Pure,
# RecursiveMemoryEffects, RecursivelySpeculatable); the queries that read them are in
# mlc.ir.interfaces.side_effects.
NoMemoryEffect = _SimpleTrait("NoMemoryEffect", "reads and writes no memory")
AlwaysSpeculatable = _SimpleTrait("AlwaysSpeculatable",
                                  "may run where it would not have (it cannot trap or loop)")
Pure = _SimpleTrait("Pure", "no side effects and always speculatable: dead instances may be "
                    "removed, CSE may merge them, and they may be hoisted",
                    implies=(NoMemoryEffect, AlwaysSpeculatable))
RecursiveMemoryEffects = _SimpleTrait("RecursiveMemoryEffects",
                                      "its memory effects are those of the ops in its regions")
RecursivelySpeculatable = _SimpleTrait("RecursivelySpeculatable",
                                       "speculatable if the ops in its regions are")
Commutative = _SimpleTrait("Commutative", "operands may be swapped")
IsTerminator = _SimpleTrait("IsTerminator", "ends its block")
NoTerminator = _SimpleTrait("NoTerminator", "its regions' blocks need no terminator")
IsolatedFromAbove = _SimpleTrait("IsolatedFromAbove",
                                 "its regions use no value defined outside them")
SymbolTable = _SimpleTrait("SymbolTable", "its region holds symbols with unique names")
ConstantLike = _SimpleTrait("ConstantLike", "materialises a constant attribute as a value")


def constant_value(value):
    """The constant `value` is, if a ConstantLike op defines it: the op's `value`
    attribute, when that has no type (`#ub.poison`) or `value`'s type. An attribute of
    another type (MLIR's test dialect can write `"test.constant"() {value = 1 : i64} :
    () -> i32`) is no constant of the value: folders and patterns must not read it."""
    op = value.defining_op
    if op is None or op.op_def is None or ConstantLike not in op.op_def.trait_set:
        return None
    attr = constant_attribute(op)
    attr_type = getattr(attr, "type", None)
    if attr is None or (attr_type is not None and attr_type != value.type):
        return None
    return attr


def constant_attribute(op):
    """The attribute a ConstantLike op stands for: its `value`, or, for one that has
    none (`llvm.mlir.undef`, `llvm.mlir.addressof`), what its folder gives (MLIR reads
    every constant through its folder)."""
    attr = op.attributes.get("value")
    if attr is None:
        from mlc.ir.core.attributes import Attribute

        folded = op.fold([])
        attr = folded if isinstance(folded, Attribute) else None
    return attr


SingleBlock = _SimpleTrait("SingleBlock", "each region has at most one block")


class _NoRegionArguments(Trait):
    name = "NoRegionArguments"
    summary = "the entry blocks of its regions have no arguments"

    def verify(self, op: Operation) -> str | None:
        for index, region in enumerate(op.regions):
            if region.blocks and region.blocks[0].args:
                # MLIR's words: the region is numbered only when there are several.
                return ("region should have no arguments" if len(op.regions) == 1
                        else f"region #{index} should have no arguments")
        return None


NoRegionArguments = _NoRegionArguments()
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
            # MLIR's ParentOneOf quotes the list as one: 'a, b'.
            expected = ", ".join(self.parents)
            return f"expects parent op {'to be one of ' if len(self.parents) > 1 else ''}'{expected}'"
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
    invariant = True

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


class OpPredicate(Trait):
    """A property of the op as a whole that `holds` checks, which `summary` states
    (MLIR's PredOpTrait, e.g. `TypesMatchWith`); its diagnostic is MLIR's
    "failed to verify that <summary>"."""

    invariant = True

    def __init__(self, summary: str, holds: Callable[[Operation], bool]):
        self.summary = summary
        self.holds = holds

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"OpPredicate<{self.summary}>"

    def verify(self, op: Operation) -> str | None:
        return None if self.holds(op) else f"failed to verify that {self.summary}"


class TypesMatchWith(OpPredicate):
    """The type of `target` is `transform` of the type of `source` (MLIR's
    `TypesMatchWith`: a store's value is its memref's element type); a custom format
    may then leave the target's type out."""

    def __init__(self, target: str, source: str, transform, description: str):
        self.target = target
        self.source = source
        self.transform = transform
        super().__init__(description, self._types_match)

    def _types_match(self, op: Operation) -> bool:
        target = getattr(op, self.target)
        if target is None:  # an absent optional operand
            return True
        return target.type == self.transform(getattr(op, self.source).type)

    @property
    def description(self) -> str:
        return self.summary

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"TypesMatchWith<{self.target}, {self.source}>"

    def __hash__(self) -> int:
        return hash((self.target, self.source))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypesMatchWith) and (other.target, other.source) == (
            self.target, self.source)


def _shapes_compatible(shapes: list[tuple[int, ...] | None]) -> bool:
    """MLIR's verifyCompatibleShapes: the ranked shapes (None: unranked) agree in rank
    and in every dimension both know (a dynamic size agrees with any)."""
    from mlc.ir.core.attributes import DYNAMIC

    ranked = [s for s in shapes if s is not None]
    if any(len(s) != len(ranked[0]) for s in ranked):
        return False
    for dims in zip(*ranked):
        static = {d for d in dims if d != DYNAMIC}
        if len(static) > 1:
            return False
    return True


class _ElementwiseMappable(Trait):
    name = "ElementwiseMappable"
    summary = ("applies elementwise: vector and tensor operands and results have one "
               "shape, and scalars mix with them only as operands")

    def verify(self, op: Operation) -> str | None:
        from mlc.ir.core.attributes import RankedTensorType, UnrankedTensorType, VectorType

        mappable = (VectorType, RankedTensorType, UnrankedTensorType)
        operands = [o.value.type for o in op.op_operands if isinstance(o.value.type, mappable)]
        results = [r.type for r in op.results if isinstance(r.type, mappable)]
        if not operands and not results:
            return None
        if not operands:
            return "if a result is non-scalar, then at least one operand must be non-scalar"
        if not results:
            return ("if an operand is non-scalar, then there must be at least one "
                    "non-scalar result")
        if len(results) != len(op.results):
            return "if an operand is non-scalar, then all results must be non-scalar"
        types = operands + results
        if any(type(t) is not type(types[0]) for t in types) or not _shapes_compatible(
                [getattr(t, "shape", None) for t in types]):
            return "all non-scalar operands/results must have the same shape and base type"
        return None


ElementwiseMappable = _ElementwiseMappable()
"""MLIR's ElementwiseMappable: the op maps elementwise over vectors and tensors (its
verifier: any vector or tensor among the operands means every result is one, all of
one kind and of compatible shapes)."""
