"""Loops: MLIR's LoopLikeOpInterface, declared as data.

    @test.op
    class ForOp(Op):
        name = "test.for"
        lowerBound = OperandDef(Index)
        upperBound = OperandDef(Index)
        step = OperandDef(Index)
        initArgs = OperandDef(variadic=True)
        results = ResultDef(variadic=True)
        body = RegionDef(single_block=True)
        traits = (LoopLike(lower_bounds="lowerBound", upper_bounds="upperBound",
                           steps="step", inits="initArgs"), ...)

The body's entry block starts with one induction variable per lower bound, then one
argument per loop-carried value (`inits`), which the body's terminator yields to the
next iteration and, after the last, to the op's results. A bound or step may be an
attribute instead of an operand (a loop with constant bounds).
"""

from __future__ import annotations

from mlc.ir.core.attributes import Attribute
from mlc.ir.core.ir import BlockArgument, Operation, Region, Value
from mlc.ir.opdef.traits import Interface


class LoopLike(Interface):
    """A loop: its body region(s), induction variables, bounds, steps and
    loop-carried values, each named in the declaration."""

    def __init__(self, *, body: str | tuple[str, ...] = "body", lower_bounds: str | None = None,
                 upper_bounds: str | None = None, steps: str | None = None,
                 inits: str | None = None, results: bool = True):
        self.body = (body,) if isinstance(body, str) else tuple(body)
        # Whether the op's results are the loop-carried values after the last
        # iteration (not so for scf.while, whose results come from its condition).
        self.has_loop_results = results
        self.lower_bounds_name = lower_bounds
        self.upper_bounds_name = upper_bounds
        self.steps_name = steps
        self.inits_name = inits

    name = "LoopLike"
    summary = "a loop: body, induction variables, bounds, steps, loop-carried values"
    verifies_regions = True

    def bind(self, op_def) -> None:
        regions = {d.name for d in op_def.regions}
        for name in self.body:
            if name not in regions:
                raise TypeError(f"'{op_def.name}': LoopLike body '{name}' names no region")
        values = {d.name for d in op_def.operands} | set(op_def.attributes)
        for name in (self.lower_bounds_name, self.upper_bounds_name, self.steps_name):
            if name is not None and name not in values:
                raise TypeError(f"'{op_def.name}': LoopLike bound '{name}' names no operand "
                                "or attribute")
        if self.inits_name is not None and self.inits_name not in {d.name for d in op_def.operands}:
            raise TypeError(f"'{op_def.name}': LoopLike inits '{self.inits_name}' names no operand")

    # ------------------------------------------------------------------ structure

    def loop_regions(self, op: Operation) -> list[Region]:
        """The regions that run on each iteration."""
        return [getattr(op, name) for name in self.body]

    @staticmethod
    def _group(op: Operation, name: str | None) -> list:
        if name is None:
            return []
        value = getattr(op, name)
        if value is None:
            return []
        return list(value) if isinstance(value, list) else [value]

    def lower_bounds(self, op: Operation) -> list[Value | Attribute]:
        """One lower bound per induction variable (values or constant attributes)."""
        return self._group(op, self.lower_bounds_name)

    def upper_bounds(self, op: Operation) -> list[Value | Attribute]:
        """One upper bound (exclusive) per induction variable."""
        return self._group(op, self.upper_bounds_name)

    def steps(self, op: Operation) -> list[Value | Attribute]:
        """One step per induction variable."""
        return self._group(op, self.steps_name)

    def induction_vars(self, op: Operation) -> list[BlockArgument]:
        """The body's leading entry-block arguments, one per lower bound."""
        entry = self.loop_regions(op)[0].entry
        if entry is None:
            return []
        return entry.args[:len(self.lower_bounds(op))]

    def inits(self, op: Operation) -> list[Value]:
        """The initial values of the loop-carried values."""
        return self._group(op, self.inits_name)

    def region_iter_args(self, op: Operation) -> list[BlockArgument]:
        """The body's arguments that carry values from one iteration to the next."""
        entry = self.loop_regions(op)[0].entry
        if entry is None:
            return []
        return entry.args[len(self.lower_bounds(op)):]

    def yielded_values(self, op: Operation) -> list[Value]:
        """What the body's terminator passes to the next iteration (nothing for a loop
        without loop-carried values)."""
        if self.inits_name is None:
            return []
        entry = self.loop_regions(op)[-1].entry
        terminator = entry.terminator if entry is not None else None
        return terminator.operands if terminator is not None else []

    def loop_results(self, op: Operation) -> list[Value]:
        """The op's results: the loop-carried values after the last iteration."""
        return list(op.results) if self.inits_name is not None and self.has_loop_results \
            else []

    # ------------------------------------------------------------------ verification

    def verify(self, op: Operation) -> str | None:
        """MLIR's checks of the loop-carried values: as many inits, region iter_args,
        yielded values and results, of the same types."""
        if self.inits_name is None:
            return None
        inits, iter_args = self.inits(op), self.region_iter_args(op)
        yielded, results = self.yielded_values(op), self.loop_results(op)
        if len(inits) != len(iter_args):
            return (f"different number of inits and region iter_args: {len(inits)} != "
                    f"{len(iter_args)}")
        if yielded and len(iter_args) != len(yielded):
            return (f"different number of region iter_args and yielded values: "
                    f"{len(iter_args)} != {len(yielded)}")
        if self.has_loop_results and len(results) != len(iter_args):
            return (f"different number of loop results and region iter_args: "
                    f"{len(results)} != {len(iter_args)}")
        for i, (init, arg) in enumerate(zip(inits, iter_args)):
            if init.type != arg.type:
                return (f"{i}-th init and {i}-th region iter_arg have different type: "
                        f"'{init.type}' != '{arg.type}'")
            if yielded and arg.type != yielded[i].type:
                return (f"{i}-th region iter_arg and {i}-th yielded value have different "
                        f"type: '{arg.type}' != '{yielded[i].type}'")
        for i, (arg, result) in enumerate(zip(iter_args, results)):
            if arg.type != result.type:
                return (f"{i}-th region iter_arg and {i}-th loop result have different "
                        f"type: '{arg.type}' != '{result.type}'")
        return None

    # ------------------------------------------------------------------ hoisting

    def is_defined_outside(self, op: Operation, value: Value) -> bool:
        """Whether `value` is defined outside the loop's regions (so it is the same on
        every iteration)."""
        owner = value.block.parent_op if isinstance(value, BlockArgument) else value.defining_op
        return owner is None or not op.is_ancestor_of(owner) or (
            owner is op and not isinstance(value, BlockArgument))

    def move_out_of_loop(self, op: Operation, child: Operation, rewriter) -> None:
        """Move `child`, an op of the loop body, to just before the loop."""
        rewriter.move_op_before(child, op.parent, op)
