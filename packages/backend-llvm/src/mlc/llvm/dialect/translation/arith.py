"""Translation of the llvm dialect's arithmetic (:mod:`mlc.llvm.dialect.ops_arith`): integer
and float binary ops, comparisons, `select` and the casts, one instruction each."""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.ir import Operation
from mlc.llvm.dialect import ops_arith as L
from mlc.llvm.dialect.translation.core import FunctionTranslation, fastmath, int_attr, translates

# Each op and the llvmlite IRBuilder method that emits its instruction.
_INT_BINARY = {L.AddOp: "add", L.SubOp: "sub", L.MulOp: "mul", L.SDivOp: "sdiv",
               L.UDivOp: "udiv", L.SRemOp: "srem", L.URemOp: "urem", L.AndOp: "and_",
               L.OrOp: "or_", L.XOrOp: "xor", L.ShlOp: "shl", L.LShrOp: "lshr",
               L.AShrOp: "ashr"}
_FLOAT_BINARY = {L.FAddOp: "fadd", L.FSubOp: "fsub", L.FMulOp: "fmul", L.FDivOp: "fdiv",
                 L.FRemOp: "frem"}
_CASTS = {L.TruncOp: "trunc", L.ZExtOp: "zext", L.SExtOp: "sext", L.FPTruncOp: "fptrunc",
          L.FPExtOp: "fpext", L.SIToFPOp: "sitofp", L.UIToFPOp: "uitofp",
          L.FPToSIOp: "fptosi", L.FPToUIOp: "fptoui", L.BitcastOp: "bitcast",
          L.PtrToIntOp: "ptrtoint", L.IntToPtrOp: "inttoptr", L.AddrSpaceCastOp: "addrspacecast"}
# The predicates in the order of their `predicate` attribute's values (MLIR's enums).
_ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_FCMP = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
         "ule", "une", "uno", "true")
_CMP_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@translates(*_INT_BINARY)
def _int_binary(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    flags = _overflow_flags(op)
    method = getattr(t.builder, _INT_BINARY[type(op)])
    return method(*args, flags=flags) if flags else method(*args)


def _overflow_flags(op: Operation) -> list[str]:
    bits = int_attr(op, "overflowFlags", 0) or 0
    return [name for bit, name in ((1, "nsw"), (2, "nuw")) if bits & bit]


@translates(*_FLOAT_BINARY)
def _float_binary(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return getattr(t.builder, _FLOAT_BINARY[type(op)])(*args, flags=fastmath(op))


@translates(L.FNegOp)
def _fneg(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.fneg(args[0], flags=fastmath(op))


@translates(*_CASTS)
def _cast(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return getattr(t.builder, _CASTS[type(op)])(args[0], t.type(op.results[0].type, op))


@translates(L.ICmpOp)
def _icmp(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    predicate = _ICMP[int_attr(op, "predicate")]
    if predicate in ("eq", "ne"):
        return t.builder.icmp_signed(_CMP_SYMBOL[predicate], *args)
    method = t.builder.icmp_signed if predicate[0] == "s" else t.builder.icmp_unsigned
    return method(_CMP_SYMBOL[predicate[1:]], *args)


@translates(L.FCmpOp)
def _fcmp(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    predicate = _FCMP[int_attr(op, "predicate")]
    flags = fastmath(op)
    if predicate in ("false", "true", "ord", "uno"):
        symbol = predicate
        method = t.builder.fcmp_unordered if predicate in ("true", "uno") else t.builder.fcmp_ordered
    else:
        symbol = _CMP_SYMBOL[predicate[1:]]
        method = t.builder.fcmp_ordered if predicate[0] == "o" else t.builder.fcmp_unordered
    return method(symbol, *args, flags=flags)


@translates(L.SelectOp)
def _select(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.select(*args, flags=fastmath(op))
