"""dce: erase ops whose results are unused and that have no side effects, and blocks
no path reaches."""

from __future__ import annotations

from mlc.ir.core.ir import Operation
from mlc.ir.interfaces.side_effects import is_trivially_dead
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.region_simplification import erase_unreachable_blocks

__all__ = ["erase_dead_ops", "erase_unreachable_blocks"]


def erase_dead_ops(root: Operation) -> int:
    """Erase dead ops under `root` (in reverse order, so chains die in one sweep)."""
    erased = 0
    worklist = [op for op in root.walk() if op is not root]
    queued = set(worklist)
    while worklist:
        op = worklist.pop()
        queued.discard(op)
        if op.parent is None or not is_trivially_dead(op):
            continue
        producers = [o.value.defining_op for o in op.op_operands]
        op.erase()
        erased += 1
        for producer in producers:
            if producer is not None and producer not in queued:
                queued.add(producer)
                worklist.append(producer)
    return erased


@register_pass("dce", opt_level=1, summary="Erase unused side-effect-free ops and unreachable blocks.",
               statistics=(("num-dead-ops", "ops erased"), ("num-dead-blocks", "blocks erased")))
class DCE(Pass):
    def run(self, op: Operation, run) -> None:
        self.statistics["num-dead-blocks"] += erase_unreachable_blocks(op)
        self.statistics["num-dead-ops"] += erase_dead_ops(op)
