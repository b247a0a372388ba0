"""mem2reg: promote memory slots to SSA values (MLIR's mem2reg), on the slots a dialect
declares promotable: a `memref.alloca` of one element (rank 0, or sizes 1), and (mlc.llvm) an `llvm.alloca` of one
element.

A slot is promoted when it is allocated in the entry block of its region and every use
is a load of it or a store into it, of its element type, in a block of that region
(not nested deeper), and every branch of the region declares BranchLike (so that
values can be passed along its edges). Then, walking the blocks in reverse
post-order, each load is replaced by the value last stored (the slot's default value —
`ub.poison`, `llvm.mlir.undef` — before any store), the stores are erased, and a block
with several predecessors receives the value as a new argument, each branch into it
passing what it had; the arguments every branch passes the same value are then
dropped, as are the slot and its accesses (a load no path from the entry reaches reads
the default value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mlc.ir.analysis.dominance import reverse_postorder
from mlc.ir.core.attributes import Location, MemRefType, Type
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.dialects import memref
from mlc.ir.dialects.ub import PoisonOp
from mlc.ir.interfaces.control_flow import BranchLike
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.block_merge import drop_redundant_arguments
from mlc.ir.rewrite.region_simplify import erase_unreachable_blocks
from mlc.ir.rewrite.rewriter import Rewriter


@dataclass(frozen=True)
class PromotableSlot:
    """How a dialect's allocations, loads and stores look to mem2reg: `element(op)` is
    the type of the one value the allocation `op` holds (None: not a promotable slot);
    `loaded(op, slot)` whether `op` loads `slot` (its result is the value);
    `stored(op, slot)` the value `op` stores into `slot` (None: not such a store);
    `default(rewriter, type, loc)` the value of a slot read before any store."""

    element: Callable[[Operation], Type | None]
    loaded: Callable[[Operation, Value], bool]
    stored: Callable[[Operation, Value], Value | None]
    default: Callable[[Rewriter, Type, Location], Value]


PROMOTABLE_SLOTS: list[PromotableSlot] = []


def _memref_element(op: Operation) -> Type | None:
    if isinstance(op, memref.AllocaOp) and not op.operands:
        type_ = op.results[0].type
        # One element: rank 0, or every size 1 (whose only index in bounds is 0).
        if isinstance(type_, MemRefType) and all(size == 1 for size in type_.shape) \
                and type_.layout is None:
            return type_.element_type
    return None


def _memref_loaded(op: Operation, slot: Value) -> bool:
    return isinstance(op, memref.LoadOp) and op.memref is slot


def _memref_stored(op: Operation, slot: Value) -> Value | None:
    if isinstance(op, memref.StoreOp) and op.memref is slot and op.value is not slot:
        return op.value
    return None


def _poison(rewriter: Rewriter, type_: Type, loc: Location) -> Value:
    return rewriter.create(PoisonOp, result_types=[type_], loc=loc).results[0]


PROMOTABLE_SLOTS.append(PromotableSlot(_memref_element, _memref_loaded, _memref_stored, _poison))


def _promotion(alloca: Operation, rules: PromotableSlot, element: Type) -> list[Block] | None:
    """The region's reachable blocks in reverse post-order, if `alloca`'s slot may be
    promoted (see the module docstring)."""
    block = alloca.parent
    region = block.parent
    if region is None or region.blocks[0] is not block:
        return None
    slot = alloca.results[0]
    for use in slot.uses:
        user = use.owner
        if user.parent.parent is not region:
            return None  # in a nested region
        if rules.loaded(user, slot):
            if user.results[0].type != element:
                return None
        else:
            value = rules.stored(user, slot)
            if value is None or value.type != element:
                return None
    for candidate in region.blocks:
        terminator = candidate.terminator
        if terminator is not None and terminator.successors and BranchLike.get(terminator) is None:
            return None
    return reverse_postorder(block)


def promote(alloca: Operation, rules: PromotableSlot, element: Type, blocks: list[Block],
            rewriter: Rewriter) -> None:
    """Replace the loads and stores of `alloca`'s slot by SSA values (see the module
    docstring); `blocks` are its region's reachable blocks in reverse post-order."""
    slot = alloca.results[0]
    default: list[Value] = []

    def default_value() -> Value:
        if not default:
            with rewriter.insertion_point():
                rewriter.set_insertion_point_before(alloca)
                default.append(rules.default(rewriter, element, alloca.loc))
        return default[0]

    predecessors: dict[Block, list[tuple[Operation, int]]] = {b: [] for b in blocks}
    for block in blocks:
        terminator = block.terminator
        for index, successor in enumerate(terminator.successors if terminator else ()):
            predecessors[successor].append((terminator, index))
    arguments = {block: rewriter.add_block_argument(block, element, alloca.loc)
                 for block in blocks[1:] if len(predecessors[block]) > 1}
    outgoing: dict[Block, Value | None] = {}
    for block in blocks:
        if block in arguments:
            current: Value | None = arguments[block]
        elif block is blocks[0]:
            current = None
        else:
            current = outgoing[predecessors[block][0][0].parent]
        for op in list(block.ops()):
            if rules.loaded(op, slot):
                rewriter.replace_op(op, [current if current is not None else default_value()])
            elif rules.stored(op, slot) is not None:
                current = rules.stored(op, slot)
                rewriter.erase_op(op)
        outgoing[block] = current
    # What no path reaches reads the default value (and its stores go).
    for use in list(slot.uses):
        if rules.loaded(use.owner, slot):
            rewriter.replace_op(use.owner, [default_value()])
        else:
            rewriter.erase_op(use.owner)
    # Every branch into a block with a new argument passes it, those from blocks no
    # path reaches too (the default value).
    for source in blocks[0].parent.blocks:
        terminator = source.terminator
        for index, block in enumerate(terminator.successors if terminator else ()):
            if block not in arguments:
                continue
            value = outgoing.get(source)
            branch = BranchLike.get(terminator)
            with rewriter.modify_op_in_place(terminator):
                operands = branch.successor_operands(terminator, index)
                branch.set_successor_operands(terminator, index, [
                    *operands, value if value is not None else default_value()])
    rewriter.erase_op(alloca)
    # The arguments of blocks whose predecessors all pass one value (the region's
    # other such arguments too: they were as redundant before).
    drop_redundant_arguments(rewriter, [blocks[0].parent])


