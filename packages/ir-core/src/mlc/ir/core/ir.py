"""The IR data model: values with use lists, operations, blocks and regions.

Operations in a block form a doubly linked list, so inserting and erasing are O(1);
every value keeps the set of operands that use it, so `replace_all_uses_with` and
"has no uses" cost O(uses). Likewise every block keeps the set of successor slots of
terminators that branch to it, so its predecessors are known without scanning the
region. All hot classes use `__slots__`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from mlc.ir.core.attributes import Attribute, Location, Type, unknown_loc

if TYPE_CHECKING:
    from mlc.ir.opdef.declare import OpDef


class IRError(Exception):
    """Misuse of the IR API (erasing a value that is still used, and the like)."""


class Value:
    """An SSA value: an op result or a block argument."""

    __slots__ = ("type", "uses", "name_hint")

    def __init__(self, type_: Type, name_hint: str | None = None):
        self.type = type_
        # An insertion-ordered set: O(1) add and remove, deterministic iteration.
        self.uses: dict[OpOperand, None] = {}
        self.name_hint = name_hint

    def has_one_use(self) -> bool:
        return len(self.uses) == 1

    def has_uses(self) -> bool:
        return bool(self.uses)

    @property
    def users(self) -> list[Operation]:
        """The ops using this value, each once, in use order."""
        return list(dict.fromkeys(use.owner for use in self.uses))

    def replace_all_uses_with(self, new: Value) -> None:
        if new is self:
            return
        for use in list(self.uses):
            use.set(new)

    def replace_uses_where(self, new: Value, predicate) -> None:
        """Replace the uses for which `predicate(op_operand)` holds."""
        for use in list(self.uses):
            if predicate(use):
                use.set(new)

    @property
    def owner(self) -> Operation | Block:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def defining_op(self) -> Operation | None:
        return None


class OpResult(Value):
    """The `index`-th result of `op`."""

    __slots__ = ("op", "index")

    def __init__(self, type_: Type, op: Operation, index: int, name_hint: str | None = None):
        # Value.__init__ inlined: results are made for every op parsed or built.
        self.type = type_
        self.uses = {}
        self.name_hint = name_hint
        self.op = op
        self.index = index

    @property
    def owner(self) -> Operation:
        return self.op

    @property
    def defining_op(self) -> Operation:
        return self.op

    def __repr__(self) -> str:
        return f"<OpResult #{self.index} of {self.op.name}: {self.type}>"


class BlockArgument(Value):
    """The `index`-th argument of `block`."""

    __slots__ = ("block", "index", "loc")

    def __init__(self, type_: Type, block: Block, index: int, name_hint: str | None = None,
                 loc: Location | None = None):
        Value.__init__(self, type_, name_hint)
        self.block = block
        self.index = index
        self.loc = loc

    @property
    def owner(self) -> Block:
        return self.block

    def __repr__(self) -> str:
        return f"<BlockArgument #{self.index}: {self.type}>"


class OpOperand:
    """One use of a value: operand `index` of op `owner`."""

    __slots__ = ("owner", "index", "value")

    def __init__(self, owner: Operation, index: int, value: Value):
        self.owner = owner
        self.index = index
        self.value = value
        value.uses[self] = None

    def set(self, value: Value) -> None:
        del self.value.uses[self]
        self.value = value
        value.uses[self] = None

    def drop(self) -> None:
        del self.value.uses[self]


class BlockOperand:
    """One use of a block: successor `index` of the terminator `owner`."""

    __slots__ = ("owner", "index", "block")

    def __init__(self, owner: Operation, index: int, block: Block):
        self.owner = owner
        self.index = index
        self.block = block
        block.uses[self] = None

    def set(self, block: Block) -> None:
        del self.block.uses[self]
        self.block = block
        block.uses[self] = None

    def drop(self) -> None:
        del self.block.uses[self]


class Operation:
    """A generic operation. Registered ops are instances of their declared subclass
    (see :mod:`mlc.ir.opdef`), which adds typed accessors; unregistered ones are plain
    `Operation`s with `op_def` None."""

    __slots__ = ("name", "_operands", "results", "attributes", "regions", "_successors",
                 "loc", "parent", "prev_op", "next_op", "properties", "__weakref__")
    op_def: OpDef | None = None
    # MLIR's OpAsmOpInterface: an op class may define `asm_result_name(self) -> str`,
    # the name the printer gives its results when they have none of their own
    # (`%c0_i32`, `%cst`); None (the default): numbered.
    asm_result_name: Callable[[Operation], str] | None = None

    def __init__(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
        successors: Sequence[Block] = (),
        loc: Location = unknown_loc,
        result_names: Sequence[str | None] | None = None,
    ):
        self.name = name
        self._operands = [OpOperand(self, i, v) for i, v in enumerate(operands)]
        if result_names is None:
            self.results = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        else:
            self.results = [OpResult(t, self, i, n) for i, (t, n) in
                            enumerate(zip(result_types, result_names))]
        self.attributes = dict(attributes) if attributes else {}
        self.regions: list[Region] = []
        for region in regions:
            self.add_region(region)
        self._successors = [BlockOperand(self, i, b) for i, b in enumerate(successors)] \
            if successors else []
        self.loc = loc
        self.parent: Block | None = None
        self.prev_op: Operation | None = None
        self.next_op: Operation | None = None
        # Properties (`<{...}>`) of an unregistered op, kept apart from its attributes
        # so its generic form round-trips; registered ops keep theirs in `attributes`.
        self.properties: dict[str, Attribute] | None = None

    @classmethod
    def create(cls, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
               attributes: dict[str, Attribute] | None = None, regions: Sequence[Region] = (),
               successors: Sequence[Block] = (), loc: Location = unknown_loc,
               name: str | None = None) -> Operation:
        """Build an op of this class (a declared op class gives its own name)."""
        op = cls.__new__(cls)
        Operation.__init__(op, name or cls.op_def.name, operands, result_types, attributes,
                           regions, successors, loc)
        return op

    # ------------------------------------------------------------------ operands

    @property
    def operands(self) -> list[Value]:
        return [o.value for o in self._operands]

    @property
    def op_operands(self) -> list[OpOperand]:
        return self._operands

    def operand(self, index: int) -> Value:
        return self._operands[index].value

    def set_operand(self, index: int, value: Value) -> None:
        self._operands[index].set(value)

    def set_operands(self, values: Sequence[Value]) -> None:
        for use in self._operands:
            use.drop()
        self._operands = [OpOperand(self, i, v) for i, v in enumerate(values)]

    # ------------------------------------------------------------------ successors

    @property
    def successors(self) -> list[Block]:
        """The blocks this terminator may branch to, in order."""
        return [s.block for s in self._successors]

    @property
    def block_operands(self) -> list[BlockOperand]:
        return self._successors

    def set_successor(self, index: int, block: Block) -> None:
        self._successors[index].set(block)

    def set_successors(self, blocks: Sequence[Block]) -> None:
        for use in self._successors:
            use.drop()
        self._successors = [BlockOperand(self, i, b) for i, b in enumerate(blocks)]

    @property
    def result(self) -> OpResult:
        """The single result; an error for ops with zero or several results."""
        if len(self.results) != 1:
            raise IRError(f"'{self.name}' has {len(self.results)} results, not one")
        return self.results[0]

    @property
    def result_types(self) -> list[Type]:
        return [r.type for r in self.results]

    @property
    def operand_types(self) -> list[Type]:
        return [o.value.type for o in self._operands]

    # ------------------------------------------------------------------ structure

    def add_region(self, region: Region | None = None) -> Region:
        region = region if region is not None else Region()
        if region.parent is not None:
            raise IRError("region already belongs to an op")
        region.parent = self
        self.regions.append(region)
        return region

    @property
    def parent_op(self) -> Operation | None:
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    @property
    def parent_region(self) -> Region | None:
        return self.parent.parent if self.parent is not None else None

    def is_ancestor_of(self, other: Operation) -> bool:
        """True if `other` is this op or nested in one of its regions."""
        current: Operation | None = other
        while current is not None:
            if current is self:
                return True
            current = current.parent_op
        return False

    def has_trait(self, trait) -> bool:
        op_def = self.op_def
        return op_def is not None and trait in op_def.trait_set

    def walk(self, post_order: bool = False) -> Iterator[Operation]:
        """Every op nested in this one, including itself: pre-order by default.

        Iterative, so nesting depth is not bounded by Python's recursion limit.
        """
        if not post_order:
            stack: list[Any] = [self]
            while stack:
                op = stack.pop()
                yield op
                for region in reversed(op.regions):
                    for block in reversed(region.blocks):
                        stack.extend(block.ops_reversed())
            return
        # Post-order: each op after everything nested in it.
        work: list[tuple[Operation, bool]] = [(self, False)]
        while work:
            op, expanded = work.pop()
            if expanded or not op.regions:
                yield op
                continue
            work.append((op, True))
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    work.extend((child, False) for child in block.ops_reversed())

    # ------------------------------------------------------------------ mutation

    def detach(self) -> Operation:
        """Unlink from the parent block, keeping operands and uses."""
        block = self.parent
        if block is not None:
            block._unlink(self)
        return self

    def drop_all_references(self) -> None:
        """Drop every operand and successor use, here and in nested ops."""
        for op in self.walk():
            op._drop_references()

    def _drop_references(self) -> None:
        """Drop this op's own operand and successor uses."""
        for use in self._operands:
            use.drop()
        self._operands = []
        for successor in self._successors:
            successor.drop()
        self._successors = []

    def erase(self) -> None:
        """Remove from the IR; the results must have no uses left."""
        for result in self.results:
            if result.uses:
                users = ", ".join(sorted({u.owner.name for u in result.uses}))
                raise IRError(f"cannot erase '{self.name}': result #{result.index} is still "
                              f"used by {users}")
        self.detach()
        self.drop_all_references()

    def destroy(self) -> None:
        """Take apart this erased op and everything nested in it (MLIR's
        `Operation::destroy`): the op must be out of every block and is not to be used
        again.

        An op refers to its results and regions and they refer back; blocks and their
        ops link both ways. Without this, each erased op is a reference cycle that only
        Python's cyclic collector frees: lowering ResNet-18 erases some 40,000 ops, half
        a million objects, and collecting them took most of a second. Dismantled, the
        op is freed by reference counting the moment its last holder lets go.
        """
        if self.parent is not None:
            raise IRError(f"cannot destroy '{self.name}': it is still in a block")
        stack = [self]
        while stack:
            op = stack.pop()
            op._drop_references()
            for region in op.regions:
                for block in region.blocks:
                    child = block.first_op
                    while child is not None:
                        following = child.next_op
                        stack.append(child)
                        child.parent = child.prev_op = child.next_op = None
                        child = following
                    block.first_op = block.last_op = None
                    block._size = 0
                    for arg in block.args:
                        arg.block = None
                    block.args = []
                    block.parent = None
                region.blocks = []
                region.parent = None
            op.regions = []
            op.results = []

    def replace_all_uses_with(self, values: Sequence[Value]) -> None:
        if len(values) != len(self.results):
            raise IRError(f"replacing {len(self.results)} results of '{self.name}' with "
                          f"{len(values)} values")
        for result, value in zip(self.results, values):
            result.replace_all_uses_with(value)

    def clone(self, mapping: dict[Value, Value] | None = None,
              block_mapping: dict[Block, Block] | None = None) -> Operation:
        """A deep copy; operands found in `mapping` are remapped (and it is filled with
        the new results and block arguments)."""
        mapping = {} if mapping is None else mapping
        block_mapping = {} if block_mapping is None else block_mapping
        return _clone(self, mapping, block_mapping)

    def __repr__(self) -> str:
        return f"<{self.name} at {self.loc}>"

    def __str__(self) -> str:
        from mlc.ir.text.printer import print_op

        return print_op(self)


