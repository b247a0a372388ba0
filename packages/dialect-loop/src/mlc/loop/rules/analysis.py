"""What the schedule rules see of a block: its iteration variables, the buffers its
body reads and writes and how each iteration variable moves through them, whether it
is a reduction and of what, and the blocks that consume its result.

    info = analyze_block(block)
    info.contiguous(info.output, v)    # v walks the output's last axis with stride 1
    info.uses(access, v)               # the access's indices depend on v
    info.reduction                     # "sum" / "max" / ... or None
    info.product                       # the two factors of a sum of products, or None

The analysis is read-only. It sees a block as te builds it and as the rules find it
before scheduling: one loop per iteration variable, bound by the identity map
(`fresh_nest` says whether that still holds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlc.ir.core.affine_bounds import simplify_in_ranges
from mlc.ir.core.affine_expr import AffineExpr, dim
from mlc.ir.core.attributes import FloatType, IntegerType
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects import arith
from mlc.ir.dialects.arith import casts
from mlc.loop.ops import AllocBufferOp, BlockOp, ForOp, InitOp, LoadOp, StoreOp
from mlc.loop.schedule.scope import linear_terms, loops_around

__all__ = ["Access", "BlockInfo", "analyze_block", "consumers_of", "element_bits"]

_COMBINERS = {arith.AddFOp: "sum", arith.AddIOp: "sum", arith.MulFOp: "prod",
              arith.MulIOp: "prod", arith.MaximumFOp: "max", arith.MaxSIOp: "max",
              arith.MaxNumFOp: "max", arith.MinimumFOp: "min", arith.MinSIOp: "min",
              arith.MinNumFOp: "min"}
_CASTS = (casts.ExtFOp, casts.TruncFOp, casts.SIToFPOp, casts.UIToFPOp,
          casts.ExtSIOp, casts.ExtUIOp, casts.TruncIOp, casts.FPToSIOp)


@dataclass(frozen=True)
class Access:
    """A load or store of the block: the op, its buffer, and its indices as affine
    expressions of the block's iteration variables (None: data-dependent)."""

    op: Operation
    buffer: Value
    indices: tuple[AffineExpr | None, ...]
    padded: bool = False

    @property
    def is_affine(self) -> bool:
        return all(index is not None for index in self.indices)


