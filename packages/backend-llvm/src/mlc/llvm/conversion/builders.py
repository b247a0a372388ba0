"""Creating llvm ops inside conversion patterns, in their generic terms (MLIR's
inherent attribute names), so each pattern reads as the instructions it emits."""

from __future__ import annotations

from collections.abc import Sequence

from mlc.ir.core.attributes import (
    Attribute,
    DenseArrayAttr,
    FloatAttr,
    FloatType,
    IntegerAttr,
    IntegerType,
    Location,
    Type,
    TypeAttr,
    i32,
)
from mlc.ir.core.dialect_registry import lookup_op_class
from mlc.ir.core.ir import Operation, Value
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.llvm.types import ptr

# MLIR's marker, in `rawConstantIndices`, of an index given as an operand.
GEP_DYNAMIC_INDEX = -2147483648
GEP_INBOUNDS = 3  # noWrapFlags: inbounds (which implies nusw)
OVERFLOW_NSW = 1


class LLVMBuilder:
    """Emits llvm ops at a rewriter's insertion point, each located at `loc`."""

    def __init__(self, rewriter: Rewriter, loc: Location):
        self.rewriter = rewriter
        self.loc = loc

    def op(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
           attributes: dict[str, Attribute] | None = None, successors=()) -> Operation:
        """Insert the llvm op `name` (without its `llvm.` prefix)."""
        cls = lookup_op_class("llvm." + name)
        return self.rewriter.insert(cls.create(list(operands), list(result_types),
                                               attributes or {}, (), list(successors),
                                               loc=self.loc))

    def value(self, name: str, operands: Sequence[Value], result_type: Type,
              attributes: dict[str, Attribute] | None = None) -> Value:
        return self.op(name, operands, [result_type], attributes).results[0]

    def call(self, callee: str, arguments: Sequence[Value], result_type: Type | None = None
             ) -> Operation:
        """A direct `llvm.call` of `@callee` (None: it returns nothing)."""
        op = lookup_op_class("llvm.call").create_call(callee, list(arguments), result_type)
        op.loc = self.loc
        return self.rewriter.insert(op)

    def constant(self, value: int | float, type_: Type) -> Value:
        attr = FloatAttr.from_value(float(value), type_) if isinstance(type_, FloatType) \
            else IntegerAttr(int(value), type_)
        return self.value("mlir.constant", (), type_, {"value": attr})

    def index_arith(self, name: str, lhs: Value, rhs: Value) -> Value:
        """An `add` or `mul` of addresses' indices: they never overflow (nsw), which lets
        LLVM reason about them as it does about C's array indexing."""
        return self.value(name, (lhs, rhs), lhs.type,
                          {"overflowFlags": IntegerAttr(OVERFLOW_NSW, i32)})

    def gep(self, base: Value, index: Value, element: Type) -> Value:
        """`&base[index]` for elements of type `element`."""
        return self.value("getelementptr", (base, index), ptr, {
            "elem_type": TypeAttr(element),
            "rawConstantIndices": DenseArrayAttr(i32, (GEP_DYNAMIC_INDEX,)),
            "noWrapFlags": IntegerAttr(GEP_INBOUNDS, i32)})

    def load(self, address: Value, type_: Type, alignment: int | None = None) -> Value:
        attrs = {} if alignment is None else {"alignment": IntegerAttr(alignment, IntegerType(64))}
        return self.value("load", (address,), type_, attrs)

    def store(self, value: Value, address: Value, alignment: int | None = None) -> None:
        attrs = {} if alignment is None else {"alignment": IntegerAttr(alignment, IntegerType(64))}
        self.op("store", (value, address), (), attrs)