def promote_slots(root: Operation, rewriter: Rewriter | None = None) -> int:
    """Promote every promotable slot allocated in `root`; how many were."""
    rewriter = rewriter if rewriter is not None else Rewriter()
    promoted = 0
    for op in [op for op in root.walk() if op is not root]:
        for rules in PROMOTABLE_SLOTS:
            element = rules.element(op)
            if element is None:
                continue
            blocks = _promotion(op, rules, element)
            if blocks is not None:
                promote(op, rules, element, blocks, rewriter)
                promoted += 1
            break
    return promoted


@dataclass(frozen=True)
class Mem2RegOptions:
    region_simplify: bool = option(
        True, doc="afterwards, erase the blocks no path reaches (mlir-opt-22 leaves dead "
                  "code, such as an llvm.alloca's size, in place too)")


@register_pass("mem2reg", opt_level=0, options=Mem2RegOptions,
               summary="Promote memory slots (memref.alloca and llvm.alloca of one "
                       "element) whose only uses are loads and stores to SSA values.",
               statistics=(("promoted slots", "slots promoted"),))
class Mem2Reg(Pass):
    def run(self, op: Operation, run) -> None:
        from mlc.ir.passes.registry import load_pass_plugins

        load_pass_plugins()  # the other packages' dialects declare their slots there
        rewriter = Rewriter()
        promoted = promote_slots(op, rewriter)
        self.statistics["promoted slots"] += promoted
        if promoted and run.options.region_simplify:
            erase_unreachable_blocks(rewriter, op.regions)
