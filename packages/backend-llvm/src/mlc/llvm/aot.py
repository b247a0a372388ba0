"""A model's entry function made ready to be one native entry point (TVM's AOT
executor): what it reads from constant globals and what it allocates become its
arguments, so weights are bound once as pointers and the workspace allocated once.

    resources = bind_entry_resources(module, "main")
    # @main(%inputs..., %outputs..., %params..., %workspaces...)

After graph-lower-to-loop and loop-plan-memory, `@main` (destination-passing: inputs,
then output buffers) reads weights with `memref.get_global` of constant globals and
allocates its intermediate storage with `memref.alloc`. Here each distinct global read
becomes a parameter argument (its value handed to the caller, the global erased when
nothing else reads it), each top-level `memref.alloc` a workspace argument (its
`memref.dealloc`s erased). The weights never reach the LLVM IR text; the runtime binds
them at load time. The change goes through a :class:`~mlc.ir.rewrite.rewriter.Rewriter`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mlc.ir.core.attributes import (
    ArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    TypeAttr,
)
from mlc.ir.core.ir import Operation
from mlc.ir.dialects import memref
from mlc.ir.dialects.func import FuncOp
from mlc.ir.rewrite.rewriter import Rewriter


class EntryError(ValueError):
    """The module has no entry function this can prepare."""


@dataclass
class EntryResources:
    """What the entry function's new arguments stand for, in argument order after
    the original ones."""

    params: list[tuple[str, MemRefType, np.ndarray]] = field(default_factory=list)
    workspaces: list[tuple[str, MemRefType]] = field(default_factory=list)


def _find_function(module: Operation, name: str) -> Operation:
    for op in module.regions[0].blocks[0].ops():
        if isinstance(op, FuncOp) and op.sym_name.value == name:
            if not op.regions[0].blocks:
                raise EntryError(f"@{name} is a declaration; the entry needs a body")
            return op
    raise EntryError(f"the module has no function @{name}")


def _globals(module: Operation) -> dict[str, Operation]:
    return {op.attributes["sym_name"].value: op for op in module.regions[0].blocks[0].ops()
            if isinstance(op, memref.GlobalOp)}


def _value_of(global_op: Operation) -> np.ndarray | None:
    value = global_op.attributes.get("initial_value")
    type_ = global_op.attributes["type"].value
    if not isinstance(value, (DenseElementsAttr, DenseResourceElementsAttr)):
        return None
    array = np.asarray(value.array() if callable(value.array) else value.array)
    # np.ascontiguousarray would make a 0-d value 1-d.
    return np.asarray(np.broadcast_to(array, type_.shape), order="C")


def bind_entry_resources(module: Operation, entry: str = "main") -> EntryResources:
    """Rewrite `entry` of `module` so its constant globals and top-level allocations
    are arguments; what each new argument is (see the module docstring)."""
    fn = _find_function(module, entry)
    body = fn.regions[0].blocks[0]
    rewriter = Rewriter()
    resources = EntryResources()
    globals_ = _globals(module)
    # First what becomes an argument, then the arguments: all parameters, then all
    # workspaces, whatever the order of the ops that read and allocate them.
    reads: dict[str, list[Operation]] = {}
    allocations: list[Operation] = []
    for op in body.ops():
        if isinstance(op, memref.GetGlobalOp):
            global_op = globals_.get(op.attributes["name"].root)
            if global_op is not None and "constant" in global_op.attributes \
                    and _value_of(global_op) is not None:
                reads.setdefault(global_op.attributes["sym_name"].value, []).append(op)
        elif isinstance(op, memref.AllocOp) and not op.operands:
            allocations.append(op)
    param_args: dict[str, object] = {}
    for symbol, ops in reads.items():
        first = ops[0]
        name = first.results[0].name_hint or symbol.removeprefix("__constant_")
        arg = body.add_argument(first.results[0].type, name, first.loc)
        param_args[symbol] = arg
        resources.params.append((name, first.results[0].type, _value_of(globals_[symbol])))
        for op in ops:
            rewriter.replace_op(op, [arg])
    for op in allocations:
        type_ = op.results[0].type
        name = op.results[0].name_hint or f"workspace{len(resources.workspaces)}"
        arg = body.add_argument(type_, name, op.loc)
        for user in list(op.results[0].users):
            if isinstance(user, memref.DeallocOp):
                rewriter.erase_op(user)
        rewriter.replace_op(op, [arg])
        resources.workspaces.append((name, type_))
    added = len(resources.params) + len(resources.workspaces)
    if added:
        old = fn.attributes["function_type"].value
        fn.attributes["function_type"] = TypeAttr(FunctionType(
            tuple(a.type for a in body.args), old.results))
        arg_attrs = fn.attributes.get("arg_attrs")
        if isinstance(arg_attrs, ArrayAttr):
            fn.attributes["arg_attrs"] = ArrayAttr(
                tuple(arg_attrs) + (DictionaryAttr(()),) * added)
    referenced = _referenced_globals(module)
    for symbol in param_args:
        if symbol not in referenced:
            rewriter.erase_op(globals_[symbol])
    return resources


def _referenced_globals(module: Operation) -> set[str]:
    """The globals some `memref.get_global` of `module` still reads (one walk)."""
    return {op.attributes["name"].root for op in module.walk()
            if isinstance(op, memref.GetGlobalOp)}