def _clone(root: Operation, mapping: dict[Value, Value], block_mapping: dict[Block, Block]) -> Operation:
    # Two passes: first create every op and block (so successors and forward uses in
    # graph regions can be remapped), then wire operands. Iterative for deep nesting.
    created: list[tuple[Operation, Operation]] = []
    stack: list[tuple[Operation, Block | None]] = [(root, None)]
    new_root = None
    while stack:
        op, new_parent = stack.pop()
        new = op.__class__.__new__(op.__class__)
        Operation.__init__(new, op.name, (), [r.type for r in op.results], op.attributes,
                           loc=op.loc, result_names=[r.name_hint for r in op.results])
        if op.properties is not None:
            new.properties = dict(op.properties)
        for old_r, new_r in zip(op.results, new.results):
            mapping[old_r] = new_r
        if new_parent is not None:
            new_parent.append(new)
        else:
            new_root = new
        created.append((op, new))
        pending = []
        for region in op.regions:
            new_region = new.add_region()
            for block in region.blocks:
                new_block = Block([a.type for a in block.args], [a.name_hint for a in block.args],
                                  [a.loc for a in block.args])
                block_mapping[block] = new_block
                for old_a, new_a in zip(block.args, new_block.args):
                    mapping[old_a] = new_a
                new_region.append(new_block)
                pending.extend((child, new_block) for child in block.ops())
        stack.extend(reversed(pending))
    for op, new in created:
        new._operands = [OpOperand(new, i, mapping.get(v, v)) for i, v in enumerate(op.operands)]
        new.set_successors([block_mapping.get(b, b) for b in op.successors])
    assert new_root is not None
    return new_root


