"""Integer range inference rules of ops (MLIR's InferIntRangeInterface).

A rule says what an op's integer results may hold, given what its operands may hold:

    @int_range_rule(AddIOp)
    def _add(op, lhs, rhs):
        return infer_add(lhs, rhs)

It receives the op and one :class:`~mlc.ir.analysis.int_range.IntRange` per operand,
and returns one range per result (a single range for a single result); None for a
result leaves it unknown. Rules are registered by op class, so a dialect's rules can
live in a module of their own (`dialects/arith/int_ranges.py`); a subclass inherits its base
class's rule. By default a rule runs only when every operand's range is known (the
others stay unknown, as in MLIR); `optional_operands=True` gives it None for unknown
operands instead (arith.select, which needs only the chosen one).

Ranges of values of shaped types (vectors, tensors) hold for every element.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.ir.analysis.int_range import IntRange, signed, storage_width, unsigned
from mlc.ir.core.attributes import DenseElementsAttr, IntegerAttr
from mlc.ir.core.ir import Operation, Value
from mlc.ir.opdef.traits import constant_value

RangeRule = Callable[..., "IntRange | None | Sequence[IntRange | None]"]

_RULES: dict[type, tuple[RangeRule, bool]] = {}


def int_range_rule(*op_classes: type, optional_operands: bool = False
                   ) -> Callable[[RangeRule], RangeRule]:
    """Register the decorated function as the range rule of `op_classes`."""

    def register(rule: RangeRule) -> RangeRule:
        for cls in op_classes:
            _RULES[cls] = (rule, optional_operands)
        return rule

    return register


def has_int_range_rule(op: Operation) -> bool:
    """Whether ranges of `op`'s results can be inferred from its operands' ranges."""
    return _lookup(type(op)) is not None


def infer_result_ranges(op: Operation, operand_ranges: Sequence[IntRange | None]
                        ) -> list[IntRange | None] | None:
    """The ranges of `op`'s results from its rule (None per unknown result), or None
    when the op has no rule."""
    found = _lookup(type(op))
    if found is None:
        return None
    rule, optional_operands = found
    if not optional_operands and any(r is None for r in operand_ranges):
        return [None] * len(op.results)
    ranges = rule(op, *operand_ranges)
    if ranges is None or isinstance(ranges, IntRange):
        ranges = [ranges]
    return list(ranges)


def _lookup(cls: type) -> tuple[RangeRule, bool] | None:
    for base in cls.__mro__:
        found = _RULES.get(base)
        if found is not None:
            return found
    return None


def local_range(value: Value) -> IntRange | None:
    """What `value`'s defining op alone says of it, knowing nothing of that op's
    operands (MLIR's `m_IntRange*` matchers): exact for an integer constant (of any
    dialect, or a splat), the op's rule applied to maximal operand ranges otherwise;
    None when nothing is known (a block argument, a non-integer)."""
    width = storage_width(value.type)
    op = value.defining_op
    if not width or op is None:
        return None
    attr = constant_value(value)
    if isinstance(attr, IntegerAttr):
        return IntRange.constant(attr.value, width)
    if isinstance(attr, DenseElementsAttr):
        splat = attr.splat_element()
        return IntRange.constant(int(splat), width) if splat is not None else None
    operand_ranges = [IntRange.max_range(storage_width(v.type)) if storage_width(v.type)
                      else None for v in op.operands]
    ranges = infer_result_ranges(op, operand_ranges)
    if not ranges:
        return None
    return ranges[op.results.index(value)] if value in op.results else None


def may_be_zero(range_: IntRange | None) -> bool:
    """Whether a value in `range_` (None: unknown) may be zero."""
    return range_ is None or (range_.umin == 0 and range_.smin <= 0 <= range_.smax)


def may_be_minus_one(range_: IntRange | None) -> bool:
    """Whether a value in `range_` (None: unknown) may be -1 (all bits set)."""
    if range_ is None:
        return True
    all_ones = unsigned(-1, range_.width)
    return range_.umax == all_ones and range_.smin <= signed(-1, range_.width) <= range_.smax