@dataclass
class BlockInfo:
    """The facts of one block (see the module docstring)."""

    block: BlockOp
    loops: list[ForOp]
    output: Access
    reads: list[Access] = field(default_factory=list)
    reduction: str | None = None
    product: tuple[Access, Access] | None = None

    @property
    def name(self) -> str:
        return self.block.block_name_str

    @property
    def kinds(self) -> str:
        return self.block.kinds

    @property
    def extents(self) -> tuple[int, ...]:
        return self.block.extents

    @property
    def spatial(self) -> list[int]:
        return [v for v, kind in enumerate(self.kinds) if kind == "S"]

    @property
    def reduce(self) -> list[int]:
        return [v for v, kind in enumerate(self.kinds) if kind == "R"]

    @property
    def fresh_nest(self) -> bool:
        """One loop per iteration variable, outermost first, each bound to its
        variable alone: the nest te built, not yet scheduled."""
        block = self.block
        if len(self.loops) != len(self.kinds) or len(block.bindings) != len(self.loops):
            return False
        if any(v is not lp.induction_variable for v, lp in zip(block.bindings, self.loops)):
            return False
        results = block.binding_map.value.results
        return all(e == dim(n) for n, e in enumerate(results)) and \
            all(lp.loop_kind == "serial" and lp.extent.value == extent
                for lp, extent in zip(self.loops, self.extents))

    @staticmethod
    def uses(access: Access, variable: int) -> bool:
        """Whether the access's indices depend on iteration variable `variable`."""
        return any(index is None or index.is_function_of_dim(variable)
                   for index in access.indices)

    def contiguous(self, access: Access, variable: int, lanes: int = 1) -> bool:
        """Whether `variable` moves the access along its buffer's last axis with
        stride 1 and through no other axis (consecutive values: one vector load). With
        `lanes`, within each aligned group of `lanes` values of the variable (after
        `split(variable, [None, lanes])`): a packed layout indexed `[v floordiv 16, ...,
        v mod 16]` is contiguous in lanes of 16."""
        if not access.is_affine or not access.indices:
            return False
        indices = access.indices
        if lanes > 1:
            extent = self.extents[variable]
            if extent % lanes:
                return False
            lane = len(self.extents)  # a new dimension: the position within the group
            ranges = {dim(v): (0, e - 1) for v, e in enumerate(self.extents)}
            ranges[dim(variable)] = (0, extent // lanes - 1)
            ranges[dim(lane)] = (0, lanes - 1)
            split = [dim(v) for v in range(len(self.extents))] + [dim(lane)]
            split[variable] = dim(variable) * lanes + dim(lane)
            indices = tuple(simplify_in_ranges(index.replace_dims(split), ranges)
                            for index in indices)
            variable = lane
        *leading, last = indices
        if any(index.is_function_of_dim(variable) for index in leading):
            return False
        terms = linear_terms(last)
        return terms is not None and terms[0].get(variable) == 1

    def used_as_value(self, variable: int) -> bool:
        """Whether the body computes with iteration variable `variable` itself (not
        only indexes buffers by it): its lanes would need a vector of indices."""
        value = self.block.iteration_variables[variable]
        return any(not isinstance(use.owner, (LoadOp, StoreOp)) for use in value.uses)

    def lanes_in_bounds(self, access: Access, variable: int) -> bool:
        """Whether a padded access's last index stays within its buffer's last axis
        over the whole domain (so its padding never depends on `variable`'s lane)."""
        if not access.is_affine or not access.indices:
            return False
        ranges = {dim(v): (0, extent - 1) for v, extent in enumerate(self.extents)}
        low, high = access.indices[-1].bound(ranges)
        size = access.buffer.type.shape[-1]
        return low is not None and high is not None and 0 <= low and high < size

    def element_type(self):
        return self.output.buffer.type.element_type


def element_bits(type_) -> int:
    """The width of an element type in bits (index: 64)."""
    return getattr(type_, "width", 64)


def _access(op: Operation, block: BlockOp) -> Access:
    return Access(op, op.memref, op.index_exprs_over(block),
                  isinstance(op, LoadOp) and op.attributes.get("padding") is not None)


def _through_casts(value: Value) -> Operation | None:
    op = value.defining_op
    while isinstance(op, _CASTS):
        op = op.operands[0].defining_op
    return op


def analyze_block(block: BlockOp) -> BlockInfo | None:
    """The facts of `block`, or None for a block the rules do not schedule (several
    stores, a store inside nested regions)."""
    stores = [op for op in block.walk_nested() if isinstance(op, StoreOp)
              and not isinstance(op.parent_op, InitOp)]
    if len(stores) != 1 or stores[0].parent is not block.body_block:
        return None
    store = stores[0]
    output = _access(store, block)
    init = block.init
    reads = [_access(op, block) for op in block.walk_nested() if isinstance(op, LoadOp)
             and (init is None or not init.is_ancestor_of(op))]
    info = BlockInfo(block, loops_around(block), output)
    if init is None:
        info.reads = reads
        return info
    # A reduction: the stored value combines the output's old value with a step.
    combine = store.value.defining_op
    kind = _COMBINERS.get(type(combine)) if combine is not None else None
    if kind is None or len(combine.operands) != 2:
        return None
    own = [r for r in reads if r.buffer is output.buffer and r.indices == output.indices]
    info.reads = [r for r in reads if r not in own]
    info.reduction = kind
    if kind == "sum":
        for operand in combine.operands:
            product = _through_casts(operand)
            if isinstance(product, (arith.MulFOp, arith.MulIOp)):
                factors = [_through_casts(v) for v in product.operands]
                if all(isinstance(f, LoadOp) for f in factors):
                    by_op = {r.op: r for r in info.reads}
                    if all(f in by_op for f in factors):
                        info.product = (by_op[factors[0]], by_op[factors[1]])
    return info


def consumers_of(info: BlockInfo, blocks: list[BlockOp]) -> list[BlockOp]:
    """The blocks among `blocks` (other than `info`'s) that read the buffer it writes."""
    buffer = info.output.buffer
    return [b for b in blocks if b is not info.block and any(
        isinstance(op, LoadOp) and op.memref is buffer for op in b.walk_nested())]


def is_allocated(value: Value) -> bool:
    """Whether a buffer is the kernel's own (`loop.alloc_buffer`), not an argument."""
    return isinstance(value.defining_op, AllocBufferOp)


def is_float(type_) -> bool:
    return isinstance(type_, FloatType)


def is_integer(type_) -> bool:
    return isinstance(type_, IntegerType)
