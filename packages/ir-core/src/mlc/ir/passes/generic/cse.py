"""cse: eliminate common subexpressions, scoped by dominance.

Ops found dead when the walk reaches them are erased too (as MLIR's cse does), with the
producers that die with them, so a second run has nothing left to do. Two ops
are equivalent when they have the same name, operands, attributes and result
types, no regions, and no memory effects. Blocks are visited in dominator-tree order
with a scoped table, so an op is replaced only by an equivalent op that dominates it;
a region isolated from above starts an empty scope.

Ops that only read memory are merged too, under MLIR's rule: the two are in the same
block and nothing executed between them may write what they read. Rather than scan
the ops between them, the walk counts writes per resource as it goes (an op with
unknown effects counts as a write to every resource): a read remembers the counts of
the resources it reads, and a later equal read in its block may reuse it while they
are unchanged. That keeps the pass linear in the size of the IR.
"""

from __future__ import annotations

from mlc.ir.analysis.dominance import dominator_tree
from mlc.ir.core.ir import Operation
from mlc.ir.interfaces.side_effects import EffectKind, is_trivially_dead, own_effects
from mlc.ir.opdef.traits import Commutative, IsolatedFromAbove, IsTerminator
from mlc.ir.passes.analysis_manager import DominanceInfo
from mlc.ir.passes.registry import Pass, register_pass

# The write counter of "every resource", bumped by ops whose effects are unknown.
_ANY = None
_CLOBBERS = (EffectKind.WRITE, EffectKind.FREE)


def _key(op: Operation, effects) -> tuple | None:
    """The table key of `op`, or None if it must not be merged with an equal op."""
    op_def = op.op_def
    if op_def is None or op.regions or op.successors or effects is None:
        return None
    traits = op_def.trait_set
    if IsTerminator in traits or any(e.kind is not EffectKind.READ for e in effects):
        return None
    operands = tuple(o.value for o in op.op_operands)
    if Commutative in traits and len(operands) == 2:
        operands = tuple(sorted(operands, key=id))  # a + b and b + a are one expression
    return (op.name, operands,
            tuple(sorted(op.attributes.items(), key=lambda kv: kv[0])),
            tuple(r.type for r in op.results))


class _WriteCounts:
    """Writes seen so far, per resource, in walk order."""

    def __init__(self):
        self.counts: dict = {_ANY: 0}

    def record(self, effects) -> None:
        if effects is None:
            self.counts[_ANY] += 1
            return
        for effect in effects:
            if effect.kind in _CLOBBERS:
                self.counts[effect.resource] = self.counts.get(effect.resource, 0) + 1

    def snapshot(self, effects) -> tuple:
        """The counts that decide whether a read with `effects` may be reused (equal
        ops list their effects in the same order)."""
        return (self.counts[_ANY], *(self.counts.get(e.resource, 0) for e in effects))


def eliminate_common_subexpressions(root: Operation) -> int:
    """Replace and erase redundant ops under `root`; returns how many."""
    known: dict = {}
    # For ops in `known` that read memory: (block, write counts when they were read).
    reads: dict[Operation, tuple] = {}
    writes = _WriteCounts()
    erased = 0
    saved: list[dict] = []
    work: list = [("regions", root)]
    while work:
        item = work.pop()
        kind = item[0]
        if kind == "regions":
            op = item[1]
            # An unregistered op might be isolated from above: treat it as if it were.
            isolated = op is not root and (op.op_def is None or op.has_trait(IsolatedFromAbove))
            for region in reversed(op.regions):
                if isolated:
                    work.append(("restore",))
                if region.blocks:
                    tree = dominator_tree(region)
                    for block in reversed([b for b in region.blocks if tree.idom.get(b) is None]):
                        work.append(("block", block, tree))
                if isolated:
                    work.append(("isolate",))
        elif kind == "isolate":
            saved.append(known)
            known = {}
        elif kind == "restore":
            known = saved.pop()
        elif kind == "block":
            block, tree = item[1], item[2]
            work.append(("ops", iter(list(block.ops())), block, tree, []))
        elif kind == "ops":
            # An op's regions are visited where the op stands, before later ops of the
            # block are recorded (they do not dominate the regions' contents).
            ops, block, tree, added = item[1], item[2], item[3], item[4]
            for op in ops:
                if is_trivially_dead(op):
                    # Dead ops are erased, and producers that die with them (so a
                    # second run finds nothing more to do).
                    dying = [op]
                    while dying:
                        dead = dying.pop()
                        producers = [o.value.defining_op for o in dead.op_operands]
                        dead_key = _key(dead, [])
                        if dead_key is not None and known.get(dead_key) is dead:
                            del known[dead_key]
                        reads.pop(dead, None)
                        dead.erase()
                        erased += 1
                        for producer in producers:
                            if producer is not None and producer.parent is not None \
                                    and is_trivially_dead(producer):
                                dying.append(producer)
                    continue
                effects = own_effects(op)
                key = _key(op, effects)
                if key is not None:
                    existing = known.get(key)
                    snapshot = writes.snapshot(effects) if effects else None
                    if existing is not None and (
                            not effects or reads.get(existing) == (block, snapshot)):
                        op.replace_all_uses_with(existing.results)
                        op.erase()
                        erased += 1
                        continue
                    # A read that cannot reuse an earlier one shadows it for the reads
                    # after it (restored when this block's scope ends).
                    added.append((key, existing))
                    known[key] = op
                    if effects:
                        reads[op] = (block, snapshot)
                writes.record(effects)
                if op.regions:
                    work.append(item)
                    work.append(("regions", op))
                    break
            else:
                work.append(("forget", added))
                for child in reversed(tree.children.get(block, ())):
                    work.append(("block", child, tree))
        elif kind == "forget":
            for key, shadowed in reversed(item[1]):
                if shadowed is None or shadowed.parent is None:
                    known.pop(key, None)
                else:
                    known[key] = shadowed
    return erased


@register_pass("cse", opt_level=3, summary="Eliminate common subexpressions (dominance-scoped; "
               "side-effecting ops are kept).",
               statistics=(("num-cse", "ops erased as duplicates"),))
class CSE(Pass):
    preserves = (DominanceInfo,)

    def run(self, op: Operation, run) -> None:
        self.statistics["num-cse"] += eliminate_common_subexpressions(op)
