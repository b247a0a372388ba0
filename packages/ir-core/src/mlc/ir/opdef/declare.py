"""Declaring ops: one class per op, its structure written as data.

    @arith.op
    class AddFOp(Op):
        \"\"\"Floating-point addition.\"\"\"
        name = "arith.addf"
        lhs = OperandDef(FloatLike)
        rhs = OperandDef(FloatLike)
        result = ResultDef(FloatLike)
        fastmath = AttrDef(FastMathFlags, default=FastMathFlags.none)
        traits = (Pure, Commutative, SameOperandsAndResultType)
        assembly_format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"

From this one declaration come the typed accessors (`op.lhs`, `op.fastmath`), a
builder (`AddFOp.build(a, b)`), the generic verifier, the custom parser and printer
(compiled from `assembly_format` by the text layer, :mod:`mlc.ir.text.format`) and the op's entry in
the generated reference (`mlc-opt --list-ops`).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from mlc.ir.core.attributes import (
    Attribute,
    DenseArrayAttr,
    Location,
    Type,
    i32,
    unknown_loc,
)
from mlc.ir.core.ir import Block, IRError, Operation, Region, Value
from mlc.ir.opdef.constraints import (
    AnyAttr,
    AnyType,
    AttrConstraint,
    TypeConstraint,
    as_attr_constraint,
    as_type_constraint,
)
from mlc.ir.opdef.traits import (
    Interface,
    SameOperandsAndResultType,
    Trait,
)


class VerificationError(Exception):
    """Raised by an op's `verify_custom` (or a trait) to report what is wrong. The
    diagnostic names the op (`'func.call' op ...`, MLIR's emitOpError) unless
    `names_op` is False (MLIR's emitError, whose message stands alone)."""

    def __init__(self, message: str, notes: Sequence[tuple[str, Location | None]] = (),
                 at: Operation | None = None, *, names_op: bool = True):
        super().__init__(message)
        self.message = message
        self.notes = list(notes)
        # The op the error is reported on, when not the one verified (a parent may
        # find fault with its terminator).
        self.at = at
        self.names_op = names_op


# ------------------------------------------------------------------ declarations


class _ValueDef:
    """Common part of operand and result declarations."""

    kind = "value"

    def __init__(self, constraint: Any = AnyType, *, variadic: bool = False,
                 optional: bool = False, doc: str = ""):
        if variadic and optional:
            raise ValueError("a value group is variadic or optional, not both")
        self.constraint: TypeConstraint = as_type_constraint(constraint)
        self.variadic = variadic
        self.optional = optional
        self.doc = doc
        self.name = ""
        self.index = 0

    @property
    def is_single(self) -> bool:
        return not (self.variadic or self.optional)

    def describe(self) -> str:
        prefix = "variadic of " if self.variadic else "optional " if self.optional else ""
        return prefix + self.constraint.description

    def __set_name__(self, owner, name: str) -> None:
        self.name = name


class OperandDef(_ValueDef):
    """An operand (or a variadic/optional group of operands) of an op."""

    kind = "operand"

    def __get__(self, op, owner=None):
        if op is None:
            return self
        start, size = op.op_def.operand_segment(op, self.index)
        if size == 1 and not self.variadic:
            return op.op_operands[start].value
        return _group_value(self, [o.value for o in op.op_operands[start:start + size]])


class ResultDef(_ValueDef):
    """A result (or a variadic/optional group of results) of an op."""

    kind = "result"

    def __get__(self, op, owner=None):
        if op is None:
            return self
        start, size = op.op_def.result_segment(op, self.index)
        if size == 1 and not self.variadic:
            return op.results[start]
        return _group_value(self, op.results[start:start + size])


def _group_value(definition: _ValueDef, values: list):
    if definition.variadic:
        return values
    if definition.optional:
        return values[0] if values else None
    return values[0]


class AttrDef:
    """An inherent attribute: a constraint, and a default or optionality."""

    def __init__(self, constraint: Any = AnyAttr, *, default: Attribute | None = None,
                 optional: bool = False, doc: str = "", attr_name: str = ""):
        self.constraint: AttrConstraint = as_attr_constraint(constraint)
        self.default = default
        self.optional = optional or default is not None
        self.doc = doc
        # The attribute's name when the Python one cannot be it (memref.get_global's
        # `name`, which the class's op name takes).
        self.name = attr_name

    def __set_name__(self, owner, name: str) -> None:
        self.name = self.name or name

    def __get__(self, op, owner=None):
        if op is None:
            return self
        return op.attributes.get(self.name, self.default)

    def __set__(self, op, value: Attribute | None) -> None:
        if value is None:
            op.attributes.pop(self.name, None)
        else:
            op.attributes[self.name] = value


class RegionDef:
    """A region of an op; a variadic one (the last declared) stands for all the
    regions from its position on (as `scf.index_switch`'s cases)."""

    def __init__(self, *, single_block: bool = False, variadic: bool = False, doc: str = ""):
        self.single_block = single_block
        self.variadic = variadic
        self.doc = doc
        self.name = ""
        self.index = 0

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, op, owner=None):
        if op is None:
            return self
        if self.variadic:
            return op.regions[self.index:]
        return op.regions[self.index]


class SuccessorDef:
    """A successor block of a terminator."""

    def __init__(self, *, variadic: bool = False, doc: str = ""):
        self.variadic = variadic
        self.doc = doc
        self.name = ""
        self.index = 0

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, op, owner=None):
        if op is None:
            return self
        if self.variadic:
            return op.successors[self.index:]
        return op.successors[self.index]


