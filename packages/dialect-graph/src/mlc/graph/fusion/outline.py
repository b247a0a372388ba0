"""Outlining fusion groups: each group becomes a private `func.func @fused_<ops>`
marked `graph.primitive`, and the function it came from calls it.

A group's inputs are the values its ops read from outside it; rank-0 constants are
copied into the kernel instead (TVM inlines scalar constants), larger constants stay
in the caller and are passed in. Its outputs are the results used outside it, in op
order. Calls, and the ops that stay in the caller, are placed in a topological order
(earliest first op first), which exists because groups are convex.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from mlc.graph.fusion.partition import Group, Partition
from mlc.graph.names import unique_name
from mlc.graph.op_base import GraphOp, PatternKind
from mlc.graph.ops.constant import ConstantOp
from mlc.ir import (
    Block,
    FunctionType,
    Operation,
    Region,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    Value,
)
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.ir.rewrite import Rewriter

PRIMITIVE = "graph.primitive"  # marks a kernel function fuse-ops created
_MAX_NAME_LENGTH = 80  # as TVM: long group names are cut, then made unique


def is_primitive(fn: Operation) -> bool:
    """True for a function fuse-ops outlined (a kernel)."""
    return PRIMITIVE in fn.attributes


def _outlined(op: Operation) -> bool:
    return isinstance(op, GraphOp) and not isinstance(op, ConstantOp)


def _is_scalar_constant(value: Value) -> bool:
    """A constant fusion treats as elementwise: copied into each kernel that reads it."""
    op = value.defining_op
    return isinstance(op, ConstantOp) and op.pattern_of(op) == PatternKind.ELEMWISE


class _Kernel:
    __slots__ = ("ops", "position", "inputs", "outputs", "members")

    def __init__(self, ops: list[Operation], position: dict[Operation, int]):
        self.ops = ops
        self.members = set(ops)
        self.position = position[ops[0]]
        inputs: dict[Value, None] = {}
        for op in ops:
            for value in op.operands:
                owner = value.defining_op
                if owner not in self.members and not _is_scalar_constant(value):
                    inputs[value] = None
        self.inputs = list(inputs)
        self.outputs = [r for op in ops for r in op.results
                        if any(use.owner not in self.members for use in r.uses)]


def outline_groups(block: Block, partition: Partition, symbols: set[str],
                   rewriter: Rewriter | None = None, after: Operation | None = None) -> list[FuncOp]:
    """Replace each group of graph ops in `block` (of a function) by a call to a new
    kernel function, inserted after `after` (by default the function); `symbols` holds
    the names in use (updated). Scalar constants copied into kernels are left behind
    unused (for the caller's dead-op sweep)."""
    rewriter = rewriter or Rewriter()
    terminator = block.terminator
    position = {op: i for i, op in enumerate(block.ops())}
    by_group: dict[Group, list[Operation]] = {}
    for node in partition.graph.nodes:
        if node.kind == "op" and _outlined(node.op):
            by_group.setdefault(partition.group_of(node), []).append(node.op)
    kernels = [_Kernel(sorted(ops, key=position.__getitem__), position) for ops in by_group.values()]
    outlined = {op for kernel in kernels for op in kernel.ops}
    # The ops that stay (constants, calls, other dialects' ops) are ordered with the
    # kernels: a call may read a kernel's result and feed another kernel.
    kept = [op for op in block.ops() if op is not terminator and op not in outlined]
    anchor: Operation = after or block.parent_op
    created = []
    replaced: dict[Value, Value] = {}  # outputs of kernels already outlined -> call results
    for unit in _topological(kernels, kept, block, position):
        rewriter.set_insertion_point_before(terminator)
        if isinstance(unit, Operation):
            rewriter.insert(unit.detach())  # moved into dataflow order
            continue
        kernel = unit
        if not kernel.outputs:
            for op in reversed(kernel.ops):  # dead: nothing to call
                rewriter.erase_op(op)
            continue
        kernel.inputs = [replaced.get(v, v) for v in kernel.inputs]
        name = unique_name(_kernel_name(kernel.ops), symbols)
        symbols.add(name)
        kernel_fn = _build_kernel(name, kernel)
        call = rewriter.insert(CallOp.build(
            kernel.inputs, callee=_symbol(name), result_types=[v.type for v in kernel.outputs],
            loc=kernel.ops[-1].loc))
        rewriter.set_insertion_point_after(anchor)
        rewriter.insert(kernel_fn)
        anchor = kernel_fn
        created.append(kernel_fn)
        for output, result in zip(kernel.outputs, call.results):
            replaced[output] = result
            for use in list(output.uses):
                if use.owner not in kernel.members:
                    rewriter.set_operand(use.owner, use.index, result)
        for op in reversed(kernel.ops):
            rewriter.erase_op(op)
    return created


def _topological(kernels: list[_Kernel], kept: list[Operation], block: Block,
                 position: dict[Operation, int]) -> list:
    """Kernels and the ops that stay, ordered so each comes after what it reads;
    among the ready ones, the one whose first op came first goes first (deterministic,
    close to the source order). Groups are convex, so such an order exists."""
    units: list = [*kernels, *kept]
    unit_of: dict[Operation, int] = {}
    for i, kernel in enumerate(kernels):
        for op in kernel.ops:
            unit_of[op] = i
    for i, op in enumerate(kept, start=len(kernels)):
        unit_of[op] = i

    def top_level(value: Value) -> Operation | None:
        owner = value.defining_op
        while owner is not None and owner.parent is not block:
            owner = owner.parent_op
        return owner

    readers: list[list[int]] = [[] for _ in units]
    waiting = [0] * len(units)
    for i, unit in enumerate(units):
        if isinstance(unit, _Kernel):
            reads = [v for op in unit.ops for v in op.operands]
        else:
            reads = [v for nested in unit.walk() for v in nested.operands]
        sources = {unit_of[owner] for v in reads
                   if (owner := top_level(v)) is not None and owner in unit_of} - {i}
        waiting[i] = len(sources)
        for s in sources:
            readers[s].append(i)
    # Constants read nothing: they go first, as a function's weights are listed.
    key = [(1, u.position) if isinstance(u, _Kernel)
           else (0 if isinstance(u, ConstantOp) else 1, position[u]) for u in units]
    ready = [(key[i], i) for i in range(len(units)) if waiting[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, i = heapq.heappop(ready)
        order.append(units[i])
        for r in readers[i]:
            waiting[r] -= 1
            if waiting[r] == 0:
                heapq.heappush(ready, (key[r], r))
    return order


def _kernel_name(ops: Sequence[Operation]) -> str:
    name = "fused_" + "_".join(op.name.split(".", 1)[1] for op in ops)
    if len(name) > _MAX_NAME_LENGTH:
        name = name[:_MAX_NAME_LENGTH].rstrip("_")
    return name


def _symbol(name: str) -> SymbolRefAttr:
    return SymbolRefAttr(name)


def _build_kernel(name: str, kernel: _Kernel) -> FuncOp:
    body = Block([v.type for v in kernel.inputs],
                 [f"p{i}" for i in range(len(kernel.inputs))])
    mapping: dict[Value, Value] = dict(zip(kernel.inputs, body.args))
    for op in kernel.ops:
        for value in op.operands:
            if value not in mapping and _is_scalar_constant(value):
                body.append(value.defining_op.clone(mapping))  # clone maps the result
        body.append(op.clone(mapping))
    body.append(ReturnOp.build([mapping[v] for v in kernel.outputs]))
    fn_type = FunctionType(tuple(v.type for v in kernel.inputs), tuple(v.type for v in kernel.outputs))
    fn = FuncOp.build(sym_name=StringAttr(name), function_type=TypeAttr(fn_type),
                      sym_visibility=StringAttr("private"), regions=[Region([body])],
                      loc=kernel.ops[-1].loc)
    fn.attributes[PRIMITIVE] = UnitAttr()
    return fn
