"""arith's casts: between integer widths, float widths, integers and floats, index and
integers, and bit casts; elementwise on vectors and tensors, each declaring the
(source, target) types it allows (the Cast interface) and folding constants as MLIR.
"""

from __future__ import annotations

import math

from mlc.ir.core.attributes import (
    FloatType,
    IndexType,
    IntegerType,
    Type,
    bits_to_float,
    convert_float_bits_exactly,
)
from mlc.ir.dialects.arith.constants import (
    as_signed,
    element_type_of,
    fold_unary,
    int_to_float_bits,
    to_unsigned,
    wrap_int,
)
from mlc.ir.dialects.arith.ops import (
    OVERFLOW_NONE,
    FastMath,
    FastMathFlags,
    IntegerExtension,
    IntegerOverflowFlags,
    RoundingMode,
    arith,
)
from mlc.ir.dialects.ub.ops import is_poison
from mlc.ir.interfaces.cast import NARROWER, SAME_WIDTH, WIDER, Cast, CastRule
from mlc.ir.opdef.constraints import (
    AnyFloat,
    AnySignlessInteger,
    FloatLike,
    Index,
    SignlessFixedWidthIntegerLike,
    SignlessIntegerLike,
    TypeMatches,
    scalar_or_container,
)
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, ResultDef
from mlc.ir.opdef.traits import ElementwiseMappable, Pure


class _CastOp(Op):
    """An elementwise cast; each op declares the (source, target) types it allows, and
    how one constant element converts (`convert`; None: it does not fold)."""

    input = OperandDef()
    out = ResultDef()
    traits = (Pure,)
    assembly_format = "$input attr-dict `:` type($input) `to` type($out)"
    # Whether a chain of two such casts is one: ext(ext(x)) is ext(x), trunc(trunc(x))
    # is trunc(x).
    chains_collapse = False

    @staticmethod
    def convert(value: int, source: Type, target: Type) -> int | None:  # pragma: no cover
        """One constant element (an integer, or a float's bit pattern) cast."""
        raise NotImplementedError

    def fold(self, operands):
        source = self.input.defining_op
        if self.chains_collapse and type(source) is type(self):
            self.set_operand(0, source.input)  # folded in place
            return self.out
        return self.fold_constant(operands[0])

    def fold_constant(self, operand):
        """The cast of a constant operand, element by element (of poison: poison)."""
        if is_poison(operand):
            return operand
        source = element_type_of(self.input.type)
        target = element_type_of(self.out.type)
        convert = self.convert

        def scalar(value: int) -> int | None:
            converted = convert(value, source, target)
            if converted is not None and _int_like(target):
                converted = wrap_int(converted, target)
            return converted

        return fold_unary(operand, scalar, self.out.type)


def _int_like(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType))


def _elementwise_cast(*rules: CastRule, scaled: bool = False) -> tuple:
    """The traits of an arith cast: the casts it allows, elementwise (checked first, as
    MLIR's shape traits come before ElementwiseMappable's)."""
    return Cast(*rules, elementwise=True, scaled=scaled), ElementwiseMappable


INT_TO_FLOAT = _elementwise_cast(CastRule(AnySignlessInteger, AnyFloat))
FLOAT_TO_INT = _elementwise_cast(CastRule(AnyFloat, AnySignlessInteger))
INDEX_CAST = _elementwise_cast(CastRule(Index, AnySignlessInteger),
                               CastRule(AnySignlessInteger, Index))
_INT_OR_FLOAT = TypeMatches(lambda t: isinstance(t, FloatType) or (
    isinstance(t, IntegerType) and t.signedness == "signless"), "signless integer or floating-point")
# MLIR's words for its IndexCastTypeConstraint and BitcastTypeConstraint.
_INDEX_CAST_TYPE = TypeMatches(SignlessIntegerLike.predicate,
                               "signless-integer-like or memref of signless-integer")
_BITCAST_TYPE = TypeMatches(
    scalar_or_container(_INT_OR_FLOAT.predicate),
    "signless-integer-or-float-like or memref of signless-integer or float")


def _float_to_int(signed: bool):
    """fptosi/fptoui of a constant: rounded toward zero; NaN, infinities and values out
    of the target's range are not folded (the result is poison)."""

    def convert(bits: int, s: FloatType, t: IntegerType) -> int | None:
        value = bits_to_float(bits, s)
        if math.isnan(value) or math.isinf(value):
            return None
        truncated = int(value)
        low, high = ((-(1 << (t.width - 1)), (1 << (t.width - 1)) - 1) if signed
                     else (0, (1 << t.width) - 1))
        return truncated if low <= truncated <= high else None

    return staticmethod(convert)


