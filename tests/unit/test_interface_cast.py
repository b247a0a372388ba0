"""The Cast interface: casts declared by the (source, target) types they allow give the
verifier's check and `are_cast_compatible`. The expectations are MLIR's (mlir-opt-22
accepts and rejects the same arith casts; see tests/filecheck/diagnostics/casts.mlir)."""

import pytest

from mlc.ir import Context, DiagnosticError, parse_module, verify
from mlc.ir.core.attributes import (
    FloatType,
    IndexType,
    IntegerType,
    RankedTensorType,
    VectorType,
)
from mlc.ir.dialects.arith.casts import (
    ExtFOp,
    ExtSIOp,
    FPToSIOp,
    IndexCastOp,
    SIToFPOp,
    TruncFOp,
    TruncIOp,
)
from mlc.ir.dialects.builtin import UnrealizedConversionCastOp
from mlc.ir.interfaces.cast import Cast, CastRule, are_cast_compatible
from mlc.ir.opdef.constraints import AnyFloat

f16, f32, f64, bf16 = FloatType("f16"), FloatType("f32"), FloatType("f64"), FloatType("bf16")
i1, i8, i32, i64 = IntegerType(1), IntegerType(8), IntegerType(32), IntegerType(64)
ui32 = IntegerType(32, "unsigned")
index = IndexType()


@pytest.mark.parametrize("op_class, source, target, allowed", [
    (ExtFOp, f16, f32, True),
    (ExtFOp, bf16, f32, True),
    (ExtFOp, f32, f16, False),
    (ExtFOp, f32, f32, False),
    (TruncFOp, f64, f16, True),
    (TruncFOp, f16, f64, False),
    (ExtSIOp, i1, i64, True),
    (ExtSIOp, i64, i32, False),
    (ExtSIOp, f16, f32, False),
    (TruncIOp, i64, i8, True),
    (TruncIOp, i8, i8, False),
    (IndexCastOp, index, i32, True),
    (IndexCastOp, i1, index, True),
    (IndexCastOp, i32, i64, False),
    (IndexCastOp, index, index, False),
    (SIToFPOp, i32, f32, True),
    (SIToFPOp, i32, i64, False),
    (SIToFPOp, ui32, f32, False),  # signless integers only, as MLIR
    (SIToFPOp, index, f32, False),
    (FPToSIOp, bf16, i8, True),
    (FPToSIOp, f32, f32, False),
])
def test_arith_casts_allow_their_declared_pairs(op_class, source, target, allowed):
    assert are_cast_compatible(op_class, [source], [target]) is allowed
    # Elementwise: the same answer between containers of one shape...
    vector = (VectorType((4,), source), VectorType((4,), target))
    assert are_cast_compatible(op_class, [vector[0]], [vector[1]]) is allowed
    tensor = (RankedTensorType((2, -1), source), RankedTensorType((2, -1), target))
    assert are_cast_compatible(op_class, [tensor[0]], [tensor[1]]) is allowed
    # ...and never between different shapes or containers, or scalar and container.
    assert not are_cast_compatible(op_class, [VectorType((4,), source)], [VectorType((5,), target)])
    assert not are_cast_compatible(op_class, [VectorType((4,), source)],
                                   [RankedTensorType((4,), target)])
    assert not are_cast_compatible(op_class, [source], [VectorType((1,), target)])


def test_a_cast_takes_one_input_and_gives_one_output():
    assert not are_cast_compatible(ExtFOp, [f16, f16], [f32])
    assert not are_cast_compatible(ExtFOp, [f16], [])


def test_a_cast_without_rules_allows_anything():
    # builtin.unrealized_conversion_cast casts between any types, any number of them.
    assert are_cast_compatible(UnrealizedConversionCastOp, [f32, i8], [RankedTensorType((2,), i1)])


def test_the_declaration_is_readable_and_only_casts_are_asked():
    assert str(Cast.get(ExtFOp)) == "Cast(floating-point to wider floating-point)"
    rule = CastRule(AnyFloat, AnyFloat)
    assert rule.allows(f16, f64) and not rule.allows(i8, f64)
    from mlc.ir.dialects.arith import AddFOp

    with pytest.raises(TypeError, match="'arith.addf' is not a cast"):
        are_cast_compatible(AddFOp, [f32], [f32])


@pytest.mark.parametrize("cast, message", [
    ("arith.extf %a : f64 to f32", "'arith.extf' op operand type 'f64' and result type 'f32' "
     "are cast incompatible (it casts floating-point to wider floating-point)"),
    # As MLIR's ODS: the op's declared operand type first (ui32 is no signless integer).
    ("arith.sitofp %a : ui32 to f32", "'arith.sitofp' op operand #0 must be "
     "signless-fixed-width-integer-like, but got 'ui32'"),
])
def test_the_verifier_reports_the_allowed_casts(cast, message):
    source = cast.split(" : ")[1].split(" to ")[0]
    text = f"func.func @f(%a: {source}) {{\n  %0 = {cast}\n  return\n}}\n"
    module = parse_module(text, Context())
    with pytest.raises(DiagnosticError) as info:
        verify(module)
    assert message in str(info.value)
