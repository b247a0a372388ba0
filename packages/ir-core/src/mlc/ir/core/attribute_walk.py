"""The attributes and types nested inside an attribute or type, in print order.

MLIR walks these "sub-elements" to find what its printer names with aliases (an affine
map inside a memref layout, inside an array, inside a type attribute...). Builtin kinds
list their parts here (an integer or float attribute's scalar type is left out: it holds
nothing); a dialect's attribute or type (a dataclass) contributes its fields that are
attributes, types, or tuples of them, in field order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    ComplexType,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DialectAttribute,
    DialectType,
    DictionaryAttr,
    FloatAttr,
    FloatType,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneType,
    RankedTensorType,
    StringAttr,
    SymbolRefAttr,
    TupleType,
    TypeAttr,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _dialect_fields(value) -> tuple:
    names = _FIELD_NAMES.get(value.__class__)
    if names is None:
        names = _FIELD_NAMES[value.__class__] = tuple(
            f.name for f in dataclasses.fields(value)) if dataclasses.is_dataclass(value) else ()
    parts = []
    for name in names:
        item = getattr(value, name)
        if isinstance(item, Attribute):
            parts.append(item)
        elif isinstance(item, (tuple, list)):
            parts.extend(x for x in item if isinstance(x, Attribute))
    return tuple(parts)


_PARTS = {
    ArrayAttr: lambda a: a.elements,
    DictionaryAttr: lambda a: tuple(v for _, v in a.entries),
    TypeAttr: lambda a: (a.value,),
    DenseElementsAttr: lambda a: (a.type,),
    DenseResourceElementsAttr: lambda a: (a.type,),
    FunctionType: lambda t: t.inputs + t.results,
    TupleType: lambda t: t.types,
    RankedTensorType: lambda t: (t.element_type,) if t.encoding is None else (t.element_type, t.encoding),
    UnrankedTensorType: lambda t: (t.element_type,),
    VectorType: lambda t: (t.element_type,),
    ComplexType: lambda t: (t.element_type,),
    MemRefType: lambda t: tuple(x for x in (t.element_type, t.layout, t.memory_space) if x is not None),
    UnrankedMemRefType: lambda t: (t.element_type,) if t.memory_space is None else (t.element_type, t.memory_space),
}


# Kinds that never hold another attribute or type: answered without a lookup.
SCALAR_KINDS = frozenset({IntegerType, FloatType, IndexType, NoneType, IntegerAttr, FloatAttr,
                      StringAttr, UnitAttr, SymbolRefAttr, DenseArrayAttr})


def sub_elements(value: Attribute) -> tuple[Attribute, ...]:
    """The attributes and types directly inside `value`, in the order they print."""
    parts = _PARTS.get(value.__class__)
    if parts is not None:
        return parts(value)
    if isinstance(value, (DialectAttribute, DialectType)):
        return _dialect_fields(value)
    return ()


def walk_attributes(value: Attribute, seen: set | None = None) -> Iterator[Attribute]:
    """`value` and everything nested in it, pre-order, in print order. With `seen`, a
    value already in the set is skipped with its contents (and new ones are added), so
    several walks sharing the set visit each distinct value once."""
    stack = [value]
    while stack:
        item = stack.pop()
        parts = sub_elements(item)
        if parts:  # only composite values are worth remembering
            if seen is not None:
                if item in seen:
                    continue
                seen.add(item)
            stack.extend(reversed(parts))
        yield item


def contains_kind(value: Attribute, kinds: tuple[type, ...], memo: dict[int, bool]) -> bool:
    """Whether `value` or anything nested in it is one of `kinds`. `memo` caches the
    answer for composite values by identity, so it is only valid while they are alive
    (one printing pass, say) and makes repeated questions about shared types cheap."""
    cls = value.__class__
    if cls in SCALAR_KINDS:
        return False
    key = id(value)
    answer = memo.get(key)
    if answer is None:
        parts = sub_elements(value)
        answer = memo[key] = (any(contains_kind(part, kinds, memo) for part in parts)
                              if parts else isinstance(value, kinds))
    return answer
