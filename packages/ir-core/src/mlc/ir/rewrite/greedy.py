"""The greedy pattern driver, and the walk driver.

Greedy: blocks no path reaches are erased (as MLIR's driver does by default: ops there
may use their own results, on which patterns loop), then a worklist is seeded with
every op under the root (top-down: pre-order; or bottom-up: post-order). Each op popped is erased if trivially dead; else folded
(constants are uniqued and hoisted to the entry block of the enclosing region
isolated from above, as MLIR's OperationFolder does; commutative ops get constants on
the right); else the patterns rooted at it are tried by decreasing benefit. Every
change goes through the rewriter, whose listener queues what may now simplify: new
ops, modified ops, users of replaced results, and the defining ops of an erased op's
operands. An iteration ends when the worklist is empty, then the root's regions are
simplified (unreachable blocks, dead code and block arguments; with "aggressive",
identical blocks merged: MLIR's simplifyRegions); the driver iterates until one
makes no change or `max_iterations` is reached. Each op is handled in time
proportional to its operands, uses and patterns, so a sweep is linear in IR size.

Walk: one sweep over the ops applying the first pattern that matches, no fixpoint;
for lowerings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mlc.ir.core.attributes import Attribute
from mlc.ir.core.ir import Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.interfaces.side_effects import is_trivially_dead
from mlc.ir.opdef.declare import Op
from mlc.ir.opdef.traits import (
    Commutative,
    ConstantLike,
    IsolatedFromAbove,
    constant_attribute,
    constant_value,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.rewrite.region_simplify import erase_unreachable_blocks, simplify_regions
from mlc.ir.rewrite.rewriter import PatternRewriter, RewriterListener


@dataclass
class GreedyConfig:
    """Options of the greedy driver (MLIR's GreedyRewriteConfig)."""

    max_iterations: int = 10
    max_rewrites: int | None = None
    top_down: bool = True
    fold: bool = True
    # After each sweep: "normal" erases unreachable blocks and dead code (dead
    # block arguments included), "aggressive" also merges identical blocks,
    # "disabled" only erases unreachable blocks, as mlir-opt-22 does (see
    # mlc.ir.rewrite.region_simplify).
    region_simplify: str = "normal"


@dataclass
class GreedyResult:
    """What a greedy run did."""

    converged: bool
    iterations: int = 0
    folds: int = 0
    patterns_applied: int = 0
    dead_erased: int = 0
    constants_deduplicated: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.folds or self.patterns_applied or self.dead_erased
                    or self.constants_deduplicated)


def _insertion_region(op: Operation) -> Region | None:
    """Where folded constants of `op` go: the region of the closest ancestor op that is
    isolated from above."""
    block = op.parent
    while block is not None:
        region = block.parent
        if region is None:
            return None
        parent = region.parent
        # An unregistered op may be isolated from above: constants stop there too.
        if parent is None or parent.op_def is None or parent.has_trait(IsolatedFromAbove):
            return region
        block = parent.parent
    return None


class ConstantFolder:
    """Uniqued, hoisted constants per insertion region (MLIR's OperationFolder): a
    constant stays where it is if it is first in the region's entry block or follows
    a constant the folder knows, and moves to the start of that block otherwise."""

    def __init__(self):
        self.tables: dict[Region, dict[tuple, Operation]] = {}
        self.known: dict[Operation, tuple[Region, tuple]] = {}

    @staticmethod
    def _key(op: Operation) -> tuple:
        value = constant_attribute(op)
        dialect = op.op_def.dialect_name if op.op_def is not None else op.name
        return (dialect, value, op.results[0].type)

    def insert_known_constant(self, op: Operation, rewriter: PatternRewriter) -> bool:
        """Unique and hoist a constant op; True if the IR changed."""
        if op in self.known:
            previous = op.prev_op
            if previous is None or previous in self.known:
                return False
            rewriter.move_op_before(op, op.parent, op.parent.first_op)
            return True
        region = _insertion_region(op)
        if region is None or not region.blocks:
            return False
        key = self._key(op)
        table = self.tables.setdefault(region, {})
        existing = table.get(key)
        if existing is not None and existing is not op:
            rewriter.replace_op(op, existing.results)
            return True
        table[key] = op
        self.known[op] = (region, key)
        entry = region.blocks[0]
        previous = op.prev_op
        if op.parent is not entry or (previous is not None and previous not in self.known):
            rewriter.move_op_before(op, entry, entry.first_op)
            return True
        return False

    def materialize(self, value: Attribute, type_, anchor: Operation,
                    rewriter: PatternRewriter) -> Value | None:
        """A constant of `value` made just before `anchor`, through the dialect of
        `anchor` (None if the dialect cannot), as MLIR's driver makes it: queued as
        inserted, it comes to `insert_known_constant` next, which uniques and hoists it."""
        region = _insertion_region(anchor)
        dialect = anchor.op_def.dialect if anchor.op_def is not None else None
        if region is None or not region.blocks or dialect is None:
            return None
        op = dialect.materialize_constant(value, type_, anchor.loc)
        if op is None:
            return None
        with rewriter.insertion_point():
            rewriter.block, rewriter.before = anchor.parent, anchor
            rewriter.insert(op)
        return op.results[0]

    def forget(self, op: Operation) -> None:
        entry = self.known.pop(op, None)
        if entry is not None:
            region, key = entry
            table = self.tables.get(region)
            if table is not None and table.get(key) is op:
                del table[key]