@arith.op
class IndexCastOp(_CastOp):
    """Between `index` and a signless integer (sign-extending or truncating)."""

    name = "arith.index_cast"
    traits = INDEX_CAST
    input = OperandDef(_INDEX_CAST_TYPE)
    out = ResultDef(_INDEX_CAST_TYPE)
    convert = staticmethod(lambda v, s, t: as_signed(v, s))


@arith.op
class IndexCastUIOp(_CastOp):
    """Between `index` and a signless integer, read as unsigned (zero-extending or
    truncating)."""

    name = "arith.index_castui"
    traits = INDEX_CAST
    input = OperandDef(_INDEX_CAST_TYPE)
    out = ResultDef(_INDEX_CAST_TYPE)
    convert = staticmethod(lambda v, s, t: to_unsigned(v, s))


@arith.op
class BitcastOp(_CastOp):
    """Reinterprets the bits of an integer or float as another integer or float type of
    the same width (independent of endianness: the value's bit pattern is kept)."""

    name = "arith.bitcast"
    input = OperandDef(_BITCAST_TYPE)
    out = ResultDef(_BITCAST_TYPE)
    traits = _elementwise_cast(CastRule(_INT_OR_FLOAT, _INT_OR_FLOAT, SAME_WIDTH))
    convert = staticmethod(lambda v, s, t: to_unsigned(v, s) if _int_like(s) else v)

    def fold(self, operands):
        if self.input.type == self.out.type:
            return self.input  # a cast to its own type is the identity (CastOpInterface)
        return super().fold(operands)


@arith.op
class SIToFPOp(_CastOp):
    """Signed integer to floating point, rounding to nearest even."""

    name = "arith.sitofp"
    input = OperandDef(SignlessFixedWidthIntegerLike)
    out = ResultDef(FloatLike)
    traits = INT_TO_FLOAT
    convert = staticmethod(lambda v, s, t: int_to_float_bits(as_signed(v, s), t))


@arith.op
class UIToFPOp(_CastOp):
    """Unsigned integer to floating point, rounding to nearest even."""

    name = "arith.uitofp"
    input = OperandDef(SignlessFixedWidthIntegerLike)
    out = ResultDef(FloatLike)
    traits = INT_TO_FLOAT
    convert = staticmethod(lambda v, s, t: int_to_float_bits(to_unsigned(v, s), t))


@arith.op
class FPToSIOp(_CastOp):
    """Floating point to signed integer, rounding toward zero; NaN, infinities and
    values out of range give poison."""

    name = "arith.fptosi"
    input = OperandDef(FloatLike)
    out = ResultDef(SignlessFixedWidthIntegerLike)
    traits = FLOAT_TO_INT
    convert = _float_to_int(True)


@arith.op
class FPToUIOp(_CastOp):
    """Floating point to unsigned integer, rounding toward zero; NaN, infinities and
    values out of range give poison."""

    name = "arith.fptoui"
    input = OperandDef(FloatLike)
    out = ResultDef(SignlessFixedWidthIntegerLike)
    traits = FLOAT_TO_INT
    convert = _float_to_int(False)


def _has_contract(flags: FastMathFlags | None) -> bool:
    return flags is not None and FastMath.contract in flags.flags


@arith.op
class ExtFOp(_CastOp):
    """Widens a float. A constant folds when it converts exactly (a signaling NaN does
    not: converting it raises invalid)."""

    name = "arith.extf"
    input = OperandDef(FloatLike)
    out = ResultDef(FloatLike)
    traits = _elementwise_cast(CastRule(AnyFloat, AnyFloat, WIDER))
    fastmath = AttrDef(FastMathFlags, optional=True)
    assembly_format = ("$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` "
                       "type($out)")
    convert = staticmethod(convert_float_bits_exactly)

    def fold(self, operands):
        # extf(truncf(x)) is x when both may contract (drop the rounding in between).
        source = self.input.defining_op
        if isinstance(source, TruncFOp) and source.input.type == self.out.type and \
                _has_contract(source.fastmath) and _has_contract(self.fastmath):
            return source.input
        return super().fold(operands)


def _representable_in(source: FloatType, target: FloatType) -> bool:
    """Every value of `source` is one of `target` (LLVM's isRepresentableBy): exponent
    range and precision both fit."""
    src, dst = source.format, target.format
    return (_max_exponent(src) <= _max_exponent(dst) and _min_exponent(src) >= _min_exponent(dst)
            and src.precision <= dst.precision)


def _max_exponent(fmt) -> int:
    # The top exponent holds infinities and NaNs in IEEE formats (and the NaN of
    # f8E8M0FNU); the other small formats use it for numbers.
    top = (1 << fmt.exponent_bits) - 1
    reserved = fmt.nonfinite in ("ieee", "exponent_only")
    return top - reserved - fmt.bias


def _min_exponent(fmt) -> int:
    return -fmt.bias if fmt.nonfinite == "exponent_only" else 1 - fmt.bias


