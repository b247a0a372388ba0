"""The `test` dialect: ops used by the conversion, rewriting and interface tests."""

from __future__ import annotations

from mlc.ir.analysis.int_range import IntRange, signed, storage_width, unsigned
from mlc.ir.core.attributes import (
    Attribute,
    IndexType,
    IntegerAttr,
    IntegerType,
    Location,
    MemRefType,
    Type,
    VectorType,
)
from mlc.ir.core.dialect_registry import Dialect
from mlc.ir.core.ir import Operation
from mlc.ir.interfaces.control_flow import BranchLike, RegionBranch, ReturnLike
from mlc.ir.interfaces.infer_type import InferType, TypeInferenceError
from mlc.ir.interfaces.int_range import int_range_rule
from mlc.ir.interfaces.loop_like import LoopLike
from mlc.ir.interfaces.side_effects import (
    DEFAULT_RESOURCE,
    Allocate,
    ConditionallySpeculatable,
    EffectInstance,
    EffectKind,
    Free,
    MemoryEffects,
    Read,
    Resource,
    Speculatability,
    Write,
)
from mlc.ir.opdef.constraints import (
    ArrayOf,
    AttrOfClass,
    StrAttr,
    StringKeyword,
    TypeIs,
    TypeMatches,
)
from mlc.ir.opdef.declare import (
    AttrDef,
    Op,
    OperandDef,
    RegionDef,
    ResultDef,
    SuccessorDef,
    VerificationError,
)
from mlc.ir.opdef.traits import (
    AllTypesMatch,
    ConstantLike,
    HasParent,
    IsTerminator,
    NoMemoryEffect,
    NoTerminator,
    Pure,
    RecursivelySpeculatable,
    RecursiveMemoryEffects,
    constant_value,
)


class TestDialect(Dialect):
    # As MLIR's test dialect, whose tests use ops it does not define.
    allows_unknown_ops = True

    def verify_value_attribute(self, op: Operation, kind: str, index: int, name: str,
                               attr: Attribute) -> str | None:
        # As MLIR's test dialect: one attribute name that no function value may carry.
        return f"invalid to use '{name}'" if name == "test.invalid_attr" else None

    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        # As MLIR's test dialect: a test.constant of any value (so a test op found to
        # be constant, by folding or by the range analysis, becomes one).
        return ConstantOp.create([], [type_], {"value": value}, loc=loc)


test = TestDialect("test", "Ops for testing the rewriting and conversion drivers and the op "
                   "interfaces.")

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
class ConstantOp(Op):
    """A constant of any attribute, as MLIR's test dialect has it: unlike
    `arith.constant`, the attribute's type need not be the result's (a value of another
    type is then no constant of the result, for folders and patterns)."""

    name = "test.constant"
    value = AttrDef()
    result = ResultDef()
    traits = (ConstantLike, NoMemoryEffect)

    def fold(self, operands):
        return self.value


@test.op
class WrapperOp(Op):
    """An op holding a region, with no semantics of its own."""

    name = "test.wrapper"
    body = RegionDef()
    traits = (NoTerminator,)
    assembly_format = "attr-dict-with-keyword $body"


# ------------------------------------------------------------------ interfaces
#
# A loop, an `if`, memory ops and ops of unknown or attribute-given effects, for the
# interface tests. test.for and test.if have the operands, regions and results of
# scf.for and scf.if, so their generic forms are scf's with the names changed (the
# lit tests run mlir-opt-22 on them that way); test.alloc/load/store/free mirror
# memref's.

Memref = TypeMatches(lambda t: isinstance(t, MemRefType), "memref")
Index = TypeIs(IndexType())  # one type, so custom forms need not spell it


def _constant_int(value) -> int | None:
    attr = constant_value(value)
    return attr.value if isinstance(attr, IntegerAttr) else None


