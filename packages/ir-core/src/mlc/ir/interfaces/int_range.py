"""Integer range inference rules of ops (MLIR's InferIntRangeInterface).

A rule says what an op's integer results may hold, given what its operands may hold:

    @int_range_rule(AddIOp)
    def _add(op, lhs, rhs):
        return infer_add(lhs, rhs)

It receives the op and one :class:`~mlc.ir.analysis.int_range.IntRange` per operand,
and returns one range per result (a single range for a single result); None for a
result leaves it unknown. Rules are registered by op class, so a dialect's rules can
live in a module of their own (`arith_int_ranges.py`); a subclass inherits its base
class's rule. By default a rule runs only when every operand's range is known (the
others stay unknown, as in MLIR); `optional_operands=True` gives it None for unknown
operands instead (arith.select, which needs only the chosen one).

Ranges of values of shaped types (vectors, tensors) hold for every element.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mlc.ir.analysis.int_range import IntRange
from mlc.ir.core.ir import Operation

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
