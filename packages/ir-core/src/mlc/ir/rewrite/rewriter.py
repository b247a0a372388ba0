"""The one API through which every change to IR goes.

A :class:`Rewriter` creates, inserts, replaces, erases and modifies ops at an
insertion point, and tells its :class:`RewriterListener` about each change. Drivers
listen (the greedy driver re-queues what changed; the conversion driver records
what to undo); tests listen to count events.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from mlc.ir.core.attributes import Location, Type
from mlc.ir.core.ir import Block, IRError, Operation, Region, Value


class RewriterListener:
    """Hooks called on every change made through a rewriter. Override what you need."""

    def notify_op_inserted(self, op: Operation) -> None:
        """`op` was inserted (created, moved or cloned into place)."""

    def notify_op_erased(self, op: Operation) -> None:
        """`op` is about to be erased."""

    def notify_op_replaced(self, op: Operation, values: Sequence[Value]) -> None:
        """`op`'s results are about to be replaced by `values`."""

    def notify_op_modified(self, op: Operation) -> None:
        """`op` was changed in place (operands, attributes, successors)."""

    def notify_match_failure(self, op: Operation, reason: str) -> None:
        """A pattern did not apply to `op`, and says why."""


class Rewriter:
    """Builds and mutates IR at an insertion point, notifying a listener."""

    def __init__(self, listener: RewriterListener | None = None):
        self.listener = listener
        self.block: Block | None = None
        self.before: Operation | None = None

    # ---------------------------------------------------------------- insertion point

    def set_insertion_point_before(self, op: Operation) -> None:
        if op.parent is None:
            raise IRError(f"'{op.name}' is not in a block")
        self.block, self.before = op.parent, op

    def set_insertion_point_after(self, op: Operation) -> None:
        if op.parent is None:
            raise IRError(f"'{op.name}' is not in a block")
        self.block, self.before = op.parent, op.next_op

    def set_insertion_point_to_start(self, block: Block) -> None:
        self.block, self.before = block, block.first_op

    def set_insertion_point_to_end(self, block: Block) -> None:
        self.block, self.before = block, None

    @contextmanager
    def insertion_point(self) -> Iterator[None]:
        """Restore the insertion point when the block ends."""
        saved = (self.block, self.before)
        try:
            yield
        finally:
            self.block, self.before = saved

    # ---------------------------------------------------------------- creating

    def insert(self, op: Operation) -> Operation:
        """Insert a detached op at the insertion point."""
        if self.block is None:
            raise IRError("the rewriter has no insertion point")
        self.block.insert_before(op, self.before)
        if self.listener is not None:
            for nested in op.walk():
                self.listener.notify_op_inserted(nested)
        return op

    def create(self, op_class, *operands, **kwargs) -> Operation:
        """Build an op with its declared builder and insert it."""
        return self.insert(op_class.build(*operands, **kwargs))

    def clone(self, op: Operation, mapping: dict[Value, Value] | None = None) -> Operation:
        return self.insert(op.clone(mapping))

    # ---------------------------------------------------------------- replacing and erasing

    def replace_all_uses_with(self, old: Value, new: Value) -> None:
        users = old.users
        old.replace_all_uses_with(new)
        if self.listener is not None:
            for user in users:
                self.listener.notify_op_modified(user)

    def replace_op(self, op: Operation, replacement: Sequence[Value] | Operation) -> None:
        """Replace every use of `op`'s results, then erase `op`."""
        values = replacement.results if isinstance(replacement, Operation) else list(replacement)
        if len(values) != len(op.results):
            raise IRError(f"replacing '{op.name}' ({len(op.results)} results) with "
                          f"{len(values)} values")
        if self.listener is not None:
            self.listener.notify_op_replaced(op, values)
        for result, value in zip(op.results, values):
            if result is not value:
                self.replace_all_uses_with(result, value)
        self.erase_op(op)

    def replace_op_with_new(self, op: Operation, op_class, *operands, **kwargs) -> Operation:
        """Create a new op before `op` and replace `op` with it."""
        self.set_insertion_point_before(op)
        new = self.create(op_class, *operands, **kwargs)
        self.replace_op(op, new)
        return new

    def erase_op(self, op: Operation) -> None:
        """Erase `op` (and everything nested in it); its results must be unused."""
        for result in op.results:
            if result.uses:
                raise IRError(f"cannot erase '{op.name}': result #{result.index} is still used")
        if self.listener is not None:
            for nested in op.walk(post_order=True):
                self.listener.notify_op_erased(nested)
        if self.before is op:
            self.before = op.next_op
        op.erase()

    # ---------------------------------------------------------------- in place

    @contextmanager
    def modify_op_in_place(self, op: Operation) -> Iterator[Operation]:
        """Change `op` directly (operands, attributes) inside the block."""
        yield op
        if self.listener is not None:
            self.listener.notify_op_modified(op)

    def set_operand(self, op: Operation, index: int, value: Value) -> None:
        with self.modify_op_in_place(op):
            op.set_operand(index, value)

    # ---------------------------------------------------------------- blocks

    def move_op_before(self, op: Operation, block: Block, before: Operation | None) -> None:
        """Move `op` (with what is nested in it) into `block` before `before` (at its
        end when None); listeners see the move as an insertion."""
        if self.before is op:  # the insertion point moves on, not with the op
            self.before = op.next_op
        op.detach()
        block.insert_before(op, before)
        if self.listener is not None:
            self.listener.notify_op_inserted(op)

    def erase_block(self, block: Block) -> None:
        """Erase `block` and its ops; nothing outside it may use its values or branch
        to it."""
        if block.uses:
            raise IRError("cannot erase a block that terminators still branch to")
        for op in list(block.ops_reversed()):
            self.erase_op(op)
        self.detach_block(block)

    def detach_block(self, block: Block) -> None:
        """Take `block` out of its region (its ops stay in it)."""
        if block.parent is not None:
            block.parent.blocks.remove(block)
            block.parent = None

    def insert_block(self, block: Block, region: Region, index: int) -> Block:
        """Insert the detached `block` into `region` at position `index`."""
        region.insert(index, block)
        return block

    def create_block_before(self, successor: Block, arg_types: Sequence[Type] = (),
                            arg_locs: Sequence[Location | None] | None = None) -> Block:
        """A new block with arguments of `arg_types`, inserted just before `successor`
        in its region; the insertion point moves to its end (MLIR's createBlock)."""
        region = successor.parent
        if region is None:
            raise IRError("the block to insert before is not in a region")
        block = Block(arg_types, None, arg_locs)
        self.insert_block(block, region, region.blocks.index(successor))
        self.set_insertion_point_to_end(block)
        return block

    def split_block(self, block: Block, before: Operation | None) -> Block:
        """Move `before` and the ops after it into a new block (without arguments)
        placed just after `block`, and return it (MLIR's splitBlock). With `before`
        None the new block is empty."""
        if before is not None and before.parent is not block:
            raise IRError(f"'{before.name}' is not in the block to split")
        region = block.parent
        if region is None:
            raise IRError("the block to split is not in a region")
        tail = self.insert_block(Block(), region, region.blocks.index(block) + 1)
        op = before
        while op is not None:
            following = op.next_op
            self.move_op_before(op, tail, None)
            op = following
        if self.block is block and self.before is not None and self.before.parent is not block:
            self.before = None  # the anchor left with the tail: insert at the end instead
        return tail

    def add_block_argument(self, block: Block, type_: Type,
                           loc: Location | None = None) -> Value:
        """Append an argument of `type_` to `block`."""
        return block.add_argument(type_, None, loc)

    def inline_block_before(self, source: Block, anchor: Operation,
                            arg_values: Sequence[Value] = ()) -> None:
        """Move `source`'s ops before `anchor`, replacing its arguments by `arg_values`."""
        if len(arg_values) != len(source.args):
            raise IRError(f"inlining a block of {len(source.args)} arguments with "
                          f"{len(arg_values)} values")
        for arg, value in zip(source.args, arg_values):
            self.replace_all_uses_with(arg, value)
        block = anchor.parent
        assert block is not None
        for op in list(source.ops()):
            self.move_op_before(op, block, anchor)

    def merge_blocks(self, source: Block, dest: Block, arg_values: Sequence[Value] = ()) -> None:
        """Append `source`'s ops to `dest` and erase `source`."""
        if len(arg_values) != len(source.args):
            raise IRError(f"merging a block of {len(source.args)} arguments with "
                          f"{len(arg_values)} values")
        for arg, value in zip(source.args, arg_values):
            self.replace_all_uses_with(arg, value)
        for op in list(source.ops()):
            self.move_op_before(op, dest, None)
        self.detach_block(source)

    def inline_region_before(self, region: Region, dest: Region, index: int | None = None) -> None:
        """Move every block of `region` into `dest` before block `index` (at the end
        when None)."""
        position = len(dest.blocks) if index is None else index
        for block in list(region.blocks):
            self.detach_block(block)
            dest.insert(position, block)
            position += 1


class PatternRewriter(Rewriter):
    """The rewriter patterns receive: a :class:`Rewriter` that can also record why a
    match failed."""

    def notify_match_failure(self, op: Operation, reason: str) -> bool:
        """Record why a pattern did not apply; returns False, so a pattern can
        `return rewriter.notify_match_failure(op, "...")`."""
        if self.listener is not None:
            self.listener.notify_match_failure(op, reason)
        return False