@test.op
class ForOp(Op):
    """A counted loop, as scf.for: `lowerBound` to `upperBound` (exclusive) by `step`,
    carrying `initArgs` from one iteration to the next; the results are the values
    carried out of the last iteration."""

    name = "test.for"
    lowerBound = OperandDef(Index)  # noqa: N815 - scf.for's names
    upperBound = OperandDef(Index)  # noqa: N815
    step = OperandDef(Index)
    initArgs = OperandDef(variadic=True)  # noqa: N815
    outputs = ResultDef(variadic=True)
    body = RegionDef(single_block=True)
    traits = (RecursiveMemoryEffects, ConditionallySpeculatable(),
              LoopLike(lower_bounds="lowerBound", upper_bounds="upperBound", steps="step",
                       inits="initArgs"),
              RegionBranch({"parent": ("body", "parent"), "body": ("body", "parent")},
                           entry_operands="initArgs"))
    assembly_format = ("$lowerBound `to` $upperBound `step` $step "
                       "(`iter_args` `(` $initArgs^ `:` type($initArgs) `)`)? $body attr-dict "
                       "(`->` type($outputs)^)?")

    def speculatability(self) -> Speculatability:
        # As scf.for: with a step of 1 the loop ends whatever its bounds; any other step
        # might overflow past the upper bound and never end.
        if _constant_int(self.step) == 1:
            return Speculatability.RECURSIVELY_SPECULATABLE
        return Speculatability.NOT_SPECULATABLE

    def verify_custom(self) -> None:
        entry = self.body.entry
        if entry is None or not entry.args or entry.args[0].type != IndexType():
            raise VerificationError("expects the body to start with an index induction variable")


@test.op
class IfOp(Op):
    """Runs `thenRegion` if `condition` holds, else `elseRegion` (which may be empty
    when there are no results), as scf.if."""

    name = "test.if"
    condition = OperandDef(IntegerType(1))
    outputs = ResultDef(variadic=True)
    thenRegion = RegionDef(single_block=True)  # noqa: N815 - scf.if's names
    elseRegion = RegionDef(single_block=True)  # noqa: N815
    traits = (RecursiveMemoryEffects, RecursivelySpeculatable,
              RegionBranch({"parent": ("thenRegion", "elseRegion"), "thenRegion": ("parent",),
                            "elseRegion": ("parent",)}))
    assembly_format = "$condition $thenRegion (`else` $elseRegion^)? attr-dict (`->` type($outputs)^)?"


@test.op
class BranchOp(Op):
    """A branch with no custom form (MLIR's test.br): passes its operands to its one
    successor, so region simplification may drop the ones whose argument is dead."""

    name = "test.br"
    targetOperands = OperandDef(variadic=True)
    target = SuccessorDef()
    traits = (IsTerminator, BranchLike("targetOperands"))


@test.op
class YieldOp(Op):
    """Ends a test.for or test.if body, passing its operands on."""

    name = "test.yield"
    values = OperandDef(variadic=True)
    traits = (Pure, IsTerminator, ReturnLike, HasParent(("test.for", "test.if")))
    assembly_format = "attr-dict ($values^ `:` type($values))?"


@test.op
class AllocOp(Op):
    """Allocates a memref (as memref.alloc); unused, it is dead."""

    name = "test.alloc"
    memref = ResultDef(Memref)
    traits = (MemoryEffects(Allocate("memref")),)
    assembly_format = "attr-dict `:` type($memref)"


@test.op
class LoadOp(Op):
    """Reads an element of a memref (as memref.load)."""

    name = "test.load"
    memref = OperandDef(Memref)
    indices = OperandDef(Index, variadic=True)
    result = ResultDef()
    traits = (MemoryEffects(Read("memref")), InferType())
    assembly_format = "$memref `[` $indices `]` attr-dict `:` type($memref)"

    @classmethod
    def infer_result_types(cls, operand_types, attributes):
        if not operand_types or not isinstance(operand_types[0], MemRefType):
            raise TypeInferenceError(cls.op_def.name, "needs a memref operand")
        return [operand_types[0].element_type]


@test.op
class StoreOp(Op):
    """Writes an element of a memref (as memref.store)."""

    name = "test.store"
    value = OperandDef()
    memref = OperandDef(Memref)
    indices = OperandDef(Index, variadic=True)
    traits = (MemoryEffects(Write("memref")),)
    assembly_format = "$value `,` $memref `[` $indices `]` attr-dict `:` type($value) `,` type($memref)"

    def verify_custom(self) -> None:
        if self.value.type != self.memref.type.element_type:
            raise VerificationError(f"value type {self.value.type} is not the element type of "
                                    f"{self.memref.type}")


@test.op
class FreeOp(Op):
    """Frees a memref (as memref.dealloc)."""

    name = "test.free"
    memref = OperandDef(Memref)
    traits = (MemoryEffects(Free("memref")),)
    assembly_format = "$memref attr-dict `:` type($memref)"


