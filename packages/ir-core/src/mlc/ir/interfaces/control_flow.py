"""Control flow, declared as data: between an op and its regions (MLIR's
RegionBranchOpInterface and RegionBranchTerminatorOpInterface), and between the
blocks of a region (MLIR's BranchOpInterface: :class:`BranchLike`, at the end).

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
    verifies_regions = True

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

    def verify(self, op: Operation):
        from mlc.ir.diagnostics import Diagnostic

        for successor in self.successors(op, None):
            message = _check_edge(op, "parent", successor, self.entry_operands(op))
            if message:
                diagnostic = Diagnostic("error", f"'{op.name}' op {message}", op.loc)
                diagnostic.add_note("region branch point", op.loc)
                return diagnostic
        for region in op.regions:
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
                    message = _check_edge(op, f"Operation {terminator.name}", successor,
                                          operands)
                    if message:
                        diagnostic = Diagnostic("error", f"'{op.name}' op {message}", op.loc)
                        diagnostic.add_note("region branch point", terminator.loc)
                        return diagnostic
        return None


def _check_edge(op: Operation, source: str, successor: RegionSuccessor,
                operands: list[Value]) -> str | None:
    # MLIR 22's words: the source is "parent" or the terminator ("Operation scf.yield").
    target = "parent" if successor.is_parent else \
        f"Region #{op.regions.index(successor.region)}"
    inputs = successor.inputs
    if len(operands) != len(inputs):
        return (f"along control flow edge from {source} to {target}: region branch point "
                f"has {len(operands)} operands, but region successor needs {len(inputs)} "
                "inputs")
    for i, (value, input_) in enumerate(zip(operands, inputs)):
        if value.type != input_.type:
            return (f"along control flow edge from {source} to {target}: successor operand "
                    f"type #{i} '{value.type}' should match successor input type #{i} "
                    f"'{input_.type}'")
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


# ---------------------------------------------------------------------- branches


class BranchLike(Interface):
    """A terminator that branches to successor blocks, passing each some of its
    operands as the block's arguments (MLIR's BranchOpInterface), declared by naming,
    for each successor in order, the operand group it receives:

        BranchLike("dest_operands")                                # cf.br
        BranchLike("true_dest_operands", "false_dest_operands")    # cf.cond_br
        BranchLike("default_operands", "case_operands",            # cf.switch
                   segments="case_operand_segments")

    With `segments`, the last group feeds every remaining (variadic) successor: the
    dense i32 array attribute it names splits that group, one count per successor.
    `weights` names an optional dense i32 array attribute holding one branch weight
    per successor (MLIR's WeightedBranchOpInterface). The verifier checks that each
    successor gets as many values as it has arguments, of the same types, and that
    there is a weight for each successor.
    """

    def __init__(self, *groups: str, segments: str | None = None, weights: str | None = None):
        if not groups:
            raise ValueError("BranchLike names the operand group of each successor")
        self.groups = groups
        self.segments = segments
        self.weights = weights

    @property
    def name(self) -> str:  # type: ignore[override]
        split = f", split by {self.segments}" if self.segments else ""
        return f"BranchLike({', '.join(self.groups)}{split})"

    summary = "branches to its successors, passing operand groups as block arguments"

    def bind(self, op_def) -> None:
        operands = {d.name for d in op_def.operands}
        for group in self.groups:
            if group not in operands:
                raise TypeError(f"'{op_def.name}': BranchLike names '{group}', which is no "
                                "operand group")
        for attr in (self.segments, self.weights):
            if attr is not None and attr not in op_def.attributes:
                raise TypeError(f"'{op_def.name}': BranchLike names '{attr}', which is no "
                                "attribute")
        self._group_index = [next(d.index for d in op_def.operands if d.name == g)
                             for g in self.groups]

    # ------------------------------------------------------------------ queries

    def _split_counts(self, op: Operation) -> list[int]:
        """How many values of the last group each variadic successor gets."""
        attr = op.attributes.get(self.segments) if self.segments else None
        return [int(n) for n in getattr(attr, "values", ())]

    def successor_operand_range(self, op: Operation, index: int) -> tuple[int, int]:
        """(first operand index, count) of the operands passed to successor `index`."""
        fixed = len(self.groups) - (1 if self.segments else 0)
        if index < fixed:
            return op.op_def.operand_segment(op, self._group_index[index])
        start, _ = op.op_def.operand_segment(op, self._group_index[-1])
        counts = self._split_counts(op)
        offset = index - fixed
        return start + sum(counts[:offset]), counts[offset] if offset < len(counts) else 0

    def successor_operands(self, op: Operation, index: int) -> list[Value]:
        """The values passed to successor `index`."""
        start, size = self.successor_operand_range(op, index)
        return [o.value for o in op.op_operands[start:start + size]]

    def successor_for_operand(self, op: Operation, operand_index: int) -> tuple[int, int] | None:
        """(successor index, argument index) that operand `operand_index` feeds, or None
        for an operand that is not passed to a successor (a condition)."""
        for successor in range(len(op.successors)):
            start, size = self.successor_operand_range(op, successor)
            if start <= operand_index < start + size:
                return successor, operand_index - start
        return None

    def set_successor_operands(self, op: Operation, index: int, values: list[Value]) -> None:
        """Pass `values` to successor `index` instead (segment sizes follow)."""
        op_def = op.op_def
        groups = op_def.operand_groups(op)
        fixed = len(self.groups) - (1 if self.segments else 0)
        if index < fixed:
            groups[self._group_index[index]] = list(values)
        else:
            counts = self._split_counts(op)
            split, rest = [], groups[self._group_index[-1]]
            for count in counts:
                split.append(rest[:count])
                rest = rest[count:]
            split[index - fixed] = list(values)
            groups[self._group_index[-1]] = [v for part in split for v in part]
            from mlc.ir.core.attributes import DenseArrayAttr, i32

            op.attributes[self.segments] = DenseArrayAttr(i32, tuple(len(p) for p in split))
        op_def.set_operand_groups(op, groups)

    # ------------------------------------------------------------------ verification

    def verify(self, op: Operation):
        from mlc.ir.diagnostics import Diagnostic

        fixed = len(self.groups) - (1 if self.segments else 0)
        if self.segments is not None:
            counts = self._split_counts(op)
            start, size = op.op_def.operand_segment(op, self._group_index[-1])
            if sum(counts) != size:
                return (f"{self.groups[-1]} count ({size}) does not match with the total "
                        f"size ({sum(counts)}) specified in attribute '{self.segments}'")
            if len(counts) != len(op.successors) - fixed:
                return (f"'{self.segments}' has {len(counts)} entries, but the op has "
                        f"{len(op.successors) - fixed} case successors")
        # MLIR's words, which do not name the op.
        for index, block in enumerate(op.successors):
            values = self.successor_operands(op, index)
            if len(values) != len(block.args):
                return Diagnostic("error", f"branch has {len(values)} operands for successor "
                                  f"#{index}, but target block has {len(block.args)}", op.loc)
            for i, (value, arg) in enumerate(zip(values, block.args)):
                if value.type != arg.type:
                    return Diagnostic("error", f"type mismatch for bb argument #{i} of "
                                      f"successor #{index}", op.loc)
        weights = op.attributes.get(self.weights) if self.weights else None
        if weights is not None and len(weights.values) != len(op.successors):
            return Diagnostic("error", "expects number of branch weights to match number of "
                              f"successors: {len(weights.values)} vs {len(op.successors)}",
                              op.loc)
        return None
