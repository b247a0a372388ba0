"""Translation of the llvm dialect's loads and stores (:class:`~mlc.llvm.dialect.ops_values.LoadOp`,
`StoreOp`) with everything they carry: `volatile`, `atomic` with its ordering and
syncscope, the alignment, and the `!nontemporal`, `!invariant.load` and
`!invariant.group` metadata. llvmlite's load and store write none of the first three,
so the instructions write their own text:

    load atomic volatile float, ptr %p syncscope("singlethread") acquire, align 4
"""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.attributes import FloatType, IntegerType
from mlc.ir.core.ir import Operation
from mlc.llvm.dialect import ops_values as V
from mlc.llvm.dialect.constraints import AtomicOrdering
from mlc.llvm.dialect.translation.core import FunctionTranslation, int_attr, translates


class _Access:
    """What a load or a store writes around its operands."""

    def __init__(self, t: FunctionTranslation, op: Operation, value_type):
        ordering = op.attributes.get("ordering")
        keyword = AtomicOrdering.keyword(ordering) if ordering is not None else "not_atomic"
        self.atomic = keyword != "not_atomic"
        self.volatile = "volatile_" in op.attributes
        scope = op.attributes.get("syncscope")
        self.ordering = ((f'syncscope("{scope.value}") ' if scope is not None else "") + keyword
                         if self.atomic else "")
        alignment = int_attr(op, "alignment")
        if alignment is None and self.atomic:
            # LLVM requires an atomic access's alignment; MLIR's default is the size.
            alignment = value_type.width // 8 if isinstance(value_type, (IntegerType, FloatType)) \
                else 8
        self.alignment = alignment
        self.metadata = self._metadata(t, op)

    @staticmethod
    def _metadata(t: FunctionTranslation, op: Operation) -> dict[str, ir.values.MDValue]:
        module = t.module.module
        found = {}
        if "nontemporal" in op.attributes:
            found["nontemporal"] = module.add_metadata([ir.Constant(ir.IntType(32), 1)])
        if "invariant" in op.attributes:
            found["invariant.load"] = module.add_metadata([])
        if "invariantGroup" in op.attributes:
            found["invariant.group"] = module.add_metadata([])
        return found

    def head(self, opname: str) -> str:
        return " ".join([opname, *(["atomic"] if self.atomic else []),
                         *(["volatile"] if self.volatile else [])])

    def tail(self) -> str:
        return (f" {self.ordering}" if self.ordering else "") + \
            (f", align {self.alignment}" if self.alignment else "")


class _Load(ir.instructions.LoadInstr):
    def __init__(self, parent, pointer, type_, access: _Access):
        super().__init__(parent, pointer, typ=type_)
        self.access = access
        self.metadata.update(access.metadata)

    def descr(self, buf):
        (pointer,) = self.operands
        buf.append(f"{self.access.head('load')} {self.type}, {pointer.type} "
                   f"{pointer.get_reference()}{self.access.tail()}"
                   f"{self._stringify_metadata(leading_comma=True)}\n")


class _Store(ir.instructions.StoreInstr):
    def __init__(self, parent, value, pointer, access: _Access):
        super().__init__(parent, value, pointer)
        self.access = access
        self.metadata.update(access.metadata)

    def descr(self, buf):
        value, pointer = self.operands
        buf.append(f"{self.access.head('store')} {value.type} {value.get_reference()}, "
                   f"{pointer.type} {pointer.get_reference()}{self.access.tail()}"
                   f"{self._stringify_metadata(leading_comma=True)}\n")


@translates(V.LoadOp)
def _load(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    load = _Load(t.builder.block, args[0], t.type(op.results[0].type, op),
                 _Access(t, op, op.results[0].type))
    t.builder._insert(load)
    return load


@translates(V.StoreOp)
def _store(t: FunctionTranslation, op: Operation, args: list) -> None:
    # Written as the dialect says even where llvmlite types a pointer (`float*` of an
    # alloca) and would refuse another type stored through it: LLVM reads every
    # pointer as opaque.
    value, pointer = args
    t.builder._insert(_Store(t.builder.block, value, pointer,
                             _Access(t, op, op.operands[0].type)))
