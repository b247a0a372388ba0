"""Simplifying regions: what the greedy driver (as MLIR's) and dce do to blocks.

Unreachable blocks go first: ops there may use their own results
(`%a = arith.addi %a, %c`, legal where no path arrives), on which patterns can loop
forever.
"""

from __future__ import annotations

from mlc.ir.core.ir import Operation


def erase_unreachable_blocks(root: Operation) -> int:
    """Erase blocks of multi-block regions that the entry block cannot reach."""
    erased = 0
    for op in list(root.walk()):
        for region in op.regions:
            if len(region.blocks) < 2:
                continue
            reachable = {region.blocks[0]}
            stack = [region.blocks[0]]
            while stack:
                for successor in stack.pop().successors:
                    if successor not in reachable:
                        reachable.add(successor)
                        stack.append(successor)
            dead = [b for b in region.blocks if b not in reachable]
            for block in dead:
                for child in block.ops():
                    child.drop_all_references()
            for block in dead:
                for child in list(block.ops_reversed()):
                    for result in child.results:
                        for use in list(result.uses):
                            use.drop()
                    child.detach()
                for arg in block.args:
                    for use in list(arg.uses):
                        use.drop()
                region.blocks.remove(block)
                block.parent = None
                erased += 1
    return erased
