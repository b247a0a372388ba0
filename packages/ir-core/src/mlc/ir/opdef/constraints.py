"""Constraints on types and attributes, as used in op declarations.

A constraint checks a value and describes itself ("32-bit signless integer") for
diagnostics and the generated op reference. Attribute constraints also carry the
:mod:`~mlc.ir.opdef.spelling` of the attribute inside an op's custom assembly format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DialectAttribute,
    DictionaryAttr,
    FloatAttr,
    FloatType,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    RankedTensorType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
    i32,
    i64,
)
from mlc.ir.opdef import spelling
from mlc.ir.opdef.spelling import Spelling


class TypeConstraint:
    """A predicate on types with a description."""

    description = "any type"

    def check(self, type_: Type) -> bool:
        return True

    def buildable_type(self) -> Type | None:
        """The one type this constraint allows, if any (lets a format omit it)."""
        return None

    def __str__(self) -> str:
        return self.description


AnyType = TypeConstraint()


@dataclass(frozen=True)
class TypeIs(TypeConstraint):
    """Exactly one type; `label` names it in messages (ODS's `I1` is a
    "1-bit signless integer"), else the type is quoted."""

    type: Type
    label: str = ""

    @property
    def description(self) -> str:  # type: ignore[override]
        return self.label or f"'{self.type}'"

    def check(self, type_: Type) -> bool:
        return type_ == self.type

    def buildable_type(self) -> Type | None:
        return self.type


@dataclass(frozen=True)
class TypeMatches(TypeConstraint):
    """Any type satisfying `predicate`."""

    predicate: Callable[[Type], bool] = field(compare=False)
    description: str = "any type"  # type: ignore[misc]

    def check(self, type_: Type) -> bool:
        return self.predicate(type_)


def scalar_or_container(scalar: Callable[[Type], bool]) -> Callable[[Type], bool]:
    """`scalar`, or a tensor/vector/memref of such elements (MLIR's `...Like`)."""

    def check(type_: Type) -> bool:
        if scalar(type_):
            return True
        if isinstance(type_, (RankedTensorType, UnrankedTensorType, VectorType, MemRefType,
                              UnrankedMemRefType)):
            return scalar(type_.element_type)
        return False

    return check


def _is_signless_int(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.signedness == "signless"


def _is_signless_int_or_index(t: Type) -> bool:
    return _is_signless_int(t) or isinstance(t, IndexType)


AnyFloat = TypeMatches(lambda t: isinstance(t, FloatType), "floating-point")
AnyInteger = TypeMatches(lambda t: isinstance(t, IntegerType), "integer")
AnySignlessInteger = TypeMatches(_is_signless_int, "signless integer")
Index = TypeMatches(lambda t: isinstance(t, IndexType), "index")
FloatLike = TypeMatches(scalar_or_container(lambda t: isinstance(t, FloatType)),
                        "floating-point-like")
SignlessIntegerLike = TypeMatches(scalar_or_container(_is_signless_int_or_index),
                                  "signless-integer-like")
I1 = TypeIs(IntegerType(1), "1-bit signless integer")
SignlessFixedWidthIntegerLike = TypeMatches(scalar_or_container(_is_signless_int),
                                            "signless-fixed-width-integer-like")
BoolLike = TypeMatches(scalar_or_container(lambda t: t == IntegerType(1)), "bool-like")
IntegerOrIndex = TypeMatches(_is_signless_int_or_index, "signless integer or index")
AnyTensor = TypeMatches(lambda t: isinstance(t, (RankedTensorType, UnrankedTensorType)),
                        "tensor")
AnyRankedTensor = TypeMatches(lambda t: isinstance(t, RankedTensorType), "ranked tensor")
AnyMemRef = TypeMatches(lambda t: isinstance(t, (MemRefType, UnrankedMemRefType)), "memref")


# ------------------------------------------------------------------ attributes


class AttrConstraint:
    """A predicate on attributes with a description, and the spelling a format element
    `$attr` uses for the attribute in custom assembly (by default MLIR's attribute
    syntax, with its type)."""

    description = "any attribute"
    spelling: Spelling = spelling.ATTRIBUTE

    @property
    def summary(self) -> str:
        """What the op reference says of the constraint (by default its description)."""
        return self.description

    def check(self, attr: Attribute) -> bool:
        return True

    def __str__(self) -> str:
        return self.description


AnyAttr = AttrConstraint()


@dataclass(frozen=True)
class AttrOfClass(AttrConstraint):
    """An attribute of one of the given classes."""

    classes: tuple[type, ...]
    description: str = "attribute"  # type: ignore[misc]
    spelling: Spelling = spelling.ATTRIBUTE  # type: ignore[misc]

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, self.classes)


StrAttr = AttrOfClass((StringAttr,), "string attribute", spelling.STRING_ATTR)
SymbolNameAttr = AttrOfClass((StringAttr,), "symbol name (string attribute)", spelling.SYMBOL_NAME)
FlatSymbolRefAttr = AttrOfClass((SymbolRefAttr,), "flat symbol reference", spelling.SYMBOL_REF)
UnitAttrConstraint = AttrOfClass((UnitAttr,), "unit attribute", spelling.UNIT)
ArrayAttrConstraint = AttrOfClass((ArrayAttr,), "array attribute")
DictAttrConstraint = AttrOfClass((DictionaryAttr,), "dictionary attribute")
DenseArrayConstraint = AttrOfClass((DenseArrayAttr,), "dense array attribute")
ElementsAttrConstraint = AttrOfClass((DenseElementsAttr, DenseResourceElementsAttr),
                                     "elements attribute")
class _IntElements(AttrConstraint):
    description = "integer elements attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, DenseElementsAttr) and \
            isinstance(attr.type.element_type, IntegerType)


AnyIntElementsAttr = _IntElements()
# MLIR's TypedAttrInterface: the attributes that carry a type (a string's may be none).
TypedAttr = AttrOfClass((IntegerAttr, FloatAttr, DenseElementsAttr, DenseResourceElementsAttr,
                         StringAttr), "TypedAttr instance")


@dataclass(frozen=True)
class TypeAttrOf(AttrConstraint):
    """A type attribute whose type satisfies `type_constraint`; written as the type."""

    type_class: type = Type
    description: str = "type attribute"  # type: ignore[misc]
    spelling: Spelling = spelling.TYPE_ATTR  # type: ignore[misc]

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, TypeAttr) and isinstance(attr.value, self.type_class)


