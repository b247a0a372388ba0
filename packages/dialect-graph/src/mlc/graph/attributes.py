"""The attribute kinds graph ops declare (`ints`, `integer`, `real`, `flag`,
`string`, `element_type`, `number`), with their Python spellings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mlc.ir import (
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    Type,
    TypeAttr,
    f32,
    f64,
    i1,
    i64,
)
from mlc.ir.opdef import AttrConstraint, AttrDef, Spelling, spelling

# ------------------------------------------------------------------ attribute kinds


@dataclass(frozen=True)
class GraphAttr(AttrConstraint):
    """An attribute kind of graph ops, with its Python spelling: `ints` (a dense i64
    array), `int`, `float`, `bool`, `str` (optionally one of `choices`), `type`, or
    `number` (an integer or float of any type: a value of a tensor element type)."""

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
            "type": "element type", "number": "integer or float",
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
        if kind == "number":
            return isinstance(attr, (IntegerAttr, FloatAttr))
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
        if kind == "int" or (kind == "number" and isinstance(value, int)):
            return IntegerAttr(int(value), i64)
        if kind == "number":
            return FloatAttr.from_value(float(value), f64)
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




def number(default: Any = None, doc: str = "") -> AttrDef:
    """An integer or float attribute of any type (`1 : i32`, `2.5 : f16`); from Python,
    an int is i64 and a float f64 unless an attribute is given."""
    return _attr("number", default, doc)
