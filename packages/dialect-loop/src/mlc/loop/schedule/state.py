"""The state every primitive family works on: the module (a copy, or the module itself
for a pass), the handles naming its blocks and loops, the trace, the seeded random
generator of the sampling primitives, and the machinery primitives share to rebuild
loop chains and rebind blocks. `get_block`, `get_loops` and `get_child_blocks` live
here too: every family starts from them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mlc.ir.core.affine_expr import AffineExpr, constant, dim
from mlc.ir.core.affine_map import AffineMap
from mlc.ir.core.attributes import Attribute
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.func import FuncOp
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.loop.ops import BlockOp, ForOp
from mlc.loop.schedule.errors import (
    InvalidHandleError,
    LoopVariableUsedError,
    NotFoundError,
    ScheduleArgumentError,
)
from mlc.loop.schedule.scope import loops_around
from mlc.loop.schedule.trace import _RV, BlockRV, LoopRV, Trace, primitive

__all__ = ["ScheduleState", "LoopHeader", "drop_unused_bindings", "substitute_loop_variable"]


class ScheduleState:
    """The module a schedule transforms (a copy of `module`, or with `copy=False`
    `module` itself, as a pass does), its handles and its trace; the primitive families
    (`mlc.loop.schedule.Schedule`) derive from it."""

    def __init__(self, module: Operation, seed: int | None = None, copy: bool = True,
                 decisions: Sequence[list | None] = ()):
        if seed is None:
            # A fresh seed each time (as TVM's Schedule draws one), so that a search
            # making one schedule per trial tries different decisions; it is kept in
            # the trace, and `Schedule(module, seed=trace.seed)` draws the same again.
            seed = random.SystemRandom().randrange(1 << 31)
        elif not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ScheduleArgumentError(f"a schedule's seed is an integer >= 0 or None, not "
                                        f"{seed!r}", module)
        self.mod = module.clone() if copy else module
        self.trace = Trace(seed=seed)
        self.seed = seed
        self._random = random.Random(seed)
        # The decisions the sampling primitives take instead of drawing, by their order
        # in the trace (a search replaying a space with some decisions kept: see
        # mlc.loop.schedule.sampling); None, or one that does not fit, is drawn.
        self._decisions = list(decisions)
        self._handles: dict[str, Operation] = {}
        self._count = 0
        self._replaying = False
        self._rewriter = Rewriter()

    # ------------------------------------------------------------- handles

    def _new(self, kind: type, op: Operation):
        handle = kind(f"{kind.prefix}{self._count}")
        self._count += 1
        self._handles[handle.name] = op
        return handle

    def get(self, handle: BlockRV | LoopRV) -> Operation:
        """The block or loop op a handle names now."""
        op = self._handles.get(getattr(handle, "name", None))
        if op is None:
            raise InvalidHandleError(f"{handle!r} is not a handle of this schedule", self.mod)
        if op.parent is None:
            raise InvalidHandleError(f"{handle!r} names a loop or block that a primitive removed",
                                     self.mod)
        return op

    def _block(self, handle: BlockRV) -> BlockOp:
        op = self.get(handle) if isinstance(handle, _RV) else None
        if not isinstance(op, BlockOp):
            raise InvalidHandleError(f"expected a block handle, got {handle!r}"
                                     + (" (a loop)" if op is not None else ""), op or self.mod)
        return op

    def _loop(self, handle: LoopRV) -> ForOp:
        op = self.get(handle) if isinstance(handle, _RV) else None
        if not isinstance(op, ForOp):
            raise InvalidHandleError(f"expected a loop handle, got {handle!r}"
                                     + (" (a block)" if op is not None else ""), op or self.mod)
        return op

    def _retarget(self, old: Operation, new: Operation) -> None:
        for name, op in self._handles.items():
            if op is old:
                self._handles[name] = new

    # ------------------------------------------------------------- queries

    @primitive
    def get_block(self, name: str, func_name: str = "main") -> BlockRV:
        """The block called `name` in function `func_name`."""
        if not isinstance(name, str) or not isinstance(func_name, str):
            raise ScheduleArgumentError(
                "get_block takes a block name and a function name (strings), "
                f"got {name!r} and {func_name!r}", self.mod)
        func = self._function(func_name)
        found = [op for op in func.walk() if isinstance(op, BlockOp)
                 and op.block_name_str == name]
        if not found:
            raise NotFoundError(f'no block named "{name}" in @{func_name}', func)
        if len(found) > 1:
            raise NotFoundError(f'{len(found)} blocks are named "{name}" in @{func_name}',
                                found[1])
        return self._new(BlockRV, found[0])

    @primitive
    def get_loops(self, block: BlockRV) -> list[LoopRV]:
        """The loops around `block`, outermost first."""
        return [self._new(LoopRV, loop_op) for loop_op in loops_around(self._block(block))]

    @primitive
    def get_child_blocks(self, parent: BlockRV | LoopRV) -> list[BlockRV]:
        """The blocks nested in a loop (or a block), in program order."""
        op = self.get(parent)
        return [self._new(BlockRV, b) for b in op.walk() if isinstance(b, BlockOp)
                and b is not op]

    def _function(self, name: str) -> Operation:
        for op in self.mod.regions[0].blocks[0].ops():
            sym = op.attributes.get("sym_name")
            if isinstance(op, FuncOp) and sym is not None and sym.value == name:
                return op
        raise NotFoundError(f"no function named @{name}", self.mod)

    # ------------------------------------------------------------- machinery

    def _require_only_bindings_use(self, loop_op: ForOp) -> None:
        for use in loop_op.induction_variable.uses:
            if not isinstance(use.owner, BlockOp):
                raise LoopVariableUsedError(
                    f"the loop variable is used by '{use.owner.name}', not only by block "
                    "bindings", use.owner)

    def _rebuild_chain(self, chain: list[ForOp], headers: list[LoopHeader]) -> list[ForOp]:
        """New directly nested loops with `headers`, put where `chain[0]` is, holding
        the body of `chain[-1]` (moved). The old loops stay until `_erase_chain`."""
        rewriter = self._rewriter
        rewriter.set_insertion_point_before(chain[0])
        new_loops = []
        for header in headers:
            new_loop = ForOp.create_loop(header.extent, header.kind, header.annotations)
            new_loop.induction_variable.name_hint = header.name
            if new_loops:
                rewriter.set_insertion_point_to_end(new_loops[-1].body_block)
            rewriter.insert(new_loop)
            new_loops.append(new_loop)
        target = new_loops[-1].body_block
        for op in list(chain[-1].body_block.ops()):
            rewriter.move_op_before(op, target, None)
        return new_loops

    def _erase_chain(self, top: ForOp) -> None:
        self._rewriter.erase_op(top)

    def _substitute(self, old: Value, new_vars: list[Value], value: AffineExpr) -> None:
        substitute_loop_variable(self._rewriter, old, new_vars, value)

    def _add_condition(self, block: BlockOp, variables: list[Value], expr: AffineExpr,
                       bound: int) -> None:
        """Add the condition `expr < bound` to `block`'s predicate, `expr` an affine
        expression of `variables` (dimension n is variables[n])."""
        operands = list(block.bindings)
        for var in variables:
            if var not in operands:
                operands.append(var)
        condition = expr.replace_dims_and_symbols(
            [dim(operands.index(v)) for v in variables], [])
        binding_map = block.binding_map.value
        with self._rewriter.modify_op_in_place(block):
            block.rebind(operands, AffineMap(len(operands), 0, binding_map.results),
                         [*block.predicate_conditions, (condition, bound)])


@dataclass
class LoopHeader:
    """What a loop is apart from its body: extent, kind, annotations, variable name."""

    extent: int
    kind: str
    annotations: dict[str, Attribute]
    name: str

    @staticmethod
    def of(loop_op: ForOp) -> LoopHeader:
        return LoopHeader(loop_op.extent.value, loop_op.loop_kind, loop_op.annotations,
                       loop_op.induction_variable.name_hint or "i")


def substitute_loop_variable(rewriter: Rewriter, old: Value, new_vars: list[Value],
                             value: AffineExpr) -> None:
    """Replace loop variable `old` in every block binding (and predicate) by
    `value`, an affine expression of `new_vars` (dimension n is new_vars[n])."""
    for use in list(old.uses):
        block = use.owner
        operands = list(block.bindings)
        binding_map = block.binding_map.value
        for var in new_vars:
            if var not in operands:
                operands.append(var)
        index_of_old = use.index
        positions = [operands.index(v) for v in new_vars]
        replacement = value.replace_dims_and_symbols([dim(p) for p in positions], [])
        dims = [dim(n) for n in range(len(operands))]
        dims[index_of_old] = replacement
        dims = dims[:binding_map.num_dims]
        results = tuple(e.replace_dims_and_symbols(dims, []) for e in binding_map.results)
        conditions = [(e.replace_dims_and_symbols(dims, []), bound)
                      for e, bound in block.predicate_conditions]
        with rewriter.modify_op_in_place(block):
            block.rebind(operands, AffineMap(len(operands), 0, results), conditions)
            drop_unused_bindings(block)


def drop_unused_bindings(block: BlockOp) -> None:
    """Remove binding operands neither the map nor the predicate uses (and duplicates),
    so the printed bindings name only the loops they depend on."""
    binding_map = block.binding_map.value
    conditions = block.predicate_conditions
    operands = list(block.bindings)
    keep: list[int] = []
    seen: dict[int, int] = {}
    replacement = []
    for d, value in enumerate(operands):
        used = any(e.is_function_of_dim(d) for e in
                   (*binding_map.results, *(expr for expr, _ in conditions)))
        if not used:
            replacement.append(constant(0))
            continue
        key = id(value)
        if key in seen:
            replacement.append(dim(seen[key]))
            continue
        seen[key] = len(keep)
        replacement.append(dim(len(keep)))
        keep.append(d)
    if len(keep) == len(operands):
        return
    results = tuple(e.replace_dims_and_symbols(replacement, []) for e in binding_map.results)
    block.rebind([operands[d] for d in keep], AffineMap(len(keep), 0, results),
                 [(e.replace_dims_and_symbols(replacement, []), bound)
                  for e, bound in conditions])