class _Worklist(RewriterListener):
    """The driver's listener: queues ops that may simplify after a change."""

    def __init__(self, folder: ConstantFolder, forward: RewriterListener | None):
        self.stack: list[Operation] = []
        self.queued: set[Operation] = set()
        self.erased: set[Operation] = set()
        self.folder = folder
        self.forward = forward
        self.changes = 0

    def push(self, op: Operation) -> None:
        if op not in self.queued and op not in self.erased:
            self.queued.add(op)
            self.stack.append(op)

    def pop(self) -> Operation | None:
        while self.stack:
            op = self.stack.pop()
            if op in self.queued:
                self.queued.discard(op)
                return op
        return None

    def notify_op_inserted(self, op: Operation) -> None:
        self.changes += 1
        self.erased.discard(op)
        self.push(op)
        if self.forward is not None:
            self.forward.notify_op_inserted(op)

    def notify_op_modified(self, op: Operation) -> None:
        self.changes += 1
        self.push(op)
        if self.forward is not None:
            self.forward.notify_op_modified(op)

    def notify_op_replaced(self, op: Operation, values: Sequence[Value]) -> None:
        self.changes += 1
        for result in op.results:
            for use in result.uses:
                self.push(use.owner)
        if self.forward is not None:
            self.forward.notify_op_replaced(op, values)

    def notify_op_erased(self, op: Operation) -> None:
        self.changes += 1
        self.erased.add(op)
        self.queued.discard(op)
        self.folder.forget(op)
        for operand in op.op_operands:
            defining = operand.value.defining_op
            if defining is not None:
                self.push(defining)
        if self.forward is not None:
            self.forward.notify_op_erased(op)

    def notify_match_failure(self, op: Operation, reason: str) -> None:
        if self.forward is not None:
            self.forward.notify_match_failure(op, reason)


def _ops_in_order(root: Operation, top_down: bool) -> list[Operation]:
    ops = [op for op in root.walk(post_order=not top_down) if op is not root]
    return ops


def _refuse_conversion_patterns(patterns: PatternSet) -> None:
    from mlc.ir.rewrite.conversion import ConversionPattern

    for pattern in patterns:
        if isinstance(pattern, ConversionPattern):
            raise TypeError(f"'{pattern.name}' is a conversion pattern: it runs under the "
                            "conversion driver (apply_partial_conversion/apply_full_conversion)")


def apply_patterns_greedily(root: Operation, patterns: PatternSet,
                            config: GreedyConfig | None = None,
                            listener: RewriterListener | None = None) -> GreedyResult:
    """Rewrite the ops nested in `root` with folding and `patterns` to a fixpoint."""
    _refuse_conversion_patterns(patterns)
    config = config or GreedyConfig()
    folder = ConstantFolder()
    worklist = _Worklist(folder, listener)
    rewriter = PatternRewriter(worklist)
    result = GreedyResult(converged=False)
    rewrites = 0
    # MLIR's kNoLimit: a negative max_iterations means iterate until convergence.
    limit = config.max_iterations if config.max_iterations >= 0 else None
    iteration = 0
    while limit is None or iteration < max(limit, 1):
        iteration += 1
        result.iterations = iteration
        worklist.changes = 0
        worklist.erased.clear()
        # Blocks no path reaches go before the sweep, as in MLIR: ops there may use
        # their own results (`%a = arith.addi %a, %c`), on which patterns could loop.
        changed = erase_unreachable_blocks(rewriter, root.regions)
        ops = _ops_in_order(root, config.top_down)
        if config.fold:
            # Constants join the folder in program order before any op is processed,
            # as MLIR's driver does, so folding keeps their order instead of reversing it.
            for op in ops:
                if op.parent is not None and op.has_trait(ConstantLike):
                    changed |= folder.insert_known_constant(op, rewriter)
        for op in reversed(ops):
            if op.parent is not None:
                worklist.push(op)
        while True:
            op = worklist.pop()
            if op is None:
                break
            if op.parent is None:  # erased or detached meanwhile
                continue
            if is_trivially_dead(op):
                rewriter.erase_op(op)
                result.dead_erased += 1
                changed = True
                continue
            if config.fold and _try_fold(op, folder, rewriter, result):
                changed = True
                rewrites += 1
            else:
                for pattern in patterns.for_op(op.name):
                    rewriter.set_insertion_point_before(op)
                    if pattern.match_and_rewrite(op, rewriter):
                        result.patterns_applied += 1
                        changed = True
                        rewrites += 1
                        break
            if config.max_rewrites is not None and rewrites >= config.max_rewrites:
                result.diagnostics.append(Diagnostic(
                    "warning", f"greedy rewriting stopped after the maximum of "
                    f"{config.max_rewrites} rewrites", root.loc))
                _destroy_erased(worklist.erased)
                return result
        # Keep the control-flow graph tidy after the patterns changed it.
        changed |= simplify_regions(rewriter, root.regions, config.region_simplify)
        _destroy_erased(worklist.erased)
        if not changed and worklist.changes == 0:
            result.converged = True
            return result
    result.diagnostics.append(Diagnostic(
        "warning", f"greedy rewriting did not converge after {config.max_iterations} "
        "iterations", root.loc))
    return result


