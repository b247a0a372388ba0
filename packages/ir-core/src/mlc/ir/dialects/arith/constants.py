"""arith's constant values, shared by its folders (`ops.py`) and its canonicalization
patterns (`canonicalization.py`): scalar and splat constants read as
(type, bits) and built back, integer wrap-around and two's-complement readings, and
elementwise folding of dense constants.

Floats travel as their IEEE bit patterns so that folding is exact in the target type
(f16, bf16, f32, f64) rather than in Python's doubles.
"""

from __future__ import annotations

import math

from mlc.ir.core.attributes import (
    Attribute,
    DenseElementsAttr,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    RankedTensorType,
    ShapedType,
    Type,
    UnrankedTensorType,
    VectorType,
    bits_to_float,
    element_bits,
    element_dtype,
    float_to_bits,
    i1,
    round_int_to_precision,
    stores_float_bits,
)
from mlc.ir.core.ir import Value
from mlc.ir.dialects.ub.ops import poison_of
from mlc.ir.opdef.traits import constant_value


def constant_scalars(attr: Attribute | None):
    """(element type, value) of a scalar or splat constant, else None."""
    if isinstance(attr, IntegerAttr):
        return attr.type, attr.value
    if isinstance(attr, FloatAttr):
        return attr.type, attr.bits
    first = attr.splat_element() if isinstance(attr, DenseElementsAttr) else None
    if first is not None:
        element = attr.type.element_type
        if isinstance(element, FloatType):
            bits = int(first) if stores_float_bits(element) else float_to_bits(float(first), element)
            return attr.type, bits
        return attr.type, int(first)
    return None


def element_type_of(type_: Type) -> Type:
    """The element type of a shaped type; a scalar type itself."""
    return type_.element_type if isinstance(type_, ShapedType) else type_


def with_element_type(type_: Type, element: Type) -> Type:
    """`type_`'s shape (vector, tensor, or none for a scalar) around `element`."""
    if isinstance(type_, VectorType):
        return VectorType(type_.shape, element, type_.scalable)
    if isinstance(type_, RankedTensorType):
        return RankedTensorType(type_.shape, element, type_.encoding)
    if isinstance(type_, UnrankedTensorType):
        return UnrankedTensorType(element)
    return element


def make_constant(type_: Type, value: int) -> Attribute | None:
    """A scalar or splat constant of `type_` (floats given as bit patterns); None for a
    tensor of dynamic shape, which no constant has."""
    element = element_type_of(type_)
    if isinstance(type_, (RankedTensorType, VectorType)):
        if not type_.has_static_shape():
            return None
        if isinstance(element, FloatType):
            scalar = value if stores_float_bits(element) else bits_to_float(value, element)
        else:
            scalar = bool(value) if element == i1 else value
        return DenseElementsAttr.from_array(scalar, type_)
    if isinstance(element, FloatType):
        return FloatAttr(value, element)
    return IntegerAttr(value, type_)


def int_width(type_: Type) -> int:
    """The width in bits of an integer-like type's elements (`index`: 64, as MLIR's
    constants and folders take it)."""
    element = element_type_of(type_)
    return 64 if isinstance(element, IndexType) else element.width


def wrap_int(value: int, type_: Type) -> int:
    """`value` modulo the integer type's width, in MLIR's printed range."""
    element = element_type_of(type_)
    width = int_width(element)
    if width <= 1:  # i0 holds only 0
        return value & ((1 << width) - 1)
    value &= (1 << width) - 1
    if getattr(element, "signedness", "signless") != "unsigned" and value >= 1 << (width - 1):
        value -= 1 << width
    return value


def as_signed(value: int, type_: Type) -> int:
    """The two's-complement reading of `value` (for i1: true is -1, as in MLIR; i0
    holds only 0)."""
    width = int_width(type_)
    if width == 0:
        return 0
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


def int_to_float_bits(value: int, type_: FloatType) -> int:
    """`value` rounded once, to nearest even, to `type_` (no detour through f64)."""
    precision = type_.format.precision
    return float_to_bits(float(round_int_to_precision(value, precision)), type_)


