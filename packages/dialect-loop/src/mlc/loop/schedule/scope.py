"""The block-scope analysis every schedule primitive and rule shares: where a block
sits (the loops around it, the subtree it owns, the scope it is a sibling in), how its
iteration variables are bound, and which part of a buffer it touches while some
loops stay fixed (the region TVM's compute_at and cache primitives derive).

Regions are boxes: per buffer axis a start (an affine expression of the fixed loops'
variables) and an extent, computed from accesses that are sums of constant multiples
of loop variables plus a constant.
"""

from __future__ import annotations

from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.dialects.func import FuncOp
from mlc.loop.ops import BlockOp, ForOp
from mlc.loop.schedule.errors import RegionError

__all__ = [
    "loops_around", "only_child", "blocks_in", "positions_bound_to", "variables_of",
    "loop_of", "exclusive_subtree", "scope_block", "top_under", "position_in_block",
    "plain_variable", "enclosing_block", "enclosing_function", "region_over",
    "linear_terms", "union_of_regions",
]


def loops_around(op: Operation) -> list[ForOp]:
    """The loops around `op` (a block, a loop) inside its function, outermost first."""
    loops = []
    parent = op.parent_op
    while parent is not None and not isinstance(parent, FuncOp):
        if isinstance(parent, ForOp):
            loops.append(parent)
        parent = parent.parent_op
    return loops[::-1]


def enclosing_function(op: Operation) -> Operation | None:
    """The `func.func` holding `op`."""
    parent = op.parent_op
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op
    return parent


def only_child(loop_op: ForOp) -> Operation | None:
    """The one op in the loop's body, or None when it holds several (or none)."""
    block = loop_op.body_block
    return block.first_op if block.first_op is not None and \
        block.first_op is block.last_op else None


def blocks_in(op: Operation) -> list[BlockOp]:
    """Every block nested in `op`, in program order."""
    return [b for b in op.walk() if isinstance(b, BlockOp)]


def positions_bound_to(block: BlockOp, variable: Value) -> list[int]:
    """The iteration variables of `block` whose binding uses loop variable `variable`."""
    binding_map = block.binding_map.value
    dims = [n for n, v in enumerate(block.bindings) if v is variable]
    return [p for p, e in enumerate(binding_map.results)
            if any(e.is_function_of_dim(d) for d in dims)]


def variables_of(block: BlockOp, position: int) -> list[Value]:
    """The binding operands iteration variable `position` of `block` depends on."""
    expr = block.binding_map.value.results[position]
    return [v for d, v in enumerate(block.bindings) if expr.is_function_of_dim(d)]


def loop_of(value: Value) -> ForOp | None:
    """The loop whose variable `value` is, or None."""
    owner = getattr(value, "owner", None)
    parent = owner.parent_op if isinstance(owner, Block) else None
    return parent if isinstance(parent, ForOp) else None


def exclusive_subtree(block: BlockOp) -> Operation:
    """The outermost op around `block` (itself, or a loop) that holds nothing else."""
    top: Operation = block
    while True:
        parent = top.parent_op
        if isinstance(parent, ForOp) and only_child(parent) is top:
            top = parent
        else:
            return top


def scope_block(loop_op: ForOp, subtree: Operation) -> Block | None:
    """The block holding both the outermost loop around `loop_op` that is a sibling of
    `subtree`, if any."""
    op: Operation | None = loop_op
    while op is not None:
        if op.parent is subtree.parent:
            return op.parent
        op = op.parent_op
    return None


def top_under(loop_op: ForOp, block: Block) -> Operation:
    """The op of `block` that holds `loop_op` (itself, or an enclosing loop)."""
    op: Operation = loop_op
    while op.parent is not block:
        op = op.parent_op
    return op


def position_in_block(op: Operation) -> int:
    """How many ops come before `op` in its block."""
    n, current = 0, op.prev_op
    while current is not None:
        n, current = n + 1, current.prev_op
    return n


def plain_variable(expr: AffineExpr | None) -> int | None:
    """The dimension `expr` is when it is a plain dimension, else None."""
    if expr is not None and expr.kind.name == "DIM":
        return expr.position
    return None


def enclosing_block(op: Operation) -> BlockOp | None:
    """The innermost `loop.block` around `op`, or None."""
    parent = op.parent_op
    while parent is not None and not isinstance(parent, BlockOp):
        parent = parent.parent_op
    return parent


def region_over(block: BlockOp, access, outer_vars: list[Value]
                ) -> list[tuple[AffineExpr, int]] | None:
    """The part of `access`'s buffer that `block` touches while the loops of
    `outer_vars` stay fixed, per axis (start as an affine expression of `outer_vars`, extent), or
    None where an index is not a sum of multiples of loop variables."""
    binding_map = block.binding_map.value
    loops = [loop_of(v) for v in block.bindings]
    region = []
    for index in access.indices:
        if index is None:
            return None
        composed = index.replace_dims_and_symbols(list(binding_map.results), [])
        terms = linear_terms(composed)
        if terms is None:
            return None
        coefficients, offset = terms
        start = constant(offset)
        low = high = 0
        for d, c in coefficients.items():
            variable = block.bindings[d]
            if variable in outer_vars:
                start = start + dim(outer_vars.index(variable)) * c
            else:
                extent = loops[d].extent.value if loops[d] is not None else None
                if extent is None:
                    return None
                low += min(0, c * (extent - 1))
                high += max(0, c * (extent - 1))
        region.append((start + low, high - low + 1))
    return region


def linear_terms(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`expr` as {dimension: coefficient} plus a constant, when it is such a sum."""
    kind = expr.kind.name
    if kind == "DIM":
        return {expr.position: 1}, 0
    if kind == "CONSTANT":
        return {}, expr.value
    if kind == "ADD":
        left, right = linear_terms(expr.lhs), linear_terms(expr.rhs)
        if left is None or right is None:
            return None
        merged = dict(left[0])
        for d, c in right[0].items():
            merged[d] = merged.get(d, 0) + c
        return {d: c for d, c in merged.items() if c}, left[1] + right[1]
    if kind == "MUL":
        for factor, other in ((expr.rhs, expr.lhs), (expr.lhs, expr.rhs)):
            if factor.kind.name == "CONSTANT":
                inner = linear_terms(other)
                if inner is None:
                    return None
                return {d: c * factor.value for d, c in inner[0].items()}, \
                    inner[1] * factor.value
    return None


def union_of_regions(a: tuple[AffineExpr, int], b: tuple[AffineExpr, int], block: BlockOp
                     ) -> tuple[AffineExpr, int]:
    """The smallest range holding two ranges of one axis whose starts differ by a
    constant (RegionError otherwise: the union is not a box)."""
    difference = b[0] - a[0]
    if difference.kind.name != "CONSTANT":
        raise RegionError("the blocks under the loop access regions of the buffer whose "
                          "union is not a box", block)
    shift = difference.value
    start = a[0] if shift >= 0 else b[0]
    end = max(shift + b[1], a[1]) if shift >= 0 else max(-shift + a[1], b[1])
    return start, end


