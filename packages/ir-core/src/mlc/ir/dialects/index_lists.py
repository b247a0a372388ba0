"""Mixed static/dynamic index lists (MLIR's `DynamicIndexList`): `[%i, 4, %j]`, an
operand group for the `%` entries and a dense i64 array for every entry, where a
dynamic entry holds :data:`DYNAMIC_INDEX` (MLIR's `ShapedType::kDynamic`).

`memref.subview`, `memref.expand_shape`, `memref.reinterpret_cast` and the ops that
take offsets, sizes and strides share these helpers.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import DenseArrayAttr, i64
from mlc.ir.core.ir import Value
from mlc.ir.opdef.directive import Directive

DYNAMIC_INDEX = -(1 << 63)
"""The static entry of a dynamic index (MLIR's `ShapedType::kDynamic`, INT64_MIN)."""


def static_array(values: Sequence[int]) -> DenseArrayAttr:
    """A DenseI64ArrayAttr of `values`."""
    return DenseArrayAttr(i64, tuple(int(v) for v in values))


def mixed_values(static: DenseArrayAttr, dynamic: Sequence[Value]) -> list[int | Value]:
    """Each entry of a mixed list: its int, or the SSA value of a dynamic entry."""
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static.values]


def static_or_none(static: DenseArrayAttr) -> list[int | None]:
    """Each entry's int, None for a dynamic one."""
    return [None if v == DYNAMIC_INDEX else v for v in static.values]


class DynamicIndexList(Directive):
    """`[%a, 4, %b]`: the operands of the `%` entries and the static array."""

    name = "DynamicIndexList"

    def parse(self, p):
        return parse_index_list(p)

    def print(self, w, op, dynamic, static) -> None:
        print_index_list(w, dynamic, static)


def parse_index_list(p, brackets: str = "[]") -> tuple[list, object]:
    """`[%a, 4, %b]` (or between other `brackets`): the operands of the `%` entries and
    the static array, dynamic entries marked DYNAMIC_INDEX."""
    p.parse_punctuation(brackets[0])
    operands = []
    values: list[int] = []
    if not p.parse_optional_punctuation(brackets[1]):
        while True:
            operand = p.parse_optional_operand()
            if operand is not None:
                operands.append(operand)
                values.append(DYNAMIC_INDEX)
            else:
                values.append(p.parse_integer())
            if not p.parse_optional_comma():
                break
        p.parse_punctuation(brackets[1])
    return operands, static_array(values)


def print_index_list(w, dynamic, static, brackets: str = "[]") -> None:
    """Write what parse_index_list reads."""
    w.write(brackets[0])
    values = iter(dynamic)
    for i, value in enumerate(static.values):
        if i:
            w.write(", ")
        if value == DYNAMIC_INDEX:
            w.value(next(values))
        else:
            w.write(str(value))
    w.write(brackets[1])