@test.op
class OpaqueOp(Op):
    """An op whose effects are unknown (it declares none): nothing may remove, merge
    or move it."""

    name = "test.opaque"
    inputs = OperandDef(variadic=True)
    outputs = ResultDef(variadic=True)
    assembly_format = "($inputs^)? attr-dict `:` functional-type($inputs, $outputs)"


_EFFECT_KINDS = {kind.value: kind for kind in EffectKind}


@test.op
class EffectsOp(Op):
    """An op with the effects its `effects` attribute lists (`read`, `write`,
    `allocate`, `free`), on the resource its `resource` attribute names (the default
    resource otherwise): effects that depend on attributes."""

    name = "test.effects"
    inputs = OperandDef(variadic=True)
    outputs = ResultDef(variadic=True)
    effects = AttrDef(ArrayOf(StringKeyword(tuple(_EFFECT_KINDS))))
    resource = AttrDef(StrAttr, optional=True)
    traits = (MemoryEffects(),)
    assembly_format = "($inputs^)? attr-dict `:` functional-type($inputs, $outputs)"

    def memory_effects(self) -> list[EffectInstance]:
        resource = Resource(self.resource.value) if self.resource is not None else DEFAULT_RESOURCE
        return [EffectInstance(_EFFECT_KINDS[kind.value], None, resource) for kind in self.effects]


# ------------------------------------------------------------------ integer ranges
#
# MLIR's test.with_bounds and test.reflect_bounds, for the tests of the integer range
# analysis and the passes built on it.

IntLike = TypeMatches(
    lambda t: isinstance(t.element_type if isinstance(t, VectorType) else t,
                         (IntegerType, IndexType)),
    "integer or index or vector of integer or index values")
BoundAttr = AttrOfClass((IntegerAttr,), "integer attribute")


@test.op
class WithBoundsOp(Op):
    """A value the range analysis takes to lie in the bounds its attributes give (the
    bits of `umin`/`umax` read as unsigned, of `smin`/`smax` as signed)."""

    name = "test.with_bounds"
    umin = AttrDef(BoundAttr)
    umax = AttrDef(BoundAttr)
    smin = AttrDef(BoundAttr)
    smax = AttrDef(BoundAttr)
    fakeVal = ResultDef(IntLike)  # noqa: N815 - MLIR's name
    traits = (NoMemoryEffect,)
    assembly_format = "attr-dict `:` type($fakeVal)"


@test.op
class ReflectBoundsOp(Op):
    """Its operand, unchanged; the range analysis writes what it knows of the operand
    into the op's `umin`/`umax` (typed `uiN`) and `smin`/`smax` (`siN`) attributes
    (`index` for index values), which tests then check."""

    name = "test.reflect_bounds"
    value = OperandDef(IntLike)
    umin = AttrDef(BoundAttr, optional=True)
    umax = AttrDef(BoundAttr, optional=True)
    smin = AttrDef(BoundAttr, optional=True)
    smax = AttrDef(BoundAttr, optional=True)
    result = ResultDef(IntLike)
    traits = (AllTypesMatch(("value", "result")),)
    assembly_format = "attr-dict $value `:` type($result)"


@int_range_rule(WithBoundsOp)
def _with_bounds(op: WithBoundsOp) -> IntRange:
    width = storage_width(op.fakeVal.type)
    return IntRange(width, unsigned(op.umin.value, width), unsigned(op.umax.value, width),
                    signed(op.smin.value, width), signed(op.smax.value, width))


@int_range_rule(ReflectBoundsOp)
def _reflect_bounds(op: ReflectBoundsOp, value: IntRange) -> IntRange:
    element = op.result.type
    element = getattr(element, "element_type", element)
    if isinstance(element, IntegerType):
        signed_type = IntegerType(element.width, "signed")
        unsigned_type = IntegerType(element.width, "unsigned")
        umin, umax = value.umin, value.umax
    else:  # index: its attributes print signed
        signed_type = unsigned_type = element
        umin, umax = signed(value.umin, value.width), signed(value.umax, value.width)
    op.attributes["umin"] = IntegerAttr(umin, unsigned_type)
    op.attributes["umax"] = IntegerAttr(umax, unsigned_type)
    op.attributes["smin"] = IntegerAttr(value.smin, signed_type)
    op.attributes["smax"] = IntegerAttr(value.smax, signed_type)
    return value
