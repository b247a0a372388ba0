"""Declaring dialect types and attributes: typed parameters and an assembly format.

    @test.type
    class StructType(DialectType):
        \"\"\"A struct of element types.\"\"\"

        name = "test.struct"
        fields: tuple[Type, ...]
        assembly_format = "`<` `(` $fields `)` `>`"

    @test.attribute
    class KindAttr(DialectAttribute):
        name = "test.kind"
        kind: Kind                      # an enum.Enum: written as one of its keywords
        assembly_format = "`<` $kind `>`"

The class becomes a frozen dataclass whose fields are its parameters; each parameter's
annotation chooses its spelling (type, attribute, int, str, enum, flag set, tuples and
optionals of those; see :func:`~mlc.ir.opdef.spelling.spelling_of_annotation`). The
format is compiled by the same machinery as op formats. A class may instead write
`parse(p)` (a classmethod) and `print(self, w)` itself.
"""

from __future__ import annotations

import dataclasses
import sys
import typing
from dataclasses import dataclass
from typing import Any

from mlc.ir.opdef.spelling import Spelling, spelling_of_annotation


@dataclass(frozen=True)
class ParamDef:
    """One parameter of a dialect type or attribute."""

    name: str
    spelling: Spelling
    default: Any = None
    doc: str = ""


def declare_parameters(cls: type, caller_locals: dict[str, Any] | None = None) -> type:
    """Make `cls` a frozen dataclass of its annotated parameters and record them."""
    if "__dataclass_fields__" not in vars(cls):
        cls = dataclass(frozen=True)(cls)
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except NameError:
        hints = typing.get_type_hints(cls, localns=caller_locals, include_extras=True)
    params = []
    for f in dataclasses.fields(cls):
        default = None if f.default is dataclasses.MISSING else f.default
        try:
            spelling = spelling_of_annotation(hints[f.name])
        except TypeError as exc:
            raise TypeError(f"'{cls.name}' parameter '{f.name}': {exc}") from None
        params.append(ParamDef(f.name, spelling, default))
    cls.parameters = tuple(params)
    return cls


def parameters_of(cls: type) -> tuple[ParamDef, ...]:
    """The declared parameters of a dialect type or attribute class."""
    params = vars(cls).get("parameters")
    if params is None:
        params = declare_parameters(cls).parameters
    return params


def caller_namespace(depth: int = 2) -> dict[str, Any]:
    """The local names where a decorator was applied (for annotations naming classes
    defined in a function body)."""
    frame = sys._getframe(depth)
    return {**frame.f_globals, **frame.f_locals}
