"""Op adaptors: an op's operands as a conversion pattern sees them, already converted.

A conversion pattern reads the operands of the op it rewrites through an adaptor,
which holds, for each original operand, the values that replace it (one value, or
several after a 1:N type conversion). Each declared op class has its adaptor class,
derived once from the declaration and cached, with one property per operand group:

    adaptor = adaptor_class(AddFOp)(op, groups)
    adaptor.lhs          # the converted `lhs`
    adaptor.fastmath     # attributes read as on the op

A single operand reads as its value (a list when a 1:N conversion replaced it by
several), an optional one as its value or None, a variadic group as the flat list of
its converted values.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import Attribute
from mlc.ir.core.ir import Operation, Value


class OpAdaptor:
    """The converted operands of `op`: `operand_groups` holds, for each original
    operand, the values that replace it; `operands` is them all in order."""

    __slots__ = ("_op", "operand_groups")

    def __init__(self, op: Operation, operand_groups: Sequence[Sequence[Value]]):
        if len(operand_groups) != len(op.op_operands):
            raise ValueError(f"an adaptor of '{op.name}' needs {len(op.op_operands)} operand "
                             f"groups, got {len(operand_groups)}")
        self._op = op
        self.operand_groups: list[list[Value]] = [list(g) for g in operand_groups]

    @property
    def operands(self) -> list[Value]:
        """Every converted value, in operand order (1:N conversions expanded)."""
        return [value for group in self.operand_groups for value in group]

    @property
    def attributes(self) -> dict[str, Attribute]:
        """The op's attributes (a conversion does not change them)."""
        return self._op.attributes

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._op.name}: {self.operand_groups}>"


class _OperandGroup:
    """The adaptor property of one declared operand group."""

    __slots__ = ("index", "variadic", "optional", "doc")

    def __init__(self, index: int, variadic: bool, optional: bool, doc: str):
        self.index = index
        self.variadic = variadic
        self.optional = optional
        self.doc = doc

    def __get__(self, adaptor: OpAdaptor | None, owner=None):
        if adaptor is None:
            return self
        op = adaptor._op
        start, size = op.op_def.operand_segment(op, self.index)
        groups = adaptor.operand_groups[start:start + size]
        if self.variadic:
            return [value for group in groups for value in group]
        if not groups:
            return None  # an absent optional operand
        group = groups[0]
        return group[0] if len(group) == 1 else list(group)


class _Attribute:
    """The adaptor property of one declared attribute: its value on the op, or its
    default."""

    __slots__ = ("name", "default", "doc")

    def __init__(self, name: str, default: Attribute | None, doc: str):
        self.name = name
        self.default = default
        self.doc = doc

    def __get__(self, adaptor: OpAdaptor | None, owner=None):
        if adaptor is None:
            return self
        return adaptor._op.attributes.get(self.name, self.default)


_ADAPTOR_CLASSES: dict[type, type[OpAdaptor]] = {}


def adaptor_class(op_class: type[Operation]) -> type[OpAdaptor]:
    """The adaptor class of a declared op class (created on first use, then cached);
    plain :class:`OpAdaptor` for an op class with no declaration."""
    cached = _ADAPTOR_CLASSES.get(op_class)
    if cached is not None:
        return cached
    op_def = getattr(op_class, "op_def", None)
    if op_def is None:
        return OpAdaptor
    namespace: dict[str, object] = {
        "__slots__": (),
        "__doc__": f"The converted operands of '{op_def.name}', by their declared names.",
        "__module__": op_class.__module__,
    }
    for definition in op_def.operands:
        namespace[definition.name] = _OperandGroup(
            definition.index, definition.variadic, definition.optional,
            definition.doc or f"the converted '{definition.name}' ({definition.describe()})")
    for name, definition in op_def.attributes.items():
        namespace[name] = _Attribute(name, definition.default, definition.doc)
    cls = type(f"{op_class.__name__}Adaptor", (OpAdaptor,), namespace)
    _ADAPTOR_CLASSES[op_class] = cls
    return cls


def make_adaptor(op: Operation, operand_groups: Sequence[Sequence[Value]]) -> OpAdaptor:
    """The adaptor of `op`'s class holding `operand_groups`."""
    return adaptor_class(type(op))(op, operand_groups)
