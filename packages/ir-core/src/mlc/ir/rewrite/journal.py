"""An undo log of IR changes: what makes a dialect conversion's changes tentative.

The conversion rewriter records each change it makes to the IR (an op inserted, an
op changed in place, an op or a block moved, a block's arguments replaced) and each
change to the driver's own state, before or as it makes it. Rolling back to a
checkpoint undoes the entries after it in reverse order, so a pattern whose results
cannot be legalized leaves no trace, and a failed conversion leaves the input as it
was — without copying the IR up front. Each entry costs O(size of what it changed),
so the log is linear in the work done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.ir.core.ir import Block, Operation, Region

INSERTED = "inserted"
MODIFIED = "modified"
MOVED = "moved"
BLOCK_MOVED = "block-moved"
BLOCK_ARGS = "block-args"
STATE = "state"


class ChangeJournal:
    """The changes made since the journal began, each with what undoing it needs.

    Entries are tuples whose first element is their kind; drivers read the
    `INSERTED` and `MODIFIED` entries after a checkpoint to find the ops a pattern
    created or changed in place.
    """

    __slots__ = ("entries",)

    def __init__(self):
        self.entries: list[tuple] = []

    def checkpoint(self) -> int:
        """A position to roll back to."""
        return len(self.entries)

    def since(self, checkpoint: int) -> list[tuple]:
        return self.entries[checkpoint:]

    # ---------------------------------------------------------------- recording

    def inserted(self, op: Operation) -> None:
        """`op` (with everything nested in it) was created and inserted."""
        self.entries.append((INSERTED, op, list(op.walk()) if op.regions else [op]))

    def modifying(self, op: Operation) -> None:
        """`op` is about to change in place: its operands, attributes, result types
        and successors are saved."""
        self.entries.append((MODIFIED, op, op.operands, dict(op.attributes),
                             [r.type for r in op.results], list(op.successors),
                             None if op.properties is None else dict(op.properties)))

    def moving(self, op: Operation) -> None:
        """`op` is about to move: its place (block and next op) is saved."""
        self.entries.append((MOVED, op, op.parent, op.next_op))

    def moving_block(self, block: Block) -> None:
        """`block` is about to leave its region: the region and index are saved."""
        region = block.parent
        self.entries.append((BLOCK_MOVED, block, region,
                             region.blocks.index(block) if region is not None else None))

    def changing_block_args(self, block: Block) -> None:
        """`block`'s argument list is about to change."""
        self.entries.append((BLOCK_ARGS, block, list(block.args)))

    def on_undo(self, undo: Callable[..., Any], *args: Any) -> None:
        """Call `undo(*args)` when rolling back past this point (driver state)."""
        self.entries.append((STATE, undo, args))

    # ---------------------------------------------------------------- undoing

    def rollback(self, checkpoint: int = 0) -> None:
        """Undo every entry after `checkpoint`, newest first."""
        entries = self.entries
        while len(entries) > checkpoint:
            entry = entries.pop()
            _UNDO[entry[0]](*entry[1:])

    def forget(self, checkpoint: int) -> None:
        """Drop the entries after `checkpoint` without undoing them: what they
        recorded did not change after all."""
        del self.entries[checkpoint:]

    def discard(self) -> None:
        """Forget every entry: the changes are final."""
        self.entries.clear()


def _undo_insert(op: Operation, nested: list[Operation]) -> None:
    op.detach()
    for created in nested:
        for use in created.op_operands:
            use.drop()
        created._operands = []
        created.set_successors(())


def _undo_modify(op: Operation, operands, attributes, result_types, successors,
                 properties) -> None:
    current = op.op_operands
    if len(current) == len(operands):
        for use, value in zip(current, operands):
            if use.value is not value:
                use.set(value)
    else:
        op.set_operands(operands)
    # Restored in place: holders of the dictionary keep seeing the op's attributes.
    op.attributes.clear()
    op.attributes.update(attributes)
    for result, type_ in zip(op.results, result_types):
        result.type = type_
    if op.successors != successors:
        op.set_successors(successors)
    op.properties = properties


def _undo_move(op: Operation, block: Block | None, before: Operation | None) -> None:
    op.detach()
    if block is not None:
        block.insert_before(op, before)


def _undo_block_move(block: Block, region: Region | None, index: int | None) -> None:
    if block.parent is not None:
        block.parent.blocks.remove(block)
        block.parent = None
    if region is not None:
        region.insert(index, block)


def _undo_block_args(block: Block, args) -> None:
    block.args = args
    for i, arg in enumerate(args):
        arg.index = i


def _undo_state(undo: Callable[..., Any], args: tuple) -> None:
    undo(*args)


_UNDO: dict[str, Callable[..., None]] = {
    INSERTED: _undo_insert,
    MODIFIED: _undo_modify,
    MOVED: _undo_move,
    BLOCK_MOVED: _undo_block_move,
    BLOCK_ARGS: _undo_block_args,
    STATE: _undo_state,
}