def to_unsigned(value: int, type_: Type) -> int:
    """The unsigned reading of `value` in the integer type's width."""
    return value & ((1 << int_width(type_)) - 1)


def is_float_value(attr: Attribute | None, value: float) -> bool:
    """Whether `attr` is a scalar or splat float constant equal to `value` (bitwise for 0)."""
    scalars = constant_scalars(attr)
    if scalars is None:
        return False
    type_, bits = scalars
    element = element_type_of(type_)
    if not isinstance(element, FloatType):
        return False
    return bits == float_to_bits(value, element)


def is_nan(attr: Attribute | None) -> bool:
    """Whether `attr` is a scalar or splat float constant that is a NaN (any payload)."""
    scalars = constant_scalars(attr)
    if scalars is None:
        return False
    element = element_type_of(scalars[0])
    return isinstance(element, FloatType) and math.isnan(bits_to_float(scalars[1], element))


def _nan_fields(bits: int, element: FloatType) -> tuple[int, int] | None:
    """(fraction, fraction width) of an IEEE-style NaN, else None (not a NaN, or a format
    whose NaN has no quiet bit)."""
    fmt = element.format
    if fmt.nonfinite != "ieee":
        return None
    fraction_bits = fmt.mantissa_bits - 1 if fmt.explicit_integer_bit else fmt.mantissa_bits
    top = (1 << fmt.exponent_bits) - 1
    fraction = bits & ((1 << fraction_bits) - 1)
    if (bits >> fmt.mantissa_bits) & top != top or not fraction:
        return None
    return fraction, fraction_bits


def is_signaling_nan(bits: int, element: FloatType) -> bool:
    """Whether `bits` is a signaling NaN (quiet bit clear) of an IEEE-style format."""
    fields = _nan_fields(bits, element)
    return fields is not None and not fields[0] >> (fields[1] - 1)


def quieted(bits: int, element: FloatType) -> int:
    """A NaN's bits with the quiet bit set (sign and payload kept), as APFloat's
    makeQuiet; other values unchanged."""
    fields = _nan_fields(bits, element)
    return bits if fields is None else bits | (1 << (fields[1] - 1))


def float_order_key(bits: int, element: FloatType) -> int:
    """An integer that orders non-NaN bit patterns of `element` as their values (both
    zeros get 0: they compare equal), read straight from the sign and magnitude bits so
    that no value is rounded on the way."""
    fmt = element.format
    if fmt.nonfinite == "exponent_only":  # unsigned: the bits are the order
        return bits
    magnitude_bits = fmt.exponent_bits + fmt.mantissa_bits
    magnitude = bits & ((1 << magnitude_bits) - 1)
    return -magnitude if bits >> magnitude_bits & 1 else magnitude


def is_int_value(attr: Attribute | None, value: int) -> bool:
    """Whether `attr` is a scalar or splat integer constant equal to `value` (modulo its width)."""
    scalars = constant_scalars(attr)
    if scalars is None or isinstance(element_type_of(scalars[0]), FloatType):
        return False
    return wrap_int(scalars[1], scalars[0]) == wrap_int(value, scalars[0])


def constant_elements(attr: Attribute | None):
    """(type, [element values]) of a non-splat dense constant (floats as bit
    patterns), else None."""
    if not isinstance(attr, DenseElementsAttr) or attr.is_splat():
        return None
    flat = attr.array.reshape(-1)
    if isinstance(attr.type.element_type, FloatType):
        return attr.type, element_bits(flat)
    return attr.type, [int(v) for v in flat.tolist()]