FunctionTypeAttr = TypeAttrOf(FunctionType, "function type attribute")


@dataclass(frozen=True)
class IntAttrOf(AttrConstraint):
    """An integer attribute of one fixed type (`I64Attr`); written as a bare literal."""

    type: Type = i64

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return spelling.IntegerSpelling(self.type)

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"{self.type} integer attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, IntegerAttr) and attr.type == self.type


@dataclass(frozen=True)
class DenseArrayOf(AttrConstraint):
    """A dense array of one element type (`DenseI32ArrayAttr`); written `[1, 2]`."""

    element_type: Type = i32

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return spelling.DenseArraySpelling(self.element_type)

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"{self.element_type} dense array attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, DenseArrayAttr) and attr.element_type == self.element_type


@dataclass(frozen=True)
class StringKeyword(AttrConstraint):
    """A string attribute spelled as one of a few bare keywords (`private`)."""

    keywords: tuple[str, ...]

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return spelling.KeywordSpelling(self.keywords)

    @property
    def description(self) -> str:  # type: ignore[override]
        return "string attribute, one of " + ", ".join(repr(k) for k in self.keywords)

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, StringAttr) and attr.value in self.keywords


@dataclass(frozen=True)
class IntEnum(AttrConstraint):
    """An integer-valued enum (MLIR's `I64EnumAttr`): stored as `N : i64`, spelled as a
    keyword in custom assembly. Diagnostics describe it by `title`, else as MLIR
    describes an enum without a summary (its cases by number)."""

    name: str
    cases: tuple[str, ...]
    type: Type = i64
    title: str = ""

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return spelling.EnumSpelling(self.name, self.cases, self.type)

    @property
    def description(self) -> str:  # type: ignore[override]
        if self.title:
            return self.title
        numbers = ", ".join(str(i) for i in range(len(self.cases)))
        return f"allowed {self.type.width}-bit signless integer cases: {numbers}"

    @property
    def summary(self) -> str:
        return f"{self.name}: one of " + ", ".join(self.cases)

    def check(self, attr: Attribute) -> bool:
        return (isinstance(attr, IntegerAttr) and attr.type == self.type
                and 0 <= attr.value < len(self.cases))

    def attr(self, keyword: str) -> IntegerAttr:
        return IntegerAttr(self.cases.index(keyword), self.type)

    def keyword(self, attr: IntegerAttr) -> str:
        return self.cases[attr.value]


@dataclass(frozen=True)
class DialectAttrOf(AttrConstraint):
    """An attribute of one dialect attribute class; stripped in custom assembly."""

    attr_class: type[DialectAttribute]

    @property
    def spelling(self) -> Spelling:  # type: ignore[override]
        return spelling.BodySpelling(self.attr_class)

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"#{self.attr_class.name} attribute"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, self.attr_class)


@dataclass(frozen=True)
class ArrayOf(AttrConstraint):
    """An array attribute whose elements satisfy `element`."""

    element: AttrConstraint

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"array of {self.element.description}"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, ArrayAttr) and all(self.element.check(a) for a in attr.elements)


def as_type_constraint(value) -> TypeConstraint:
    """Accept a constraint, a type (exactly that type) or a type class."""
    if isinstance(value, TypeConstraint):
        return value
    if isinstance(value, Type):
        return TypeIs(value)
    if isinstance(value, type) and issubclass(value, Type):
        return TypeMatches(lambda t, cls=value: isinstance(t, cls), value.__name__)
    raise TypeError(f"not a type constraint: {value!r}")


def as_attr_constraint(value) -> AttrConstraint:
    """Accept a constraint or an attribute class."""
    if isinstance(value, AttrConstraint):
        return value
    if isinstance(value, type) and issubclass(value, DialectAttribute):
        return DialectAttrOf(value)
    if isinstance(value, type) and issubclass(value, Attribute):
        return AttrOfClass((value,), value.__name__)
    raise TypeError(f"not an attribute constraint: {value!r}")