@arith.op
class TruncFOp(_CastOp):
    """Narrows a float, rounding as `roundingmode` says (default: to nearest even).

    A constant folds only when it converts exactly, so the rounding mode never matters
    to folding."""

    name = "arith.truncf"
    input = OperandDef(FloatLike)
    out = ResultDef(FloatLike)
    traits = _elementwise_cast(CastRule(AnyFloat, AnyFloat, NARROWER))
    roundingmode = AttrDef(RoundingMode, optional=True)
    fastmath = AttrDef(FastMathFlags, optional=True)
    assembly_format = ("$input ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` "
                       "type($input) `to` type($out)")
    convert = staticmethod(convert_float_bits_exactly)

    def fold(self, operands):
        # truncf(extf(a)): the extension lost nothing, so truncate `a` itself.
        source = self.input.defining_op
        if isinstance(source, ExtFOp):
            original = source.input.type
            original_element = element_type_of(original)
            target = element_type_of(self.out.type)
            if _representable_in(original_element, element_type_of(source.out.type)):
                if original_element.width > target.width:
                    self.set_operand(0, source.input)  # folded in place
                    return self.out
                if original == self.out.type:
                    return source.input
        return super().fold(operands)


@arith.op
class ExtSIOp(_CastOp, IntegerExtension):
    """Widens an integer, sign-extending."""

    name = "arith.extsi"
    input = OperandDef(SignlessFixedWidthIntegerLike)
    out = ResultDef(SignlessFixedWidthIntegerLike)
    chains_collapse = True
    traits = _elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, WIDER))
    convert = staticmethod(lambda v, s, t: as_signed(v, s))


@arith.op
class ExtUIOp(_CastOp, IntegerExtension):
    """Widens an integer, zero-extending."""

    name = "arith.extui"
    input = OperandDef(SignlessFixedWidthIntegerLike)
    out = ResultDef(SignlessFixedWidthIntegerLike)
    chains_collapse = True
    traits = _elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, WIDER))
    convert = staticmethod(lambda v, s, t: to_unsigned(v, s))


@arith.op
class TruncIOp(_CastOp):
    """Narrows an integer, dropping high bits."""

    name = "arith.trunci"
    input = OperandDef(SignlessFixedWidthIntegerLike)
    out = ResultDef(SignlessFixedWidthIntegerLike)
    chains_collapse = True
    traits = _elementwise_cast(CastRule(AnySignlessInteger, AnySignlessInteger, NARROWER))
    overflowFlags = AttrDef(IntegerOverflowFlags, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    assembly_format = ("$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) "
                       "`to` type($out)")
    convert = staticmethod(lambda v, s, t: v)

    def fold(self, operands):
        source = self.input.defining_op
        if isinstance(source, (ExtSIOp, ExtUIOp)):
            # Truncating an extension drops the bits it added, and maybe more: trunci of
            # the original (in place) when it is wider still, the original when it has
            # the result's type. A narrower original is the patterns' (TruncIExt*).
            original = source.input
            if element_type_of(original.type).width > element_type_of(self.out.type).width:
                self.set_operand(0, original)
                return self.out
            if original.type == self.out.type:
                return original
        return super().fold(operands)


class _ScalingCastOp(Op):
    """scaling_extf/scaling_truncf: a float cast of `input` scaled by `scale` (one scale
    per element, typically an `f8E8M0FNU` power of two, as in the OCP microscaling
    formats); MLIR gives them no folder."""

    input = OperandDef(FloatLike)
    scale = OperandDef(FloatLike)
    out = ResultDef(FloatLike)
    fastmath = AttrDef(FastMathFlags, optional=True)


@arith.op
class ScalingExtFOp(_ScalingCastOp):
    """Widens `input` and multiplies it by `scale` (converted to the result type):
    `extf(input) * extf(scale)`; a NaN in either gives NaN."""

    name = "arith.scaling_extf"
    traits = (Pure, *_elementwise_cast(CastRule(AnyFloat, AnyFloat, WIDER), scaled=True))
    assembly_format = ("$input `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` "
                       "type($input) `,` type($scale) `to` type($out)")


@arith.op
class ScalingTruncFOp(_ScalingCastOp):
    """Divides `input` by `scale` (converted to the input type) and narrows the quotient,
    rounding as `roundingmode` says: `truncf(input / extf(scale))`."""

    name = "arith.scaling_truncf"
    traits = (Pure, *_elementwise_cast(CastRule(AnyFloat, AnyFloat, NARROWER), scaled=True))
    roundingmode = AttrDef(RoundingMode, optional=True)
    assembly_format = ("$input `,` $scale ($roundingmode^)? (`fastmath` `` $fastmath^)? "
                       "attr-dict `:` type($input) `,` type($scale) `to` type($out)")