def fold_binary(operands, scalar_fold, result_type: Type | None = None) -> Attribute | None:
    """Fold two constants with `scalar_fold(a, b)` on their elements (floats as bit
    patterns; it returns None to refuse), as MLIR's constFoldBinaryOp: scalars and
    splats give a scalar or splat, dense constants fold element by element (a splat
    side is broadcast). The result has the operands' type, or `result_type` (a
    comparison's i1)."""
    lhs, rhs = (constant_scalars(a) for a in operands)
    if lhs is not None and rhs is not None:
        if lhs[0] != rhs[0]:
            return None
        value = scalar_fold(lhs[1], rhs[1])
        return None if value is None else make_constant(result_type or lhs[0], value)
    sides = []
    for attr in operands:
        elements = constant_elements(attr)
        if elements is None:
            scalars = constant_scalars(attr)
            if scalars is None:
                return None
            elements = (scalars[0], None, scalars[1])
        else:
            elements = (elements[0], elements[1], None)
        sides.append(elements)
    (lhs_type, lhs_values, lhs_splat), (rhs_type, rhs_values, rhs_splat) = sides
    if lhs_type != rhs_type:
        return None
    count = len(lhs_values if lhs_values is not None else rhs_values)
    results = []
    for i in range(count):
        a = lhs_values[i] if lhs_values is not None else lhs_splat
        b = rhs_values[i] if rhs_values is not None else rhs_splat
        value = scalar_fold(a, b)
        if value is None:
            return None
        results.append(value)
    return dense_of(results, result_type or lhs_type)


def fold_unary(operand: Attribute | None, scalar_fold, result_type: Type) -> Attribute | None:
    """Fold one constant with `scalar_fold(value)` on its elements (floats as bit
    patterns; it returns None to refuse), as MLIR's constFoldUnaryOp/constFoldCastOp: a
    scalar or splat gives a scalar or splat of `result_type`, a dense constant folds
    element by element."""
    scalars = constant_scalars(operand)
    if scalars is not None:
        value = scalar_fold(scalars[1])
        return None if value is None else make_constant(result_type, value)
    elements = constant_elements(operand)
    if elements is None:
        return None
    results = []
    for element in elements[1]:
        value = scalar_fold(element)
        if value is None:
            return None
        results.append(value)
    return dense_of(results, result_type)


def dense_of(values: list[int], type_: Type) -> DenseElementsAttr:
    """A dense constant of the shaped `type_` from its element values (floats as bit
    patterns), in row-major order."""
    import numpy as np

    element = element_type_of(type_)
    dtype = element_dtype(element)
    if dtype.hasobject:
        array = np.array(values, dtype=object)
    elif isinstance(element, FloatType):
        array = np.array(values, dtype=f"u{dtype.itemsize}").view(dtype)
    else:
        if dtype != np.bool_:
            values = [wrap_int(v, element) if dtype.kind == "i" else to_unsigned(v, element)
                      for v in values]
        array = np.array([bool(v) if dtype == np.bool_ else v for v in values], dtype=dtype)
    return DenseElementsAttr.from_array(array.reshape(type_.shape), type_)


def fold_float_binary(operands, fn) -> Attribute | None:
    """Fold a float operation `fn(a, b)`, computed in Python and rounded to the type
    (poison if an operand is poison)."""
    poison = poison_of(operands)
    if poison is not None:
        return poison
    typed = next((a.type for a in operands if a is not None), None)
    if typed is None:
        return None
    element = element_type_of(typed)

    def scalar(a: int, b: int) -> int | None:
        try:
            return float_to_bits(fn(bits_to_float(a, element), bits_to_float(b, element)), element)
        except (ZeroDivisionError, OverflowError, ValueError):
            return None

    return fold_binary(operands, scalar)


def fold_int_binary(operands, fn) -> Attribute | None:
    """Fold an integer operation `fn(a, b, type)` (None: do not fold), wrapped to the type
    (poison if an operand is poison)."""
    poison = poison_of(operands)
    if poison is not None:
        return poison
    typed = next((a.type for a in operands if a is not None), None)
    if typed is None:
        return None

    def scalar(a: int, b: int) -> int | None:
        result = fn(a, b, typed)
        return None if result is None else wrap_int(result, typed)

    return fold_binary(operands, scalar)


def constant_value_of(value: Value) -> Attribute | None:
    """The attribute of the constant op defining `value`, if it is one."""
    return constant_value(value)
