"""arith-emulate-unsupported-floats: arith ops on float types a target lacks (`bf16`,
the 8-bit formats, ...) computed in one it has (MLIR's ArithEmulateUnsupportedFloats
pass).

An arith op (or `vector.fma` / `vector.reduction`) with a value of a source type, or a
vector, tensor or memref of one, is rebuilt on the target type: its operands are
widened by `arith.extf` (built once per value, just after the value is defined) and
each result whose type changed is narrowed back by `arith.truncf`; both carry
`fastmath<contract>`, so that an `extf` of a `truncf` may later fold away. The casts
themselves, constants, `select`, `bitcast` and `vector.broadcast` stay as they are,
as does every op of another dialect (loads and stores keep the source type).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mlc.ir.core.attributes import (
    FLOAT_FORMATS,
    FloatType,
    Location,
    ShapedType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    unknown_loc,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.arith import ConstantOp, FastMath, FastMathFlags, SelectOp
from mlc.ir.dialects.arith.casts import BitcastOp, ExtFOp, TruncFOp
from mlc.ir.dialects.vector import BroadcastOp
from mlc.ir.dialects.vector.compute import FMAOp, ReductionOp
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionRewriter,
    ConversionTarget,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.ir.rewrite.type_converter import TypeConverter

# The float types MLIR's arith::parseFloatType knows by name (not tf32 nor f8E4M3B11FNUZ).
_NAMED_FLOAT_TYPES = frozenset(FLOAT_FORMATS) - {"tf32", "f8E4M3B11FNUZ"}

_CONTRACT = FastMathFlags(FastMath.contract)

# MLIR's ShapedType: vectors, tensors and memrefs, ranked or not.
_SHAPED = (ShapedType, UnrankedTensorType, UnrankedMemRefType)


class FloatEmulationConverter(TypeConverter):
    """A source float type, or a shaped type of one, -> the same on the target type;
    values cross with `arith.extf fastmath<contract>`."""

    def __init__(self, source_types: frozenset[FloatType], target_type: FloatType):
        super().__init__()
        self.source_types = source_types
        self.target_type = target_type
        self.add_conversion(self._convert)
        self.add_target_materialization(_widen)

    def _convert(self, type_: Type) -> Type | None:
        if type_ in self.source_types:
            return self.target_type
        if isinstance(type_, _SHAPED) and type_.element_type in self.source_types:
            return dataclasses.replace(type_, element_type=self.target_type)
        return None


def _widen(rewriter: Rewriter, types, inputs, loc: Location) -> list[Value] | None:
    if len(types) != 1 or len(inputs) != 1:
        return None
    return rewriter.create(ExtFOp, inputs[0], result_types=[types[0]], loc=loc,
                           fastmath=_CONTRACT).results


class EmulateFloatOp(ConversionPattern):
    """Any op with a source-type value: the same op on the target type, each changed
    result narrowed back with `arith.truncf fastmath<contract>`."""

    root = None

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter):
        converter = self.type_converter
        if converter.is_op_legal(op):
            return False
        if op.regions:
            return rewriter.notify_match_failure(op, "can't emulate ops with regions")
        result_types = converter.convert_types(op.result_types)
        widened = rewriter.insert(type(op).create(
            adaptor.operands, result_types, dict(op.attributes),
            successors=list(op.successors), loc=op.loc, name=op.name))
        results = [
            result if result.type == old_type else
            rewriter.create(TruncFOp, result, result_types=[old_type], loc=op.loc,
                            fastmath=_CONTRACT).results[0]
            for result, old_type in zip(widened.results, op.result_types)]
        rewriter.replace_op(op, results)
        return True


def emulation_target(converter: FloatEmulationConverter) -> ConversionTarget:
    """arith (and vector's arithmetic) legal where no value has a source type; the
    casts, constants, select, bitcast and broadcast always; every other op too."""
    target = ConversionTarget()
    target.mark_unknown_ops_dynamically_legal(lambda op: True)
    target.add_dynamically_legal_dialect("arith", converter.is_op_legal)
    target.add_dynamically_legal_op((FMAOp, ReductionOp), converter.is_op_legal)
    target.add_legal_op(BitcastOp, ExtFOp, TruncFOp, ConstantOp, SelectOp, BroadcastOp)
    return target


def unknown_float(names, role: str) -> str | None:
    """MLIR's message for the first name that is no float type, or None."""
    for name in (names,) if isinstance(names, str) else names:
        if name not in _NAMED_FLOAT_TYPES:
            return f"could not map {role} type '{name}' to a known floating-point type"
    return None


@dataclass(frozen=True)
class EmulateUnsupportedFloatsOptions:
    # Unknown names are refused where the pipeline names them (MLIR reports them when
    # the pass runs, with the same message).
    source_types: tuple[str, ...] = option((), doc="the float types to emulate",
                                           check=lambda names: unknown_float(names, "source"))
    target_type: str = option("f32", doc="the float type to compute them in",
                              check=lambda name: unknown_float(name, "target"))


@register_pass("arith-emulate-unsupported-floats", opt_level=0,
               options=EmulateUnsupportedFloatsOptions, dialects=("arith",),
               summary="Emulate arith ops on unsupported float types by computing them "
                       "in a supported one between extf and truncf.")
class ArithEmulateUnsupportedFloats(Pass):
    def run(self, op: Operation, run) -> None:
        options = run.options
        target_type = FloatType(options.target_type)
        source_types = frozenset(FloatType(name) for name in options.source_types)
        if target_type in source_types:
            raise PassFailure([Diagnostic(
                "error", "target type cannot be an unsupported source type", unknown_loc)])
        converter = FloatEmulationConverter(source_types, target_type)
        result = apply_partial_conversion(op, emulation_target(converter),
                                          PatternSet([EmulateFloatOp(converter)]), converter,
                                          first_failure_only=True)
        if not result.success:
            raise PassFailure(result.diagnostics)


__all__ = ["ArithEmulateUnsupportedFloats", "EmulateFloatOp", "EmulateUnsupportedFloatsOptions",
           "FloatEmulationConverter", "emulation_target", "unknown_float"]