class Block:
    """A list of ops (linked, for O(1) insert and erase) with typed arguments."""

    __slots__ = ("args", "parent", "first_op", "last_op", "_size", "uses", "__weakref__")

    def __init__(self, arg_types: Sequence[Type] = (), arg_names: Sequence[str | None] | None = None,
                 arg_locs: Sequence[Location | None] | None = None):
        self.args: list[BlockArgument] = []
        # The successor slots branching here: an insertion-ordered set, as Value.uses.
        self.uses: dict[BlockOperand, None] = {}
        self.parent: Region | None = None
        self.first_op: Operation | None = None
        self.last_op: Operation | None = None
        self._size = 0
        for i, t in enumerate(arg_types):
            self.args.append(BlockArgument(t, self, i, arg_names[i] if arg_names else None,
                                           arg_locs[i] if arg_locs else None))

    def add_argument(self, type_: Type, name_hint: str | None = None,
                     loc: Location | None = None) -> BlockArgument:
        arg = BlockArgument(type_, self, len(self.args), name_hint, loc)
        self.args.append(arg)
        return arg

    def insert_argument(self, index: int, type_: Type, name_hint: str | None = None,
                        loc: Location | None = None) -> BlockArgument:
        arg = BlockArgument(type_, self, index, name_hint, loc)
        self.args.insert(index, arg)
        for i, a in enumerate(self.args):
            a.index = i
        return arg

    def erase_argument(self, index: int) -> None:
        arg = self.args[index]
        if arg.uses:
            raise IRError(f"cannot erase block argument #{index}: it is still used")
        del self.args[index]
        for i, a in enumerate(self.args):
            a.index = i

    def ops(self) -> Iterator[Operation]:
        """The ops in order; safe against erasing the op just yielded."""
        op = self.first_op
        while op is not None:
            following = op.next_op
            yield op
            op = following

    __iter__ = ops

    def ops_reversed(self) -> Iterator[Operation]:
        op = self.last_op
        while op is not None:
            preceding = op.prev_op
            yield op
            op = preceding

    def __len__(self) -> int:
        return self._size

    def is_empty(self) -> bool:
        return self.first_op is None

    @property
    def terminator(self) -> Operation | None:
        return self.last_op

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    def append(self, op: Operation) -> Operation:
        return self.insert_before(op, None)

    def insert_before(self, op: Operation, anchor: Operation | None) -> Operation:
        """Insert `op` before `anchor` (at the end when `anchor` is None)."""
        if op.parent is not None:
            raise IRError(f"'{op.name}' is already in a block")
        op.parent = self
        if anchor is None:
            op.prev_op = self.last_op
            op.next_op = None
            if self.last_op is not None:
                self.last_op.next_op = op
            else:
                self.first_op = op
            self.last_op = op
        else:
            if anchor.parent is not self:
                raise IRError("insertion anchor is not in this block")
            op.prev_op = anchor.prev_op
            op.next_op = anchor
            if anchor.prev_op is not None:
                anchor.prev_op.next_op = op
            else:
                self.first_op = op
            anchor.prev_op = op
        self._size += 1
        return op

    def insert_after(self, op: Operation, anchor: Operation) -> Operation:
        return self.insert_before(op, anchor.next_op)

    def _unlink(self, op: Operation) -> None:
        if op.prev_op is not None:
            op.prev_op.next_op = op.next_op
        else:
            self.first_op = op.next_op
        if op.next_op is not None:
            op.next_op.prev_op = op.prev_op
        else:
            self.last_op = op.prev_op
        op.parent = op.prev_op = op.next_op = None
        self._size -= 1

    def erase(self) -> None:
        """Remove from its region; its ops and arguments must have no outside uses,
        and no terminator may branch to it."""
        if self.uses:
            raise IRError("cannot erase a block that terminators still branch to")
        for op in list(self.ops_reversed()):
            op.erase()
        if self.parent is not None:
            self.parent.blocks.remove(self)
            self.parent = None

    @property
    def successors(self) -> list[Block]:
        term = self.last_op
        return term.successors if term is not None else []

    # ------------------------------------------------------------------ predecessors

    @property
    def predecessors(self) -> list[Block]:
        """The block of each terminator successor slot naming this block: a block
        branching here twice (both ways of a conditional branch) is listed twice."""
        return [use.owner.parent for use in self.uses]

    def has_predecessors(self) -> bool:
        return bool(self.uses)

    @property
    def single_predecessor(self) -> Block | None:
        """The predecessor, if exactly one successor slot branches here (MLIR's
        getSinglePredecessor: two edges from one block are not single)."""
        if len(self.uses) != 1:
            return None
        return next(iter(self.uses)).owner.parent

    @property
    def unique_predecessor(self) -> Block | None:
        """The predecessor, if every edge here comes from one block."""
        found = None
        for use in self.uses:
            block = use.owner.parent
            if found is not None and block is not found:
                return None
            found = block
        return found

    def drop_all_references(self) -> None:
        """Drop every operand and successor use of the ops in the block (nested ones
        too): what erasing blocks that refer to each other needs first."""
        for op in self.ops():
            op.drop_all_references()

    def replace_all_uses_with(self, other: Block) -> None:
        """Make every terminator branching here branch to `other` instead."""
        for use in list(self.uses):
            use.set(other)

    @property
    def is_entry(self) -> bool:
        return self.parent is not None and self.parent.blocks[0] is self

    def __repr__(self) -> str:
        return f"<Block with {len(self.args)} args, {self._size} ops>"


class Region:
    """A list of blocks owned by an op."""

    __slots__ = ("blocks", "parent", "__weakref__")

    def __init__(self, blocks: Sequence[Block] = ()):
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for block in blocks:
            self.append(block)

    def append(self, block: Block) -> Block:
        if block.parent is not None:
            raise IRError("block already belongs to a region")
        block.parent = self
        self.blocks.append(block)
        return block

    def insert(self, index: int, block: Block) -> Block:
        if block.parent is not None:
            raise IRError("block already belongs to a region")
        block.parent = self
        self.blocks.insert(index, block)
        return block

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None

    def is_empty(self) -> bool:
        return not self.blocks

    def ops(self) -> Iterator[Operation]:
        for block in self.blocks:
            yield from block.ops()

    def __repr__(self) -> str:
        return f"<Region with {len(self.blocks)} blocks>"
