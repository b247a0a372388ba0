"""The `test` dialect: ops used by the conversion and rewriting tests."""

from __future__ import annotations

from mlc.ir.dialect import Dialect
from mlc.ir.opdef.declare import Op, OperandDef, RegionDef, ResultDef
from mlc.ir.opdef.traits import NoTerminator, Pure

test = Dialect("test", "Ops for testing the rewriting and conversion drivers.")

_UNARY = "$input attr-dict `:` type($input) `->` type($output)"


@test.op
class SourceOp(Op):
    """A value of any type; first link of the legalization chain source -> middle -> sink."""

    name = "test.source"
    input = OperandDef()
    output = ResultDef()
    traits = (Pure,)
    assembly_format = _UNARY


@test.op
class MiddleOp(Op):
    """The second link of the chain (illegal in the test conversions too)."""

    name = "test.middle"
    input = OperandDef()
    output = ResultDef()
    traits = (Pure,)
    assembly_format = _UNARY


@test.op
class SinkOp(Op):
    """The legal end of the chain."""

    name = "test.sink"
    input = OperandDef()
    output = ResultDef()
    traits = (Pure,)
    assembly_format = _UNARY


@test.op
class UseTupleOp(Op):
    """Consumes a tuple; converted to test.use_parts on its elements (a 1:N type change)."""

    name = "test.use_tuple"
    input = OperandDef()
    traits = ()
    assembly_format = "$input attr-dict `:` type($input)"


@test.op
class UsePartsOp(Op):
    """Consumes any number of values."""

    name = "test.use_parts"
    inputs = OperandDef(variadic=True)
    assembly_format = "$inputs attr-dict `:` type($inputs)"


@test.op
class UnknownOp(Op):
    """An op no conversion target mentions: kept by partial conversion, rejected by full."""

    name = "test.unknown"
    inputs = OperandDef(variadic=True)
    assembly_format = "$inputs attr-dict `:` type($inputs)"


@test.op
class WrapperOp(Op):
    """An op holding a region, with no semantics of its own."""

    name = "test.wrapper"
    body = RegionDef()
    traits = (NoTerminator,)
    assembly_format = "attr-dict-with-keyword $body"