# ----------------------------------------------------------------------- OpDef


@dataclass
class OpDef:
    """Everything declared about one op, gathered from its class."""

    name: str
    cls: type
    operands: list[OperandDef]
    results: list[ResultDef]
    attributes: dict[str, AttrDef]
    regions: list[RegionDef]
    successors: list[SuccessorDef]
    traits: tuple[Trait, ...]
    assembly_format: str | None
    summary: str
    description: str
    dialect: Any = None
    trait_set: frozenset = field(default_factory=frozenset)
    custom_parse: bool = False
    custom_print: bool = False
    # The traits as written in the class and its bases (`traits` adds what they imply).
    declared_traits: tuple[Trait, ...] = ()
    interfaces: dict[type, Interface] = field(default_factory=dict)
    # Facts derived from the declaration once per op class by the code that asks
    # (e.g. how the side-effect queries classify the op), keyed by that code.
    facts: dict[str, Any] = field(default_factory=dict)
    defaults: Any = None
    _operand_layout: Any = False
    _result_layout: Any = False

    @property
    def dialect_name(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def short_name(self) -> str:
        return self.name.split(".", 1)[1] if "." in self.name else self.name

    def _layout(self, defs: Sequence[_ValueDef]) -> list[tuple[int, int]] | None:
        """Where each group starts, decided once: (offset from the front, 0) for groups
        before the variadic one, (offset from the back, 1) after it, and the variadic
        group itself as (start, 2). None when a sizes attribute decides."""
        multi = [i for i, d in enumerate(defs) if not d.is_single]
        if len(multi) > 1:
            return None
        layout = []
        for i, _ in enumerate(defs):
            if not multi or i < multi[0]:
                layout.append((i, 0))
            elif i == multi[0]:
                layout.append((i, 2))
            else:
                layout.append((len(defs) - i, 1))
        return layout

    def _segment(self, layout, defs, total: int, op: Operation, sizes_attr: str,
                 index: int) -> tuple[int, int]:
        if layout is not None:
            offset, kind = layout[index]
            if kind == 0:
                return offset, 1
            if kind == 1:
                return total - offset, 1
            return offset, total - (len(defs) - 1)
        sizes = op.attributes.get(sizes_attr)
        if not isinstance(sizes, DenseArrayAttr) or len(sizes.values) != len(defs):
            raise IRError(f"'{self.name}' needs a '{sizes_attr}' attribute with "
                          f"{len(defs)} entries")
        return int(sum(sizes.values[:index])), int(sizes.values[index])

    def operand_segment(self, op: Operation, index: int) -> tuple[int, int]:
        """(start, size) of operand group `index` in `op`."""
        if self._operand_layout is False:
            self._operand_layout = self._layout(self.operands)
        return self._segment(self._operand_layout, self.operands, len(op.op_operands), op,
                             "operandSegmentSizes", index)

    def operand_groups(self, op: Operation) -> list[list[Value]]:
        """The values of each declared operand group of `op`, in order."""
        groups = []
        for index in range(len(self.operands)):
            start, size = self.operand_segment(op, index)
            groups.append([o.value for o in op.op_operands[start:start + size]])
        return groups

    def set_operand_groups(self, op: Operation, groups: Sequence[Sequence[Value]]) -> None:
        """Give `op` these values for its operand groups (one list per group), keeping
        `operandSegmentSizes` in step."""
        op.set_operands([value for group in groups for value in group])
        if self.needs_operand_segments:
            op.attributes["operandSegmentSizes"] = DenseArrayAttr(
                i32, tuple(len(group) for group in groups))

    def result_segment(self, op: Operation, index: int) -> tuple[int, int]:
        """(start, size) of result group `index` in `op`."""
        if self._result_layout is False:
            self._result_layout = self._layout(self.results)
        return self._segment(self._result_layout, self.results, len(op.results), op,
                             "resultSegmentSizes", index)

    @property
    def needs_operand_segments(self) -> bool:
        return sum(1 for d in self.operands if not d.is_single) > 1

    @property
    def needs_result_segments(self) -> bool:
        return sum(1 for d in self.results if not d.is_single) > 1

    @property
    def has_custom_form(self) -> bool:
        """Whether the op has a custom form (a format, or parse/print of its own)."""
        return self.assembly_format is not None or self.custom_parse


# ----------------------------------------------------------------------- Op base


# What the core reads on every op: a declaration of that name would hide it.
_RESERVED_NAMES = frozenset({
    "attributes", "loc", "name", "next_op", "op_def", "op_operands", "operand_types",
    "operands", "parent", "parent_op", "parent_region", "prev_op", "properties", "regions",
    "result_types", "results", "successors"})


class OpMeta(type):
    """Collects the declarations in an op class body into its `op_def`."""

    def __new__(mcls, cls_name, bases, namespace, **kwargs):
        op_name = namespace.pop("name", None)
        namespace.setdefault("__slots__", ())
        cls = super().__new__(mcls, cls_name, bases, namespace, **kwargs)
        if op_name is None:
            return cls  # an abstract base that shares structure (e.g. a binary op)
        operands, results, attrs, regions, successors = [], [], {}, [], []
        # Walk the class and its bases so shared declarations are inherited, in order.
        ordered: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            for attr_name, value in vars(klass).items():
                if isinstance(value, (_ValueDef, AttrDef, RegionDef, SuccessorDef)):
                    ordered.pop(attr_name, None)
                    ordered[attr_name] = value
                elif attr_name in ordered:
                    ordered.pop(attr_name)  # a subclass removed the declaration
        for attr_name, value in ordered.items():
            if attr_name in _RESERVED_NAMES:
                raise TypeError(f"'{op_name}': a declaration cannot be named '{attr_name}', "
                                "which every Operation already has")
            if isinstance(value, OperandDef):
                operands.append(value)
            elif isinstance(value, ResultDef):
                results.append(value)
            elif isinstance(value, AttrDef):
                attrs[value.name] = value
            elif isinstance(value, RegionDef):
                regions.append(value)
            elif isinstance(value, SuccessorDef):
                successors.append(value)
        for i, d in enumerate(operands):
            d.index = i
        for i, d in enumerate(results):
            d.index = i
        for i, d in enumerate(regions):
            d.index = i
        for i, d in enumerate(successors):
            d.index = i
        declared, traits = _gather_traits(cls, op_name)
        doc = inspect.cleandoc(cls.__doc__ or "")
        # The summary is the first paragraph (it may wrap), the description the rest.
        summary, _, description = doc.partition("\n\n")
        summary = " ".join(summary.split())
        own = cls.__mro__[:cls.__mro__.index(Op)]
        custom_parse = any("parse" in vars(k) for k in own)
        custom_print = any("print" in vars(k) for k in own)
        if custom_parse != custom_print:
            raise TypeError(f"'{op_name}' defines {'parse' if custom_parse else 'print'} "
                            f"without {'print' if custom_parse else 'parse'}")
        if custom_parse and getattr(cls, "assembly_format", None) is not None:
            raise TypeError(f"'{op_name}' has both an assembly_format and parse/print")
        cls.op_def = OpDef(
            name=op_name, cls=cls, operands=operands, results=results, attributes=attrs,
            regions=regions, successors=successors, traits=traits,
            assembly_format=getattr(cls, "assembly_format", None),
            summary=summary.strip(), description=description.strip(),
            trait_set=frozenset(traits), declared_traits=declared,
            interfaces={t.key: t for t in traits if isinstance(t, Interface)},
            custom_parse=custom_parse, custom_print=custom_print,
        )
        for interface in cls.op_def.interfaces.values():
            interface.bind(cls.op_def)
        return cls


def _gather_traits(cls: type, op_name: str) -> tuple[tuple[Trait, ...], tuple[Trait, ...]]:
    """The traits of `cls` and its bases in declaration order (a later declaration with
    the same key replaces an earlier one), and the same with the traits they imply."""
    declared: dict[object, Trait] = {}
    for klass in reversed(cls.__mro__):
        for trait in vars(klass).get("traits", ()):
            if not isinstance(trait, Trait):
                raise TypeError(f"'{op_name}': {trait!r} in traits is not a Trait")
            declared.pop(trait.key, None)
            declared[trait.key] = trait
    expanded: dict[object, Trait] = {}
    pending = list(reversed(declared.values()))
    while pending:
        trait = pending.pop()
        if trait.key not in expanded:
            expanded[trait.key] = trait
            pending.extend(reversed(trait.implies))
    # An interface hook defined on the class means the op answers that interface's
    # questions itself: it must say so in its traits, or no pass would ask.
    for interface in Interface.registry:
        if interface in expanded:
            continue
        for hook in interface.hooks:
            owner = next((k for k in cls.__mro__ if hook in vars(k)), None)
            if owner is not None and owner is not Op:
                raise TypeError(f"'{op_name}' defines {hook}(), a method of the "
                                f"{interface.__name__} interface, but does not declare "
                                f"{interface.__name__} in its traits")
    return tuple(declared.values()), tuple(expanded.values())


class Op(Operation, metaclass=OpMeta):
    """Base class of declared ops. Subclasses set `name` and declare their parts."""

    __slots__ = ()
    op_def: ClassVar[OpDef]
    traits: ClassVar[tuple[Trait, ...]] = ()
    assembly_format: ClassVar[str | None] = None

    @classmethod
    def build(cls, *operands: Value | Sequence[Value] | None,
              result_types: Sequence[Type] | None = None,
              regions: Sequence[Region] | int = (),
              successors: Sequence[Block] = (),
              loc: Location = unknown_loc,
              **attributes: Attribute) -> Op:
        """Create the op from one argument per declared operand group (a value, a list
        for a variadic group, a value or None for an optional one) and attributes by
        name; result types are inferred when the declaration allows it."""
        op_def = cls.op_def
        if len(operands) != len(op_def.operands):
            raise IRError(f"'{op_def.name}' takes {len(op_def.operands)} operand groups, "
                          f"got {len(operands)}")
        flat: list[Value] = []
        sizes: list[int] = []
        for definition, group in zip(op_def.operands, operands):
            values = list(group) if definition.variadic else [] if group is None else [group]
            flat.extend(values)
            sizes.append(len(values))
        attrs = {k: v for k, v in attributes.items() if v is not None}
        for name in attrs:
            if name not in op_def.attributes:
                raise IRError(f"'{op_def.name}' declares no attribute '{name}'")
        if op_def.needs_operand_segments:
            attrs["operandSegmentSizes"] = DenseArrayAttr(i32, tuple(sizes))
        if result_types is None:
            result_types = cls.infer_result_types([v.type for v in flat], attrs)
        if isinstance(regions, int):
            regions = [Region() for _ in range(regions)]
        elif not regions:
            regions = [Region() for d in op_def.regions if not d.variadic]
        cls._fill_defaults(attrs)
        return cls.create(flat, result_types, attrs, regions, successors, loc)

    @classmethod
    def create_from_flat(cls, operands: Sequence[Value], attributes: dict[str, Attribute],
                         result_types: Sequence[Type] | None = None,
                         loc: Location = unknown_loc) -> Op:
        """Create the op from a flat operand list (no segment bookkeeping), inferring
        result types unless given; used by declarative rewrites."""
        attrs = dict(attributes)
        if result_types is None:
            result_types = cls.infer_result_types([v.type for v in operands], attrs)
        cls._fill_defaults(attrs)
        return cls.create(operands, result_types, attrs,
                          [Region() for d in cls.op_def.regions if not d.variadic],
                          (), loc)

    @classmethod
    def _fill_defaults(cls, attrs: dict[str, Attribute]) -> None:
        """Give absent attributes their declared defaults (MLIR's properties always
        have a value). The (name, default) pairs are collected once per op class."""
        defaults = cls.op_def.defaults
        if defaults is None:
            defaults = cls.op_def.defaults = tuple(
                (n, d.default) for n, d in cls.op_def.attributes.items() if d.default is not None)
        for name, default in defaults:
            if name not in attrs:
                attrs[name] = default

    @classmethod
    def infer_result_types(cls, operand_types: list[Type], attributes: dict[str, Attribute]) -> list[Type]:
        """Result types from operand types: override where the rule is op-specific."""
        op_def = cls.op_def
        if SameOperandsAndResultType in op_def.trait_set and operand_types:
            return [operand_types[0]] * len(op_def.results)
        types = []
        for definition in op_def.results:
            buildable = definition.constraint.buildable_type()
            if buildable is None or not definition.is_single:
                raise IRError(f"cannot infer the result types of '{op_def.name}'; pass result_types")
            types.append(buildable)
        return types

    def verify_custom(self) -> None:
        """Checks the declaration cannot state; raise VerificationError on failure."""

    def verify_regions(self) -> None:
        """Checks that look into the op's regions, run once the ops in them are
        verified (MLIR's verifyRegions); raise VerificationError on failure."""

    def fold(self, operands: list[Attribute | None]
             ) -> Attribute | Value | list[Attribute | Value] | None:
        """Fold given the constant value (or None) of each operand, as MLIR's `fold`:
        an op with one result returns an existing value or a constant attribute (its
        own result when it folded in place, by updating its operands), an op with
        several results a list with one per result; None if the op does not fold.
        Folders never create ops."""
        return None


def is_declared(op: Operation) -> bool:
    return op.op_def is not None
