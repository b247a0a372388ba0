"""Control flow between an op and its regions: MLIR's RegionBranchOpInterface and
RegionBranchTerminatorOpInterface, declared as data.

An op with regions says where control may go from itself ("parent": entering the op)
and from the end of each region, by naming regions, or "parent" for leaving the op:

    # scf.for-like: enter the body or skip it; after the body, again or out.
    RegionBranch({"parent": ("body", "parent"), "body": ("body", "parent")},
                 entry_operands="initArgs")
    # scf.if-like: then or else; both leave. An empty region is passed through, so
    # an `if` without `else` may leave directly.
    RegionBranch({"parent": ("then", "else"), "then": ("parent",), "else": ("parent",)})

Values go along each edge: entering, the op's `entry_operands`; from a region, the
operands its terminator (a :class:`RegionBranchTerminator`) forwards. They arrive as a
region's entry-block arguments (after a loop's induction variables, which no branch
sets) or, leaving, as the op's results. The verifier checks that counts and types
agree along every edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlc.ir.core.ir import Operation, Region, Value
from mlc.ir.interfaces.loop_like import LoopLike
from mlc.ir.opdef.traits import Interface

PARENT = "parent"


@dataclass(frozen=True, eq=False)
class RegionSuccessor:
    """Where control goes: a region of the op (its entry block), or out of the op
    (`region` None). `inputs` receive the values passed along: entry-block arguments,
    or the op's results."""

    region: Region | None
    inputs: list[Value] = field(default_factory=list)

    @property
    def is_parent(self) -> bool:
        return self.region is None


class RegionBranch(Interface):
    """Where control flows between the op and its regions (see the module docstring)."""

    def __init__(self, flow: dict[str, tuple[str, ...]], *, entry_operands: str | None = None):
        self.flow = {point: tuple(targets) for point, targets in flow.items()}
        self.entry_operands_name = entry_operands

    @property
    def name(self) -> str:  # type: ignore[override]
        edges = "; ".join(f"{p} -> {', '.join(t)}" for p, t in self.flow.items())
        return f"RegionBranch({edges})"

    summary = "control flows between the op and its regions along declared edges"

    def bind(self, op_def) -> None:
        regions = {d.name for d in op_def.regions}
        for point, targets in self.flow.items():
            for name in (point, *targets):
                if name != PARENT and name not in regions:
                    raise TypeError(f"'{op_def.name}': RegionBranch names '{name}', which is "
                                    f"neither '{PARENT}' nor a region")
        if self.entry_operands_name is not None and \
                self.entry_operands_name not in {d.name for d in op_def.operands}:
            raise TypeError(f"'{op_def.name}': RegionBranch entry operands "
                            f"'{self.entry_operands_name}' names no operand")

    # ------------------------------------------------------------------ queries

    def _region_name(self, op: Operation, region: Region) -> str:
        return op.op_def.regions[op.regions.index(region)].name

    def successors(self, op: Operation, point: Region | None = None) -> list[RegionSuccessor]:
        """Where control may go from `point`: entering the op (None), or the end of one
        of its regions. An empty region is passed through: control goes on to where
        it would go after that region."""
        start = PARENT if point is None else self._region_name(op, point)
        found: list[RegionSuccessor] = []
        seen = {start} if start != PARENT else set()
        pending = list(reversed(self.flow.get(start, ())))
        while pending:
            name = pending.pop()
            if name == PARENT:
                if not any(s.is_parent for s in found):
                    found.append(RegionSuccessor(None, list(op.results)))
                continue
            region = getattr(op, name)
            if region.blocks:
                if all(s.region is not region for s in found):
                    found.append(RegionSuccessor(region, self.region_inputs(op, region)))
            elif name not in seen:
                seen.add(name)
                pending.extend(reversed(self.flow.get(name, ())))
        return found

    def region_inputs(self, op: Operation, region: Region) -> list[Value]:
        """The entry-block arguments of `region` that receive values passed along an
        edge: all of them, after a loop's induction variables."""
        args = list(region.blocks[0].args) if region.blocks else []
        loop = LoopLike.get(op)
        if loop is not None and region in loop.loop_regions(op):
            args = args[len(loop.induction_vars(op)):]
        return args

    def entry_operands(self, op: Operation) -> list[Value]:
        """The op's operands passed to the region control enters first."""
        if self.entry_operands_name is None:
            return []
        value = getattr(op, self.entry_operands_name)
        if value is None:
            return []
        return list(value) if isinstance(value, list) else [value]

    # ------------------------------------------------------------------ verification

    def verify(self, op: Operation) -> str | None:
        for successor in self.successors(op, None):
            message = _check_edge(op, "parent operands", successor, self.entry_operands(op))
            if message:
                return message
        for index, region in enumerate(op.regions):
            successors = None
            for block in region.blocks:
                terminator = block.terminator
                forwarding = RegionBranchTerminator.get(terminator) if terminator else None
                if forwarding is None:
                    continue
                if successors is None:
                    successors = self.successors(op, region)
                for successor in successors:
                    operands = forwarding.successor_operands(terminator, successor)
                    message = _check_edge(op, f"Region #{index}", successor, operands)
                    if message:
                        return message
        return None


def _check_edge(op: Operation, source: str, successor: RegionSuccessor,
                operands: list[Value]) -> str | None:
    target = "parent results" if successor.is_parent else \
        f"Region #{op.regions.index(successor.region)}"
    inputs = successor.inputs
    if len(operands) != len(inputs):
        return (f"along control flow edge from {source} to {target}: source has "
                f"{len(operands)} operands, but target successor needs {len(inputs)}")
    for i, (value, input_) in enumerate(zip(operands, inputs)):
        if value.type != input_.type:
            return (f"along control flow edge from {source} to {target}: source type #{i} "
                    f"'{value.type}' should match input type #{i} '{input_.type}'")
    return None


class RegionBranchTerminator(Interface):
    """A terminator that passes values on to where control goes next: the operands
    of the group named `forwarded`, or all its operands (`ReturnLike`)."""

    def __init__(self, forwarded: str | None = None):
        self.forwarded = forwarded

    @property
    def name(self) -> str:  # type: ignore[override]
        return "ReturnLike" if self.forwarded is None else \
            f"RegionBranchTerminator({self.forwarded})"

    summary = "passes its operands to the region or results control goes to next"

    def bind(self, op_def) -> None:
        if self.forwarded is not None and self.forwarded not in {d.name for d in op_def.operands}:
            raise TypeError(f"'{op_def.name}': RegionBranchTerminator operands "
                            f"'{self.forwarded}' names no operand")

    def successor_operands(self, op: Operation, successor: RegionSuccessor) -> list[Value]:
        """The operands passed to `successor`."""
        if self.forwarded is None:
            return op.operands
        value = getattr(op, self.forwarded)
        if value is None:
            return []
        return list(value) if isinstance(value, list) else [value]

    def successors(self, op: Operation) -> list[RegionSuccessor]:
        """Where control may go after `op`, as its parent op declares."""
        parent = op.parent_op
        branch = RegionBranch.get(parent) if parent is not None else None
        if branch is None or op.parent_region is None:
            return []
        return branch.successors(parent, op.parent_region)


ReturnLike = RegionBranchTerminator()
"""A terminator that passes all its operands on (MLIR's ReturnLike)."""
