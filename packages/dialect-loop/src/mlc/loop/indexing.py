"""Buffer accesses seen from the loops: what lowering and vectorisation compute
indices from (TVM's "opaque" blocks, whose accesses use the loop variables directly).

A `loop.load`/`loop.store` indexes its buffer by an affine map of the block's
iteration variables (and of data-dependent values); each iteration variable is an
affine function of the loop variables (the block's bindings). Composed, an index is
an affine expression of the loop variables, which the loops' extents let
:func:`~mlc.ir.core.affine_bounds.simplify_in_ranges` simplify: the `mod` and
`floordiv` a split loop or a compacted buffer leaves (`(i_0 * 4 + i_1) mod 4`) go.
"""

from __future__ import annotations

from mlc.ir.core.affine_bounds import simplify_in_ranges
from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.affine_map import AffineMap
from mlc.ir.core.attributes import IntegerAttr
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.dialects import arith, scf
from mlc.loop.ops import BlockOp, ForOp

__all__ = ["value_range", "access_over_bindings"]


def _constant_int(value: Value) -> int | None:
    op = value.defining_op
    if isinstance(op, arith.ConstantOp):
        attr = op.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value
    return None


def value_range(value: Value) -> tuple[int, int] | None:
    """The inclusive range of an index value: a constant's, a `loop.for` variable's, or
    that of an `scf.for` / `scf.parallel` variable with constant bounds and step 1
    (what loop lowering made of a loop); None for any other value."""
    known = _constant_int(value)
    if known is not None:
        return (known, known)
    owner = getattr(value, "owner", None)
    if not isinstance(owner, Block):
        return None
    parent = owner.parent_op
    if isinstance(parent, ForOp):
        return (0, parent.extent.value - 1)
    if isinstance(parent, (scf.ForOp, scf.ParallelOp)):
        count = len(owner.args) if isinstance(parent, scf.ParallelOp) else 1
        position = owner.args.index(value)
        if position >= count:
            return None
        operands = list(parent.operands)
        lower, upper, step = (operands[position], operands[count + position],
                              operands[2 * count + position])
        lo, hi, one = _constant_int(lower), _constant_int(upper), _constant_int(step)
        if lo is None or hi is None or one != 1 or hi <= lo:
            return None
        return (lo, hi - 1)
    return None


def access_over_bindings(access: Operation, block: BlockOp, bindings: list[Value] | None = None
                         ) -> tuple[AffineMap, list[Value]]:
    """`access`'s index map over `block`'s binding operands (`bindings`, default the
    block's own) followed by the access's other index operands (data-dependent
    values), simplified with the ranges of the loops the operands are variables of."""
    bindings = list(block.bindings) if bindings is None else bindings
    binding_map = block.binding_map.value
    variables = {v: n for n, v in enumerate(block.iteration_variables)}
    extra: list[Value] = []
    replacements: list[AffineExpr] = []
    for value in access.indices:
        position = variables.get(value)
        if position is not None:
            replacements.append(binding_map.results[position])
        else:
            if value not in extra:
                extra.append(value)
            replacements.append(dim(len(bindings) + extra.index(value)))
    operands = [*bindings, *extra]
    ranges = {}
    # A constant operand (an unrolled loop's iteration) goes into the expressions, so
    # the copies of an unrolled body differ by constant terms only.
    constants = [dim(d) for d in range(len(operands))]
    for d, value in enumerate(operands):
        known = value_range(value)
        if known is not None:
            ranges[dim(d)] = known
            if known[0] == known[1]:
                constants[d] = constant(known[0])
    results = tuple(simplify_in_ranges(e.replace_dims(replacements).replace_dims(constants),
                                       ranges) for e in access.index_map.results)
    return AffineMap(len(operands), 0, results), operands
