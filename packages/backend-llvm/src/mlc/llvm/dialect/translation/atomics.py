"""Translation of the llvm dialect's atomic read-modify-write ops
(:class:`~mlc.llvm.dialect.ops_values.AtomicRMWOp`, `AtomicCmpXchgOp`) to `atomicrmw` and
`cmpxchg`, written as mlir-translate writes them (flags, syncscope, orderings, and an
alignment that defaults to the value's size)."""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.attributes import FloatType, IntegerType
from mlc.ir.core.ir import Operation
from mlc.llvm.dialect import ops_values as V
from mlc.llvm.dialect.constraints import AtomicBinOp, AtomicOrdering
from mlc.llvm.dialect.translation.core import FunctionTranslation, int_attr, translates


class _AtomicInstruction(ir.Instruction):
    """An `atomicrmw` or `cmpxchg` with what llvmlite's own leave out (volatile, weak,
    syncscope, alignment): `head` is the text before the operands, `tail` after."""

    def __init__(self, parent, type_, opname, operands, head: str, tail: str):
        super().__init__(parent, type_, opname, operands)
        self.head, self.tail = head, tail

    def descr(self, buf):
        operands = ", ".join(f"{v.type} {v.get_reference()}" for v in self.operands)
        buf.append(f"{self.head} {operands} {self.tail}{self._stringify_metadata(True)}\n")


def _atomic(t: FunctionTranslation, op: Operation, args: list, type_: ir.Type, head: str,
            orderings: str) -> ir.Value:
    """The instruction `head` (its name and operation) on `args`, with the op's flags,
    syncscope, `orderings` and alignment."""
    flags = "".join(f" {flag.rstrip('_')}" for flag in ("weak", "volatile_")
                    if flag in op.attributes)
    name, _, operation = head.partition(" ")
    scope = op.attributes.get("syncscope")
    tail = (f'syncscope("{scope.value}") ' if scope is not None else "") + orderings
    value = op.operands[-1].type
    alignment = int_attr(op, "alignment") or \
        (value.width // 8 if isinstance(value, (IntegerType, FloatType)) else 8)
    instruction = _AtomicInstruction(t.builder.block, type_, name, args,
                                     f"{name}{flags} {operation}".rstrip(),
                                     f"{tail}, align {alignment}")
    t.builder._insert(instruction)
    return instruction


@translates(V.AtomicRMWOp)
def _atomicrmw(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    operation = AtomicBinOp.keyword(op.attributes["bin_op"]).lstrip("_")
    return _atomic(t, op, args, args[1].type, f"atomicrmw {operation}",
                   AtomicOrdering.keyword(op.attributes["ordering"]))


@translates(V.AtomicCmpXchgOp)
def _cmpxchg(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    orderings = " ".join(AtomicOrdering.keyword(op.attributes[name])
                         for name in ("success_ordering", "failure_ordering"))
    return _atomic(t, op, args, ir.LiteralStructType([args[2].type, ir.IntType(1)]),
                   "cmpxchg", orderings)