def _destroy_erased(erased: set[Operation]) -> None:
    """Destroy the ops erased in a sweep (freeing them without the cyclic collector);
    an op nested in an erased one goes with it, one inserted again is kept."""
    for op in erased:
        if op.parent is None:
            op.destroy()


def _operand_constants(op: Operation) -> list[Attribute | None]:
    return [constant_value(operand.value) for operand in op.op_operands]


def may_fold(op: Operation) -> bool:
    """Whether fold_op can fold `op` (a registered op): its class has a folder, or it
    is commutative (a constant operand moves to the right)."""
    return type(op).fold is not Op.fold or Commutative in op.op_def.trait_set


def fold_op(op: Operation, rewriter: PatternRewriter) -> list[Attribute | Value] | None:
    """Fold `op` (a registered op, not a constant) as MLIR's Operation::fold does: a
    commutative op with a constant on the left only gets it moved to the right (the
    canonical order, where patterns and folders look); any other op runs its folder.
    None: it does not fold, and is left as it was (a folder's contract); []: it folded
    in place (listeners are told); else one value or attribute per result, for the
    caller to replace the op with."""
    if not may_fold(op):
        return None
    constants = _operand_constants(op)
    if Commutative in op.op_def.trait_set and len(constants) == 2 and \
            constants[0] is not None and constants[1] is None:
        with rewriter.modify_op_in_place(op):
            lhs, rhs = op.operand(0), op.operand(1)
            op.set_operand(0, rhs)
            op.set_operand(1, lhs)
        return []
    folded = op.fold(constants)
    if folded is None:
        return None
    if isinstance(folded, (Attribute, Value)):
        folded = [folded]  # a single-result op's folder returns its one value
    if len(folded) != len(op.results):
        return None
    if all(v is r for v, r in zip(folded, op.results)):
        if rewriter.listener is not None:
            rewriter.listener.notify_op_modified(op)
        return []
    return list(folded)


def _try_fold(op: Operation, folder: ConstantFolder, rewriter: PatternRewriter,
              result: GreedyResult) -> bool:
    op_def = op.op_def
    if op_def is None:
        return False
    if ConstantLike in op_def.trait_set:
        changed = folder.insert_known_constant(op, rewriter)
        if changed and op.parent is None:
            result.constants_deduplicated += 1
        return changed
    folded = fold_op(op, rewriter)
    if folded is None:
        return False
    values: list[Value] = []
    for item, old in zip(folded, op.results):
        if isinstance(item, Value):
            values.append(item)
            continue
        materialised = folder.materialize(item, old.type, op, rewriter)
        if materialised is None:
            return False
        values.append(materialised)
    if folded:
        rewriter.replace_op(op, values)
    result.folds += 1
    return True


def apply_patterns_once(root: Operation, patterns: PatternSet,
                        listener: RewriterListener | None = None) -> int:
    """The walk driver: one pre-order sweep applying the first matching pattern to each
    op (no folding, no fixpoint). Returns how many patterns applied."""
    _refuse_conversion_patterns(patterns)
    rewriter = PatternRewriter(listener)
    applied = 0
    for op in [op for op in root.walk() if op is not root]:
        if op.parent is None:
            continue
        for pattern in patterns.for_op(op.name):
            rewriter.set_insertion_point_before(op)
            if pattern.match_and_rewrite(op, rewriter):
                applied += 1
                break
    return applied
