"""Translation of the llvm dialect's intrinsics (:mod:`mlc.llvm.dialect.ops_intrinsics`): each
becomes a call of the LLVM intrinsic of its name, overloaded on the types LLVM's
intrinsic mangles into the name (`llvm.smax.v8i32`, `llvm.masked.load.v8f32.p0`)."""

from __future__ import annotations

from collections.abc import Sequence

from llvmlite import ir

from mlc.ir.core.ir import Operation
from mlc.llvm.dialect import ops_intrinsics as I
from mlc.llvm.dialect.translation.core import (
    BFloatType,
    FunctionTranslation,
    fastmath,
    int_attr,
    translates,
)

_PREFIX = "llvm.intr."


def _mangled(type_: ir.Type) -> str:
    """An overloaded intrinsic's name suffix for `type_` (`f32`, `v16f32`, `p0`)."""
    if isinstance(type_, ir.VectorType):
        return f"v{type_.count}{_mangled(type_.element)}"
    if isinstance(type_, ir.PointerType):
        return f"p{type_.addrspace}"
    if isinstance(type_, ir.IntType):
        return f"i{type_.width}"
    return {ir.HalfType: "f16", BFloatType: "bf16", ir.FloatType: "f32",
            ir.DoubleType: "f64"}[type(type_)]


def _result_type(t: FunctionTranslation, op: Operation) -> ir.Type:
    return t.type(op.results[0].type, op) if op.results else ir.VoidType()


def _call_intrinsic(t: FunctionTranslation, op: Operation, args: Sequence[ir.Value],
                    overloads: Sequence[ir.Type]) -> ir.Value | None:
    """A call of the intrinsic `op` names, overloaded on `overloads`' types."""
    result_type = _result_type(t, op)
    name = ".".join(("llvm", op.name[len(_PREFIX):], *(_mangled(o) for o in overloads)))
    fn = t.module.intrinsic(name, result_type, [a.type for a in args])
    inst = t.builder.call(fn, list(args), fastmath=fastmath(op))
    return inst if op.results else None


def _i32(value: int) -> ir.Constant:
    return ir.Constant(ir.IntType(32), value)


@translates(*I.ELEMENTWISE_INTRINSICS)
def _elementwise(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    return _call_intrinsic(t, op, args, [_result_type(t, op)])


@translates(*I.VECTOR_REDUCTIONS)
def _reduction(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    return _call_intrinsic(t, op, args, [args[-1].type])


@translates(I.PowIOp)
def _powi(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    return _call_intrinsic(t, op, args, [_result_type(t, op), args[1].type])


@translates(I.AbsOp, I.CountLeadingZerosOp, I.CountTrailingZerosOp)
def _poison_flagged(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    # LLVM takes the op's poison flag as a trailing `i1` operand.
    flag = "is_int_min_poison" if isinstance(op, I.AbsOp) else "is_zero_poison"
    poison = op.attributes.get(flag)
    bit = int(bool(getattr(poison, "value", poison))) if poison is not None else 0
    return _call_intrinsic(t, op, [*args, ir.Constant(ir.IntType(1), bit)],
                           [_result_type(t, op)])


@translates(I.MaskedLoadOp)
def _masked_load(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    alignment = _i32(int_attr(op, "alignment", 1))
    return _call_intrinsic(t, op, [args[0], alignment, *args[1:]],
                           [_result_type(t, op), args[0].type])


@translates(I.MaskedStoreOp)
def _masked_store(t: FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    alignment = _i32(int_attr(op, "alignment", 1))
    return _call_intrinsic(t, op, [args[0], args[1], alignment, args[2]],
                           [args[0].type, args[1].type])
