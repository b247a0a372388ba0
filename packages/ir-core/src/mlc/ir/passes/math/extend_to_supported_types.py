"""math-extend-to-supported-types: math ops on float types other than f32 and f64
computed in a supported one (MLIR's MathExtendToSupportedTypes pass).

The C library and LLVM's intrinsics that `convert-to-llvm` lowers math ops to exist
for f32 and f64; an `erf` of f16 has none. So, as MLIR does before lowering, a math op
with a value of any other float type (f16, bf16, the 8-bit formats, f80, ...; or a
vector, tensor or memref of one) is rebuilt on `target-type` (default f32): its
operands widened by `arith.extf fastmath<contract>`, each changed result narrowed
back by `arith.truncf fastmath<contract>`. `extra-types` names further supported
types, left as they are; `math.fma` always stays (LLVM has it for every type). The
same machinery as arith-emulate-unsupported-floats
(:mod:`mlc.ir.passes.arith.emulate_unsupported_floats`), with math's legality.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import FLOAT_FORMATS, FloatType
from mlc.ir.core.ir import Operation
from mlc.ir.passes.arith.emulate_unsupported_floats import (
    EmulateFloatOp,
    FloatEmulationConverter,
    unknown_float,
)
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import ConversionTarget, apply_partial_conversion
from mlc.ir.rewrite.pattern import PatternSet

__all__ = ["MathExtendToSupportedTypes", "ExtendToSupportedTypesOptions", "extension_target"]


def extension_target(converter: FloatEmulationConverter) -> ConversionTarget:
    """Math ops legal where no value has an unsupported type; `math.fma`, the casts
    and every op of another dialect always."""
    target = ConversionTarget()
    target.mark_unknown_ops_dynamically_legal(lambda op: True)
    target.add_dynamically_legal_dialect("math", converter.is_op_legal)
    target.add_legal_op("math.fma", "arith.extf", "arith.truncf")
    return target


@dataclass(frozen=True)
class ExtendToSupportedTypesOptions:
    extra_types: tuple[str, ...] = option(
        (), doc="float types supported beside f32 and f64",
        check=lambda names: unknown_float(names, "source"))
    target_type: str = option("f32", doc="the float type to compute the others in",
                              check=lambda name: unknown_float(name, "target"))


@register_pass("math-extend-to-supported-types", opt_level=0,
               options=ExtendToSupportedTypesOptions, dialects=("arith", "math"),
               summary="Compute math ops on float types other than f32, f64 and "
                       "`extra-types` in `target-type`, between extf and truncf.")
class MathExtendToSupportedTypes(Pass):
    def run(self, op: Operation, run) -> None:
        supported = {FloatType("f32"), FloatType("f64"),
                     *(FloatType(name) for name in run.options.extra_types)}
        unsupported = frozenset(FloatType(name) for name in FLOAT_FORMATS) - supported
        converter = FloatEmulationConverter(unsupported, FloatType(run.options.target_type))
        result = apply_partial_conversion(op, extension_target(converter),
                                          PatternSet([EmulateFloatOp(converter)]), converter,
                                          first_failure_only=True)
        if not result.success:
            raise PassFailure(result.diagnostics)
