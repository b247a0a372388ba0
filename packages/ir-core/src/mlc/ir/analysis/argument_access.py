"""Which buffer arguments a function reads, writes, or both: from the memory effects
of the ops that use them (:mod:`mlc.ir.interfaces.side_effects`).

    access = ArgumentAccess(module)
    access.of(fn)            # [Access.READ, Access.READ, Access.WRITE]: mm_relu(A, B, C)

An argument's access is the union of the effects on it and on every view of it, where
a view is the memref result of an op with no memory effects of its own that takes
memref operands (`memref.subview`, `cast`, `view`, `reinterpret_cast`,
`expand_shape`/`collapse_shape`, `loop.view`): such an op only renames memory. A
`func.call` passes on the callee's access to that argument (the callee analysed in
turn; a declaration, whose body is unknown, may do both unless MLIR's argument
attributes `llvm.readonly`, `llvm.writeonly` or `llvm.readnone` say otherwise). Any other use the effects do
not describe — an op with unknown effects, a value passed into a region, a branch or
a return — counts as both, so the answer may be more than what happens, never less:
what the native runtime relies on when it lets read-only arrays be passed to what is
only read.
"""

from __future__ import annotations

import enum

from mlc.ir.core.attributes import ArrayAttr, MemRefType
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.func.ops import CallOp, FuncOp
from mlc.ir.interfaces.side_effects import EffectKind, own_effects
from mlc.ir.opdef.traits import IsTerminator

__all__ = ["Access", "ArgumentAccess", "argument_access"]


class Access(enum.Flag):
    """What a function may do to the memory an argument points to."""

    NONE = 0
    READ = enum.auto()
    WRITE = enum.auto()
    READ_WRITE = READ | WRITE


_EFFECT_ACCESS = {EffectKind.READ: Access.READ, EffectKind.WRITE: Access.WRITE,
                  EffectKind.FREE: Access.WRITE, EffectKind.ALLOCATE: Access.NONE}


class ArgumentAccess:
    """The access of the arguments of the functions of `module` (a `builtin.module`),
    computed on demand and remembered per function."""

    def __init__(self, module: Operation):
        self.functions = {op.attributes["sym_name"].value: op
                          for op in module.regions[0].blocks[0].ops()
                          if isinstance(op, FuncOp)}
        self._known: dict[str, list[Access]] = {}
        self._in_progress: set[str] = set()

    def of(self, fn: Operation) -> list[Access]:
        """One Access per argument of `fn` (a `func.func`); a scalar argument is
        Access.NONE, every buffer argument of a declaration Access.READ_WRITE."""
        name = fn.attributes["sym_name"].value
        known = self._known.get(name)
        if known is not None:
            return known
        inputs = fn.attributes["function_type"].value.inputs
        if not fn.regions[0].blocks:
            return [_declared_access(fn, i) if isinstance(t, MemRefType) else Access.NONE
                    for i, t in enumerate(inputs)]
        if name in self._in_progress:  # recursion: assume the worst for this round
            return [Access.READ_WRITE] * len(inputs)
        self._in_progress.add(name)
        try:
            found = [self.value_access(arg) if isinstance(arg.type, MemRefType) else Access.NONE
                     for arg in fn.regions[0].blocks[0].args]
        finally:
            self._in_progress.discard(name)
        self._known[name] = found
        return found

    def value_access(self, value: Value) -> Access:
        """What the uses of `value` (a memref) and of its views do to its memory."""
        access = Access.NONE
        pending, seen = [value], {value}
        while pending and access != Access.READ_WRITE:
            current = pending.pop()
            for use in list(current.uses):
                op = use.owner
                if isinstance(op, CallOp):
                    access |= self._call_access(op, use.index)
                    continue
                effects = own_effects(op)
                if effects is None or op.regions or op.successors or _ends_a_block(op):
                    access |= Access.READ_WRITE
                    continue
                if not effects and op.results:
                    for result in op.results:  # a view: the same memory, renamed
                        if isinstance(result.type, MemRefType) and result not in seen:
                            seen.add(result)
                            pending.append(result)
                    continue
                for effect in effects:
                    if effect.value is current or effect.value is None:
                        access |= _EFFECT_ACCESS[effect.kind]
        return access

    def _call_access(self, call: Operation, position: int) -> Access:
        callee = self.functions.get(call.attributes["callee"].root)
        if callee is None:
            return Access.READ_WRITE
        accesses = self.of(callee)
        return accesses[position] if position < len(accesses) else Access.READ_WRITE


def _declared_access(fn: Operation, position: int) -> Access:
    """A declaration's access to its buffer argument `position`: what MLIR's
    `llvm.readonly`/`llvm.writeonly`/`llvm.readnone` argument attributes say, else
    both."""
    arg_attrs = fn.attributes.get("arg_attrs")
    names = set()
    if isinstance(arg_attrs, ArrayAttr) and position < len(arg_attrs):
        names = {name for name, _ in arg_attrs[position].entries}
    if "llvm.readnone" in names:
        return Access.NONE
    if "llvm.readonly" in names:
        return Access.READ
    if "llvm.writeonly" in names:
        return Access.WRITE
    return Access.READ_WRITE


def _ends_a_block(op: Operation) -> bool:
    """A terminator: what it passes on (to a successor, the parent op's results, the
    caller) is used where this analysis does not follow."""
    return op.op_def is not None and IsTerminator in op.op_def.trait_set


def argument_access(fn: Operation) -> list[Access]:
    """One Access per argument of `fn`, calls followed into the functions of the module
    holding it (see the module docstring)."""
    module = fn.parent_op
    if module is None:
        raise ValueError("argument_access needs a function inside a module")
    return ArgumentAccess(module).of(fn)
