"""The `builtin` dialect: the top-level module and the conversion cast."""

from __future__ import annotations

from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Block, Region
from mlc.ir.interfaces.cast import Cast
from mlc.ir.opdef.constraints import StringKeyword, SymbolNameAttr
from mlc.ir.opdef.declare import (
    AttrDef,
    Op,
    OperandDef,
    RegionDef,
    ResultDef,
    VerificationError,
)
from mlc.ir.opdef.traits import (
    GraphRegions,
    IsolatedFromAbove,
    NoRegionArguments,
    NoTerminator,
    Pure,
    SingleBlock,
    SymbolTable,
)

builtin = Dialect("builtin", "The top-level module and the cast that dialect conversion leaves behind.")


@builtin.op
class ModuleOp(Op):
    """A top-level container of ops, usually functions.

    Its one region has one block and no terminator; it is a symbol table, so the
    symbols defined directly in it have unique names.
    """

    name = "builtin.module"
    sym_name = AttrDef(SymbolNameAttr, optional=True, doc="the module's name, if any")
    sym_visibility = AttrDef(StringKeyword(("public", "private", "nested")), optional=True)
    bodyRegion = RegionDef(single_block=True)  # noqa: N815 - MLIR's name
    traits = (IsolatedFromAbove, NoRegionArguments, SymbolTable, NoTerminator, SingleBlock,
              GraphRegions)
    assembly_format = "($sym_name^)? attr-dict-with-keyword $bodyRegion"
    default_dialect = "builtin"

    @classmethod
    def build(cls, *args, **kwargs) -> ModuleOp:
        """An empty module (one empty block)."""
        if "regions" not in kwargs:
            kwargs["regions"] = [Region([Block()])]
        return super().build(*args, **kwargs)  # type: ignore[return-value]

    def verify_custom(self) -> None:
        for name in self.attributes:
            if name not in self.op_def.attributes and "." not in name:
                raise VerificationError("can only contain attributes with dialect-prefixed "
                                        f"names, found: '{name}'")

    @property
    def body(self) -> Block:
        region = self.regions[0]
        if not region.blocks:
            region.append(Block())
        return region.blocks[0]


@builtin.op
class UnrealizedConversionCastOp(Op):
    """Casts values between type systems while a conversion is in progress; what a
    partial conversion leaves behind, removed by reconcile-unrealized-casts."""

    name = "builtin.unrealized_conversion_cast"
    inputs = OperandDef(variadic=True)
    outputs = ResultDef(variadic=True)
    traits = (Pure, Cast())
    assembly_format = "($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"

    def verify_custom(self) -> None:
        if not self.results:
            raise VerificationError("expected at least one result for cast operation")

    def fold(self, operands):
        """A cast to the types its inputs already have is its inputs; a cast of all the
        results of another cast, back to that cast's input types, is that cast's
        inputs (MLIR's folder: so a round trip through another type system cancels)."""
        inputs = self.operands
        if [value.type for value in inputs] == self.result_types:
            return list(inputs)
        producer = inputs[0].defining_op if inputs else None
        if isinstance(producer, UnrealizedConversionCastOp) and \
                list(producer.results) == list(inputs) and \
                [value.type for value in producer.operands] == self.result_types:
            return list(producer.operands)
        return None
