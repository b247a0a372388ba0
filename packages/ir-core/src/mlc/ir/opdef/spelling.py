"""How a value is spelled in custom assembly: one object that parses and prints it.

An op's attribute (`$callee` as `@f`, `$predicate` as `slt`, `$fastmath` as
`fastmath<fast>`) and a dialect type's or attribute's parameter (`!llvm.array<4 x f32>`:
an integer and a type) are written in custom forms through a spelling. A constraint
carries the spelling of the attributes it accepts, a parameter's Python annotation
chooses one, and the assembly-format compiler uses the spelling's `parse` and `print`
for every `$name` it meets, so a new spelling is one class here and nothing else.

`parse(p)` and `parse_optional(p)` read with the text layer's
:class:`~mlc.ir.text.asm_parser.AsmParser`; `print(w, value)` writes through anything
with `write`, `type` and `attr` (the op printer or an attribute writer).
"""

from __future__ import annotations

import enum
from typing import Any

from mlc.ir.core.attributes import (
    Attribute,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    escape_string,
    is_bare_identifier,
    unit,
)


class Spelling:
    """Parses and prints one kind of value; see the module docstring."""

    def parse(self, p) -> Any:
        value = self.parse_optional(p)
        if value is None:
            raise p.expected(self.expected)
        return value

    def parse_optional(self, p) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def parse_attribute(self, p, name: str) -> Any:
        """`parse`, for the op attribute `name` (whose errors may name it)."""
        return self.parse(p)

    def print(self, w, value: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    expected = "value"


class AttributeSpelling(Spelling):
    """Any attribute in MLIR's attribute syntax, type included (`5 : i32`)."""

    expected = "attribute value"

    def parse(self, p) -> Attribute:
        return p.parse_attribute()

    def parse_optional(self, p) -> Attribute | None:
        return p.parse_optional_attribute()

    def print(self, w, value: Attribute) -> None:
        w.attr(value)


class TypeSpelling(Spelling):
    """A type; as an op attribute, a `TypeAttr` written as its type (`$dtype`: `f16`)."""

    expected = "type"

    def __init__(self, as_attribute: bool = False):
        self.as_attribute = as_attribute

    def parse(self, p):
        type_ = p.parse_type()
        return TypeAttr(type_) if self.as_attribute else type_

    def parse_optional(self, p):
        type_ = p.parse_optional_type()
        if type_ is None:
            return None
        return TypeAttr(type_) if self.as_attribute else type_

    def print(self, w, value) -> None:
        w.type(value.value if self.as_attribute else value)


class SymbolNameSpelling(Spelling):
    """A symbol's own name, `@name`, stored as a string attribute."""

    expected = "valid '@'-identifier for symbol name"

    def parse_optional(self, p) -> StringAttr | None:
        name = p.parse_optional_symbol_name()
        return None if name is None else StringAttr(name)

    def print(self, w, value: StringAttr) -> None:
        name = value.value
        w.write("@" + name if is_bare_identifier(name) and name else f'@"{escape_string(name)}"')


class SymbolRefSpelling(Spelling):
    """A reference to a symbol, `@name` or `@outer::@inner`."""

    expected = "symbol reference"

    def parse_optional(self, p) -> SymbolRefAttr | None:
        root = p.parse_optional_symbol_name()
        if root is None:
            return None
        nested = []
        while p.parse_optional_punctuation("::"):
            nested.append(p.parse_symbol_name())
        return SymbolRefAttr(root, tuple(nested))

    def print(self, w, value: SymbolRefAttr) -> None:
        w.attr(value)


class StringSpelling(Spelling):
    """A quoted string (`"text"`): a `StringAttr`, or a `str` parameter."""

    expected = "string"

    def __init__(self, as_attribute: bool = True):
        self.as_attribute = as_attribute

    def parse_optional(self, p):
        value = p.parse_optional_string()
        if value is None:
            return None
        return StringAttr(value) if self.as_attribute else value

    def print(self, w, value) -> None:
        text = value.value if self.as_attribute else value
        w.write(f'"{escape_string(text)}"')


class IntegerSpelling(Spelling):
    """A bare integer literal: an `IntegerAttr` of one fixed type, or an `int` parameter."""

    expected = "integer value"

    def __init__(self, type_: Type | None = None):
        self.type = type_

    def parse_optional(self, p):
        pos = p.current_pos()
        value = p.parse_optional_integer()
        if value is None or self.type is None:
            return value
        width = 64 if not isinstance(self.type, IntegerType) else self.type.width
        if not -(1 << (width - 1)) <= value < (1 << width):
            raise p.error(f"integer value {value} does not fit in {self.type}", pos)
        return IntegerAttr(value, self.type)

    def print(self, w, value) -> None:
        w.write(str(value.value if self.type is not None else value))


class KeywordSpelling(Spelling):
    """One of a few bare keywords (`private`), stored as a string attribute."""

    def __init__(self, keywords: tuple[str, ...]):
        self.keywords = keywords
        self.expected = "one of " + ", ".join(f"'{k}'" for k in keywords)

    def parse_optional(self, p) -> StringAttr | None:
        word = p.parse_optional_keyword(self.keywords)
        return None if word is None else StringAttr(word)

    def print(self, w, value: StringAttr) -> None:
        w.write(value.value)


class EnumSpelling(Spelling):
    """A keyword naming one case of an enum: an `IntegerAttr` index into `cases` (MLIR's
    I64EnumAttr), or a member of a Python `enum.Enum` (keyword: its value if a string,
    else its name)."""

    def __init__(self, name: str, cases: tuple[str, ...], attr_type: Type | None = None,
                 enum_class: type[enum.Enum] | None = None):
        self.name = name
        self.cases = cases
        self.attr_type = attr_type
        self.enum_class = enum_class
        self.expected = f"{name} to be one of: {', '.join(cases)}"

    @classmethod
    def of_enum(cls, enum_class: type[enum.Enum]) -> EnumSpelling:
        return cls(enum_class.__name__, tuple(_member_keyword(m) for m in enum_class),
                   enum_class=enum_class)

    def parse(self, p):
        pos = p.current_pos()
        # A case may be a string too (`arith.cmpi "eq", ...`), as MLIR's enum parsers
        # take a keyword or a string.
        word = p.parse_optional_keyword()
        if word is None:
            word = p.parse_optional_string()
        if word is None:
            raise p.expected(self.expected)
        if word not in self.cases:
            raise p.error(f"expected {self.expected}", pos)
        return self._value(word)

    def parse_attribute(self, p, name: str):
        """An op's enum attribute: a case (a keyword or a string), else MLIR's error
        naming the attribute."""
        pos = p.current_pos()
        word = p.parse_optional_keyword()
        if word is None:
            word = p.parse_optional_string()
            if word is not None and word not in self.cases:
                raise p.error(f'invalid {name} attribute specification: "{word}"', pos)
        if word not in self.cases:
            raise p.error("expected string or keyword containing one of the following enum "
                          f"values for attribute '{name}' [{', '.join(self.cases)}]", pos)
        return self._value(word)

    def parse_optional(self, p):
        # Only a case is consumed: an optional enum may be followed by other keywords
        # (`arith.truncf %x fastmath<fast>`, no rounding mode).
        word = p.parse_optional_keyword(self.cases)
        return None if word is None else self._value(word)

    def _value(self, word: str):
        index = self.cases.index(word)
        if self.enum_class is not None:
            return list(self.enum_class)[index]
        return IntegerAttr(index, self.attr_type)

    def print(self, w, value) -> None:
        if self.enum_class is not None:
            w.write(_member_keyword(value))
        else:
            w.write(self.cases[value.value])


def _member_keyword(member: enum.Enum) -> str:
    return member.value if isinstance(member.value, str) else member.name.lower()


class BitEnumSpelling(Spelling):
    """A set of flags from a Python `enum.Flag`, written `a<sep>b` (MLIR's BitEnumAttr):
    `none` for the empty set, and `all_name` for every flag when given."""

    def __init__(self, flag_class: type[enum.Flag], separator: str = ",",
                 none: str = "none", all_name: str | None = None):
        self.flag_class = flag_class
        self.separator = separator
        self.none = none
        self.all_name = all_name
        self.members = {_member_keyword(m): m for m in flag_class}
        self.expected = f"one of {', '.join(self.members)}"

    def parse_optional(self, p):
        pos = p.current_pos()
        word = p.parse_optional_keyword()
        if word is None:
            return None
        value = self.flag_class(0)
        while True:
            if word == self.all_name:
                for member in self.members.values():
                    value |= member
            elif word in self.members:
                value |= self.members[word]
            elif word != self.none:
                names = [self.none, *self.members] + ([self.all_name] if self.all_name else [])
                raise p.error(f"expected {self.flag_class.__name__} to be one of: "
                              f"{', '.join(names)}", pos)
            if not p.parse_optional_punctuation(self.separator.strip()):
                return value
            pos = p.current_pos()
            word = p.parse_keyword()

    def print(self, w, value) -> None:
        members = [name for name, m in self.members.items() if m in value]
        if not members:
            w.write(self.none)
        elif self.all_name is not None and len(members) == len(self.members):
            w.write(self.all_name)
        else:
            w.write(self.separator.join(members))


class BoolSpelling(Spelling):
    """`true` or `false` (a `bool` parameter)."""

    expected = "'true' or 'false'"

    def parse_optional(self, p) -> bool | None:
        word = p.parse_optional_keyword(("true", "false"))
        return None if word is None else word == "true"

    def print(self, w, value: bool) -> None:
        w.write("true" if value else "false")


class UnitSpelling(Spelling):
    """A unit attribute: its presence is the value (only as an optional group's anchor)."""

    def parse_optional(self, p) -> UnitAttr:
        return unit

    def print(self, w, value: UnitAttr) -> None:
        pass


class BodySpelling(Spelling):
    """A dialect attribute written without its `#dialect.name` prefix
    (`fastmath<fast>` in an op's custom form): the attribute class's own body."""

    def __init__(self, attr_class: type):
        self.attr_class = attr_class
        self.expected = f"'{attr_class.name}' attribute body"

    def parse(self, p):
        return p.parse_dialect_body(self.attr_class)

    def parse_optional(self, p):
        return p.parse_dialect_body(self.attr_class)

    def print(self, w, value) -> None:
        w.dialect_body(value)


class ListSpelling(Spelling):
    """Zero or more values of one spelling separated by commas (a tuple parameter)."""

    def __init__(self, element: Spelling):
        self.element = element
        self.expected = element.expected

    def parse(self, p) -> tuple:
        return self.parse_optional(p)

    def parse_optional(self, p) -> tuple:
        first = self.element.parse_optional(p)
        if first is None:
            return ()
        values = [first]
        while p.parse_optional_punctuation(","):
            values.append(self.element.parse(p))
        return tuple(values)

    def print(self, w, value) -> None:
        for i, item in enumerate(value):
            if i:
                w.write(", ")
            self.element.print(w, item)


class DenseArraySpelling(Spelling):
    """A dense array attribute of one integer element type written as a bracketed
    list, `[1, 2]` (ODS's `DenseI32ArrayAttr` in a custom form)."""

    def __init__(self, element_type: Type):
        self.element_type = element_type
        self.expected = "'['"

    def parse_optional(self, p):
        from mlc.ir.core.attributes import DenseArrayAttr

        if not p.parse_optional_punctuation("["):
            return None
        values = []
        if not p.parse_optional_punctuation("]"):
            values.append(p.parse_integer())
            while p.parse_optional_punctuation(","):
                values.append(p.parse_integer())
            p.parse_punctuation("]")
        return DenseArrayAttr(self.element_type, tuple(values))

    def print(self, w, value) -> None:
        w.write("[" + ", ".join(str(v) for v in value.values) + "]")


class OptionalSpelling(Spelling):
    """A value that may be absent (an optional parameter)."""

    def __init__(self, element: Spelling):
        self.element = element
        self.expected = element.expected

    def parse(self, p):
        return self.element.parse_optional(p)

    def parse_optional(self, p):
        return self.element.parse_optional(p)

    def print(self, w, value) -> None:
        if value is not None:
            self.element.print(w, value)


ATTRIBUTE = AttributeSpelling()
TYPE = TypeSpelling()
TYPE_ATTR = TypeSpelling(as_attribute=True)
SYMBOL_NAME = SymbolNameSpelling()
SYMBOL_REF = SymbolRefSpelling()
STRING_ATTR = StringSpelling()
STRING = StringSpelling(as_attribute=False)
INTEGER = IntegerSpelling()
BOOL = BoolSpelling()
UNIT = UnitSpelling()


def spelling_of_annotation(annotation: Any) -> Spelling:
    """The spelling of a dialect type's or attribute's parameter, from its Python
    annotation: `Type` (or a type class), `Attribute`, `int`, `str`, an `enum.Enum` or
    `enum.Flag`, `tuple[K, ...]`, `K | None`; `Annotated[K, spelling]` chooses one."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        base, *extra = typing.get_args(annotation)
        for item in extra:
            if isinstance(item, Spelling):
                return item
        return spelling_of_annotation(base)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return OptionalSpelling(spelling_of_annotation(args[0]))
    if origin is tuple:
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return ListSpelling(spelling_of_annotation(args[0]))
    if isinstance(annotation, type):
        if issubclass(annotation, Type):
            return TYPE
        if issubclass(annotation, Attribute):
            return ATTRIBUTE
        if issubclass(annotation, bool):
            return BOOL
        if issubclass(annotation, int) and not issubclass(annotation, enum.Enum):
            return INTEGER
        if issubclass(annotation, str):
            return STRING
        if issubclass(annotation, enum.Flag):
            return BitEnumSpelling(annotation)
        if issubclass(annotation, enum.Enum):
            return EnumSpelling.of_enum(annotation)
    raise TypeError(f"no spelling for a parameter of type {annotation!r}")


__all__ = [name for name in dir() if not name.startswith("_") and name not in ("annotations",)]
