"""Emitting llvm ops inside conversion patterns: each op is made by its class's typed
constructor (`GEPOp.create_gep`, `AddOp.create_binary`...) and inserted at the
rewriter's insertion point, located at the op being lowered, so a pattern reads as the
instructions it emits:

    build = LLVMBuilder(rewriter, op.loc)
    address = build.gep(base, index, f32)
    value = build.value(FMulAddOp.build(a, b, c))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from mlc.ir.core.attributes import (
    Location,
    Type,
)
from mlc.ir.core.ir import Value
from mlc.ir.opdef.declare import Op
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.llvm.dialect.ops_arith import AddOp, MulOp
from mlc.llvm.dialect.ops_control import CallOp
from mlc.llvm.dialect.ops_values import ConstantOp, GEPOp, LoadOp, PoisonOp, StoreOp

AnOp = TypeVar("AnOp", bound=Op)


class LLVMBuilder:
    """Inserts llvm ops at a rewriter's insertion point, each located at `loc`."""

    def __init__(self, rewriter: Rewriter, loc: Location):
        self.rewriter = rewriter
        self.loc = loc

    def insert(self, op: AnOp) -> AnOp:
        """Insert `op` (just built), located at this builder's location."""
        op.loc = self.loc
        return self.rewriter.insert(op)  # type: ignore[return-value]

    def value(self, op: Op) -> Value:
        """Insert `op` and return its (single) result."""
        return self.insert(op).results[0]

    def call(self, callee: str, arguments: Sequence[Value], result_type: Type | None = None
             ) -> CallOp:
        """A direct `llvm.call` of `@callee` (None: it returns nothing)."""
        return self.insert(CallOp.create_call(callee, list(arguments), result_type))

    def constant(self, value: int | float, type_: Type) -> Value:
        return self.value(ConstantOp.create_constant(value, type_))

    def poison(self, type_: Type) -> Value:
        return self.value(PoisonOp.build(result_types=[type_]))

    def index_arith(self, op_class: type[AddOp] | type[MulOp], lhs: Value, rhs: Value) -> Value:
        """An `add` or `mul` of addresses' indices: they never overflow (nsw), which lets
        LLVM reason about them as it does about C's array indexing."""
        return self.value(op_class.create_binary(lhs, rhs, nsw=True))

    def gep(self, base: Value, index: Value, element: Type) -> Value:
        """`&base[index]` for elements of type `element`."""
        return self.value(GEPOp.create_gep(base, [index], element, inbounds=True))

    def load(self, address: Value, type_: Type, alignment: int | None = None) -> Value:
        return self.value(LoadOp.create_load(address, type_, alignment))

    def store(self, value: Value, address: Value, alignment: int | None = None) -> None:
        self.insert(StoreOp.create_store(value, address, alignment))
