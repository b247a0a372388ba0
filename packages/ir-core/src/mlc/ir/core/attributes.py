"""Builtin attributes and types: immutable, hashable values.

Types and attributes are compared structurally and used as dictionary keys, so every
class here is a frozen dataclass. Each knows how to write itself in MLIR's textual
syntax through an :class:`AsmWriter`; parsing lives in :mod:`mlc.ir.text`.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import numpy as np

DYNAMIC = -1
"""The size of a dynamic (`?`) dimension in a shape."""


class AsmWriter:
    """Accumulates text for types and attributes, with the printer's options."""

    __slots__ = ("parts", "elide_large_elements", "hex_if_larger", "used_resources",
                 "elide_default_type", "aliases")

    def __init__(self, elide_large_elements: int | None = None, hex_if_larger: int | None = None,
                 used_resources: dict[str, None] | None = None,
                 aliases: dict[Attribute, str] | None = None):
        self.parts: list[str] = []
        self.used_resources = used_resources
        # `#map`-style names for attributes the printer defines once at the top.
        self.aliases = aliases
        # Inside arrays MLIR omits the `: i64` / `: f64` of integer and float elements.
        self.elide_default_type = False
        self.elide_large_elements = elide_large_elements
        self.hex_if_larger = hex_if_larger

    def write(self, text: str) -> None:
        self.parts.append(text)

    def attr(self, attr: Attribute) -> None:
        attr.write(self)

    def type(self, type_: Type) -> None:
        type_.write(self)

    def dialect_body(self, value: Attribute) -> None:
        """The body of a dialect type or attribute, as its declaration spells it."""
        self.body_writer(value, self)

    # Installed by the text layer, which compiles declared formats (mlc.ir.text.format).
    body_writer: ClassVar[Any] = None

    def join(self, items, sep: str = ", ") -> None:
        first = True
        for item in items:
            if not first:
                self.parts.append(sep)
            first = False
            item.write(self)

    def text(self) -> str:
        return "".join(self.parts)


class Attribute:
    """Base of every attribute (and, through :class:`Type`, every type)."""

    __slots__ = ()

    def write(self, w: AsmWriter) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def __str__(self) -> str:
        w = AsmWriter()
        self.write(w)
        return w.text()


class Type(Attribute):
    """Base of every type."""

    __slots__ = ()


# --------------------------------------------------------------------------- types


@dataclass(frozen=True, slots=True)
class IntegerType(Type):
    """`iN` (signless), `siN` or `uiN`."""

    width: int
    signedness: str = "signless"

    def write(self, w: AsmWriter) -> None:
        prefix = {"signless": "i", "signed": "si", "unsigned": "ui"}[self.signedness]
        w.write(f"{prefix}{self.width}")

    def __str__(self) -> str:
        return {"signless": "i", "signed": "si", "unsigned": "ui"}[self.signedness] + str(self.width)


@dataclass(frozen=True, slots=True)
class IndexType(Type):
    """`index`: the target's pointer-sized integer."""

    def write(self, w: AsmWriter) -> None:
        w.write("index")


@dataclass(frozen=True, slots=True)
class NoneType(Type):
    """`none`."""

    def write(self, w: AsmWriter) -> None:
        w.write("none")


@dataclass(frozen=True)
class FloatFormat:
    """The encoding of a float type (LLVM's fltSemantics): field widths, bias, and what
    the top exponent and the sign mean.

    `nonfinite`: "ieee" (infinities and NaNs in the top exponent), "nan_only" (no
    infinity; only all-ones is NaN: the `FN` types), "nan_is_negative_zero" (no
    infinity, no -0; NaN is the sign bit alone: `FNUZ`), "finite" (neither: `f6`/`f4`),
    "exponent_only" (no sign, no mantissa, all-ones is NaN: `f8E8M0FNU`).
    """

    exponent_bits: int
    mantissa_bits: int  # stored fraction bits (f80's include its explicit integer bit)
    bias: int
    struct_code: str | None = None  # a native struct format, when there is one
    nonfinite: str = "ieee"

    @property
    def width(self) -> int:
        signed = self.nonfinite != "exponent_only"
        return int(signed) + self.exponent_bits + self.mantissa_bits

    @property
    def explicit_integer_bit(self) -> bool:
        return self.exponent_bits == 15 and self.mantissa_bits == 64  # x87 f80

    @property
    def precision(self) -> int:
        """Significand bits, the implicit one included."""
        return self.mantissa_bits if self.explicit_integer_bit else self.mantissa_bits + 1


def _ieee(exponent: int, mantissa: int, code: str | None = None, **kw) -> FloatFormat:
    return FloatFormat(exponent, mantissa, (1 << (exponent - 1)) - 1, code, **kw)


FLOAT_FORMATS: dict[str, FloatFormat] = {
    "f16": _ieee(5, 10, "e"), "bf16": _ieee(8, 7), "tf32": _ieee(8, 10), "f32": _ieee(8, 23, "f"),
    "f64": _ieee(11, 52, "d"), "f80": _ieee(15, 64), "f128": _ieee(15, 112),
    "f8E5M2": _ieee(5, 2), "f8E4M3": _ieee(4, 3), "f8E3M4": _ieee(3, 4),
    "f8E4M3FN": _ieee(4, 3, nonfinite="nan_only"),
    "f8E5M2FNUZ": FloatFormat(5, 2, 16, nonfinite="nan_is_negative_zero"),
    "f8E4M3FNUZ": FloatFormat(4, 3, 8, nonfinite="nan_is_negative_zero"),
    "f8E4M3B11FNUZ": FloatFormat(4, 3, 11, nonfinite="nan_is_negative_zero"),
    "f8E8M0FNU": FloatFormat(8, 0, 127, nonfinite="exponent_only"),
    "f6E2M3FN": _ieee(2, 3, nonfinite="finite"), "f6E3M2FN": _ieee(3, 2, nonfinite="finite"),
    "f4E2M1FN": _ieee(2, 1, nonfinite="finite"),
}
"""Every float type MLIR 22 has, by name."""


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    """A float type by name: `f16`, `bf16`, `tf32`, `f32`, `f64`, `f80`, `f128` and the
    small formats (`f8E4M3FN`, `f4E2M1FN`, ...; see FLOAT_FORMATS)."""

    name: str

    @property
    def format(self) -> FloatFormat:
        return FLOAT_FORMATS[self.name]

    @property
    def width(self) -> int:
        return FLOAT_FORMATS[self.name].width

    def write(self, w: AsmWriter) -> None:
        w.write(self.name)


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    """`(inputs) -> results`."""

    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def write(self, w: AsmWriter) -> None:
        w.write("(")
        w.join(self.inputs)
        w.write(") -> ")
        write_result_types(w, self.results)


def write_result_types(w: AsmWriter, results: tuple[Type, ...]) -> None:
    """Results of a function type: a lone non-function type goes without parentheses."""
    if len(results) == 1 and not isinstance(results[0], FunctionType):
        results[0].write(w)
    else:
        w.write("(")
        w.join(results)
        w.write(")")


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    """`tuple<t0, t1, ...>`."""

    types: tuple[Type, ...]

    def write(self, w: AsmWriter) -> None:
        w.write("tuple<")
        w.join(self.types)
        w.write(">")


def _write_eliding_i64(w: AsmWriter, attr: Attribute) -> None:
    """An attribute where MLIR omits the `: i64` of an integer (memory spaces)."""
    saved = w.elide_default_type
    w.elide_default_type = True
    attr.write(w)
    w.elide_default_type = saved


def _write_shape(w: AsmWriter, shape: tuple[int, ...]) -> None:
    for dim in shape:
        w.write("?x" if dim == DYNAMIC else f"{dim}x")


class ShapedType(Type):
    """Common interface of tensor, memref and vector types."""

    __slots__ = ()
    shape: tuple[int, ...]
    element_type: Type

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def num_elements(self) -> int:
        return math.prod(self.shape)

    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape


@dataclass(frozen=True, slots=True)
class RankedTensorType(ShapedType):
    """`tensor<2x?x4xf32>` with an optional encoding attribute."""

    shape: tuple[int, ...]
    element_type: Type
    encoding: Attribute | None = None

    def write(self, w: AsmWriter) -> None:
        w.write("tensor<")
        _write_shape(w, self.shape)
        self.element_type.write(w)
        if self.encoding is not None:
            w.write(", ")
            self.encoding.write(w)
        w.write(">")


@dataclass(frozen=True, slots=True)
class UnrankedTensorType(Type):
    """`tensor<*xf32>`."""

    element_type: Type

    def write(self, w: AsmWriter) -> None:
        w.write("tensor<*x")
        self.element_type.write(w)
        w.write(">")


@dataclass(frozen=True, slots=True)
class VectorType(ShapedType):
    """`vector<4xf32>`, `vector<f32>` (0-d), `vector<4x[8]xf16>` (scalable dims)."""

    shape: tuple[int, ...]
    element_type: Type
    scalable: tuple[bool, ...] = ()

    def write(self, w: AsmWriter) -> None:
        w.write("vector<")
        for i, dim in enumerate(self.shape):
            w.write(f"[{dim}]x" if self.scalable and self.scalable[i] else f"{dim}x")
        self.element_type.write(w)
        w.write(">")


@dataclass(frozen=True, slots=True)
class ComplexType(Type):
    """`complex<f32>`."""

    element_type: Type

    def write(self, w: AsmWriter) -> None:
        w.write("complex<")
        self.element_type.write(w)
        w.write(">")


def _drop_default_space(type_) -> None:
    """MLIR's MemRefType::get drops an integer memory space 0 (the default), so
    `memref<4xf32, 0>` is `memref<4xf32>`."""
    space = type_.memory_space
    if isinstance(space, IntegerAttr) and space.value == 0:
        object.__setattr__(type_, "memory_space", None)


@dataclass(frozen=True, slots=True)
class MemRefType(ShapedType):
    """`memref<4x?xf32, layout, memory_space>`."""

    shape: tuple[int, ...]
    element_type: Type
    layout: Attribute | None = None
    memory_space: Attribute | None = None

    def __post_init__(self) -> None:
        _drop_default_space(self)

    def write(self, w: AsmWriter) -> None:
        w.write("memref<")
        _write_shape(w, self.shape)
        self.element_type.write(w)
        if self.layout is not None:
            w.write(", ")
            self.layout.write(w)
        if self.memory_space is not None:
            w.write(", ")
            _write_eliding_i64(w, self.memory_space)
        w.write(">")


@dataclass(frozen=True, slots=True)
class UnrankedMemRefType(Type):
    """`memref<*xf32, memory_space>`."""

    element_type: Type
    memory_space: Attribute | None = None

    def __post_init__(self) -> None:
        _drop_default_space(self)

    def write(self, w: AsmWriter) -> None:
        w.write("memref<*x")
        self.element_type.write(w)
        if self.memory_space is not None:
            w.write(", ")
            _write_eliding_i64(w, self.memory_space)
        w.write(">")


@dataclass(frozen=True, slots=True)
class OpaqueType(Type):
    """A type of a dialect that is not loaded: `!dialect.name<body>`, kept as text."""

    dialect: str
    body: str

    def write(self, w: AsmWriter) -> None:
        w.write(f"!{self.dialect}{self.body}")


i1 = IntegerType(1)
i8 = IntegerType(8)
i16 = IntegerType(16)
i32 = IntegerType(32)
i64 = IntegerType(64)
index = IndexType()
f16 = FloatType("f16")
bf16 = FloatType("bf16")
f32 = FloatType("f32")
f64 = FloatType("f64")
none = NoneType()


# ---------------------------------------------------------------------- attributes


@dataclass(frozen=True, slots=True)
class UnitAttr(Attribute):
    """`unit`: an attribute whose presence is the information."""

    def write(self, w: AsmWriter) -> None:
        w.write("unit")


unit = UnitAttr()


@dataclass(frozen=True, slots=True)
class IntegerAttr(Attribute):
    """`42 : i32`; with type `i1` it is a bool and prints `true`/`false`."""

    value: int
    type: Type = i64

    def write(self, w: AsmWriter) -> None:
        if self.type == i1:
            w.write("true" if self.value else "false")
            return
        w.write(str(self.value))
        if not (w.elide_default_type and self.type == i64):
            w.write(" : ")
            self.type.write(w)


def BoolAttr(value: bool) -> IntegerAttr:  # noqa: N802 - reads like the other attribute classes
    """A bool attribute is an `i1` integer attribute, as in MLIR."""
    return IntegerAttr(1 if value else 0, i1)


def round_int_to_precision(value: int, precision: int) -> int:
    """`value` rounded to the nearest integer with at most `precision` significant bits,
    ties to even: what converting it to a float of that precision gives (before any
    overflow), without a detour through f64."""
    magnitude = abs(value)
    extra = magnitude.bit_length() - precision
    if extra > 0:
        quotient, remainder = divmod(magnitude, 1 << extra)
        half = 1 << (extra - 1)
        if remainder > half or (remainder == half and quotient & 1):
            quotient += 1
        magnitude = quotient << extra
    return -magnitude if value < 0 else magnitude


def float_to_bits(value: float, type_: FloatType) -> int:
    """The bit pattern of `value` rounded to `type_` (round-to-nearest-even; beyond the
    range: infinity, or NaN or the largest finite value where the type has no infinity,
    as LLVM's APFloat converts)."""
    fmt = FLOAT_FORMATS[type_.name]
    if fmt.struct_code is not None:
        try:
            return int.from_bytes(struct.pack("<" + fmt.struct_code, value), "little")
        except OverflowError:  # finite doubles beyond the type's range round to infinity
            return float_to_bits(math.copysign(math.inf, value), type_)
    exp_bits, mant_bits, kind = fmt.exponent_bits, fmt.mantissa_bits, fmt.nonfinite
    explicit = fmt.explicit_integer_bit
    fraction_bits = mant_bits - 1 if explicit else mant_bits
    negative = math.copysign(1.0, value) < 0
    sign = (1 << (exp_bits + mant_bits)) if negative and kind != "exponent_only" else 0
    top = (1 << exp_bits) - 1
    if math.isnan(value) or (kind == "exponent_only" and (negative or value == 0.0)):
        return _nan_bits(fmt, sign)
    if math.isinf(value):
        return _overflow_bits(fmt, sign)
    magnitude = abs(value)
    if magnitude == 0.0:
        return 0 if kind == "nan_is_negative_zero" else sign
    bias = fmt.bias
    _, e = math.frexp(magnitude)
    lowest = -bias if kind == "exponent_only" else 1 - bias
    exponent = max(e - 1, lowest)
    # Scale so the significand's integer part has fraction_bits + 1 bits; round half
    # to even (Python's round on an exactly representable float).
    significand = round(math.ldexp(magnitude, fraction_bits - exponent))
    if significand >= 1 << (fraction_bits + 1):
        significand >>= 1
        exponent += 1
    if kind == "exponent_only":
        biased = exponent + bias
        return _nan_bits(fmt, 0) if biased >= top else max(biased, 0)
    if significand < 1 << fraction_bits:  # subnormal
        if significand == 0 and kind == "nan_is_negative_zero":
            return 0
        biased = 0
    else:
        biased = exponent + bias
    fraction = significand if explicit else significand & ((1 << fraction_bits) - 1)
    if biased > top or (biased == top and (kind == "ieee" or (
            kind == "nan_only" and fraction == (1 << fraction_bits) - 1))):
        return _overflow_bits(fmt, sign)
    return sign | (biased << mant_bits) | fraction


def _nan_bits(fmt: FloatFormat, sign: int) -> int:
    """The quiet NaN of a format (its only NaN, where it has one encoding)."""
    exp_bits, mant_bits, kind = fmt.exponent_bits, fmt.mantissa_bits, fmt.nonfinite
    top = (1 << exp_bits) - 1
    if kind == "nan_only":
        return sign | (top << mant_bits) | ((1 << mant_bits) - 1)
    if kind == "nan_is_negative_zero":
        return 1 << (exp_bits + mant_bits)
    if kind == "exponent_only":
        return top
    if kind == "finite":
        raise ValueError("NaN is not representable in a type without NaN")
    fraction_bits = mant_bits - 1 if fmt.explicit_integer_bit else mant_bits
    integer_bit = (1 << fraction_bits) if fmt.explicit_integer_bit else 0
    return sign | (top << mant_bits) | integer_bit | (1 << (fraction_bits - 1))


def _overflow_bits(fmt: FloatFormat, sign: int) -> int:
    """What a value beyond the range becomes: infinity, else NaN, else the largest
    finite value (for types with neither)."""
    exp_bits, mant_bits, kind = fmt.exponent_bits, fmt.mantissa_bits, fmt.nonfinite
    top = (1 << exp_bits) - 1
    if kind == "ieee":
        fraction_bits = mant_bits - 1 if fmt.explicit_integer_bit else mant_bits
        integer_bit = (1 << fraction_bits) if fmt.explicit_integer_bit else 0
        return sign | (top << mant_bits) | integer_bit
    if kind == "finite":
        return sign | (top << mant_bits) | ((1 << mant_bits) - 1)
    return _nan_bits(fmt, sign)


def convert_float_bits_exactly(bits: int, source: FloatType, target: FloatType) -> int | None:
    """`bits` of `source` as a `target`, when the conversion loses nothing (as MLIR
    folds `arith.extf` and `arith.truncf`, whatever the rounding mode): a value the
    target holds exactly; an infinity where it has one; a quiet NaN with its sign and
    payload (shifted into the target's fraction, as LLVM's APFloat converts, when no
    payload bit is dropped). Else None: a signaling NaN (converting it raises an
    invalid-operation flag), a value that would round or overflow. From formats wider
    than f64, only values that are doubles convert (the others do not fit a Python
    float), and no NaN."""
    src, dst = FLOAT_FORMATS[source.name], FLOAT_FORMATS[target.name]
    value = bits_to_float(bits, source)
    if src.width > 64 or src.explicit_integer_bit:
        if math.isnan(value) or float_to_bits(value, source) != bits:
            return None
    if math.isnan(value):
        if src.nonfinite != "ieee" or dst.nonfinite != "ieee" or dst.explicit_integer_bit:
            return None
        fraction = bits & ((1 << src.mantissa_bits) - 1)
        if not fraction >> (src.mantissa_bits - 1):
            return None  # signaling
        shift = dst.mantissa_bits - src.mantissa_bits
        if shift < 0 and fraction & ((1 << -shift) - 1):
            return None  # payload bits would be dropped
        sign = (bits >> (src.exponent_bits + src.mantissa_bits)) & 1
        return ((sign << (dst.exponent_bits + dst.mantissa_bits))
                | (((1 << dst.exponent_bits) - 1) << dst.mantissa_bits)
                | (fraction << shift if shift >= 0 else fraction >> -shift))
    converted = float_to_bits(value, target)
    back = bits_to_float(converted, target)
    if back != value or math.copysign(1.0, back) != math.copysign(1.0, value):
        return None  # rounded, overflowed, or lost the sign of a zero
    return converted


def bits_to_float(bits: int, type_: FloatType) -> float:
    """The value (as a Python float, rounded if the type is wider) of a bit pattern."""
    fmt = FLOAT_FORMATS[type_.name]
    if fmt.struct_code is not None:
        return struct.unpack("<" + fmt.struct_code, bits.to_bytes(fmt.width // 8, "little"))[0]
    exp_bits, mant_bits, kind = fmt.exponent_bits, fmt.mantissa_bits, fmt.nonfinite
    explicit = fmt.explicit_integer_bit
    fraction_bits = mant_bits - 1 if explicit else mant_bits
    top = (1 << exp_bits) - 1
    bias = fmt.bias
    if kind == "exponent_only":
        return math.nan if bits == top else math.ldexp(1.0, bits - bias)
    sign = -1.0 if (bits >> (exp_bits + mant_bits)) & 1 else 1.0
    exponent = (bits >> mant_bits) & top
    fraction = bits & ((1 << fraction_bits) - 1)
    if kind == "nan_is_negative_zero" and bits == 1 << (exp_bits + mant_bits):
        return math.nan
    if kind == "nan_only" and exponent == top and fraction == (1 << fraction_bits) - 1:
        return math.copysign(math.nan, sign)
    if kind == "ieee" and exponent == top:
        return math.copysign(math.nan, sign) if fraction else sign * math.inf
    if exponent == 0:
        significand, scale = fraction, 1 - bias - fraction_bits
    else:
        significand, scale = fraction | (1 << fraction_bits), exponent - bias - fraction_bits
    try:
        return sign * math.ldexp(float(significand), scale)
    except OverflowError:
        return sign * math.inf


def format_float(bits: int, type_: FloatType) -> str:
    """MLIR's float spelling: `%e` with 6 digits if that reads back exactly, else
    LLVM's APFloat::toString (as many digits as the type's precision needs) if that
    has a decimal point, else (an integer such as `4294967296`, inf, nan...) the hex
    bit pattern."""
    fmt = FLOAT_FORMATS[type_.name]
    value = bits_to_float(bits, type_)
    if math.isfinite(value):
        text = f"{value:.6e}"
        if float_to_bits(float(text), type_) == bits:
            return text
        text = apfloat_text(value, fmt.precision)
        if "." in text:
            return text
    return f"0x{bits:0{(fmt.width + 3) // 4}X}"


def apfloat_text(value: float, precision: int) -> str:
    """LLVM's APFloat::toString with its defaults, for a finite nonzero `value` of a
    type of `precision` significand bits: the exact value rounded (half up, on the
    first dropped digit) to 2 + precision * 59 / 196 significant digits, trailing
    zeros dropped; plain unless that needs more than 3 zeros of padding (`1.5E+12`,
    `1.5E-5`)."""
    from decimal import Decimal

    digits_limit = 2 + precision * 59 // 196
    sign, digit_tuple, exponent = Decimal(value).as_tuple()
    digits = list(digit_tuple)
    if len(digits) > digits_limit:
        round_up = digits[digits_limit] >= 5
        exponent += len(digits) - digits_limit
        digits = digits[:digits_limit]
        if round_up:
            i = len(digits) - 1
            while i >= 0 and digits[i] == 9:
                digits[i] = 0
                i -= 1
            if i < 0:
                digits.insert(0, 1)
                digits.pop()
                exponent += 1
            else:
                digits[i] += 1
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exponent += 1
    text = "".join(map(str, digits))
    count = len(digits)
    if exponent >= 0:
        scientific = exponent > 3 or count + exponent > digits_limit
    else:
        scientific = exponent + count - 1 < -3
    if scientific:
        power = exponent + count - 1
        mantissa = text[0] + "." + (text[1:] or "0")
        body = f"{mantissa}E{'+' if power >= 0 else '-'}{abs(power)}"
    elif exponent >= 0:
        body = text + "0" * exponent
    elif count + exponent > 0:
        body = text[:count + exponent] + "." + text[count + exponent:]
    else:
        body = "0." + "0" * -(count + exponent) + text
    return ("-" if sign else "") + body


@dataclass(frozen=True, slots=True)
class FloatAttr(Attribute):
    """`1.5 : f32`. Stored as the bit pattern, so every NaN payload and -0.0 round-trip."""

    bits: int
    type: FloatType = f64

    @staticmethod
    def from_value(value: float, type_: FloatType = f64) -> FloatAttr:
        return FloatAttr(float_to_bits(value, type_), type_)

    @property
    def value(self) -> float:
        return bits_to_float(self.bits, self.type)

    def write(self, w: AsmWriter) -> None:
        text = format_float(self.bits, self.type)
        w.write(text)
        # A hex spelling reads back as an integer unless the type says otherwise.
        if not (w.elide_default_type and self.type == f64 and not text.startswith("0x")):
            w.write(" : ")
            self.type.write(w)


def escape_string(value: str) -> str:
    """MLIR's string escaping: `\\` as `\\\\`, and `"` and every byte outside printable
    ASCII as `\\XX` (`"` is `\\22`), as mlir-opt prints them."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return value
    out = []
    for byte in value.encode("utf-8", "surrogateescape"):
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and byte != 0x22:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:02X}")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class StringAttr(Attribute):
    """`"text"`, with MLIR's escapes; `"text" : !dialect.type` when it has a type (a
    string's type is usually none, and then not printed)."""

    value: str
    type: Type | None = None

    def write(self, w: AsmWriter) -> None:
        w.write(f'"{escape_string(self.value)}"')
        if self.type is not None:
            w.write(" : ")
            self.type.write(w)


@dataclass(frozen=True, slots=True)
class ArrayAttr(Attribute):
    """`[a, b, c]`."""

    elements: tuple[Attribute, ...]

    def write(self, w: AsmWriter) -> None:
        w.write("[")
        saved = w.elide_default_type
        first = True
        for element in self.elements:
            if not first:
                w.write(", ")
            first = False
            w.elide_default_type = True
            element.write(w)
            w.elide_default_type = saved
        w.write("]")

    def __len__(self) -> int:
        return len(self.elements)

    def __iter__(self):
        return iter(self.elements)

    def __getitem__(self, index: int) -> Attribute:
        return self.elements[index]


def write_attr_name(w: AsmWriter, name: str) -> None:
    """A dictionary key: bare if it is an identifier, quoted otherwise."""
    if is_bare_identifier(name):
        w.write(name)
    else:
        w.write(f'"{escape_string(name)}"')


_BARE_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_BARE_REST = _BARE_START | set("0123456789$.")


def is_bare_identifier(name: str) -> bool:
    return bool(name) and name[0] in _BARE_START and all(c in _BARE_REST for c in name)


def write_attr_entries(w: AsmWriter, entries) -> None:
    """`name = value` pairs (unit attributes as bare names), in the given order."""
    first = True
    for name, value in entries:
        if not first:
            w.write(", ")
        first = False
        write_attr_name(w, name)
        if value != unit:
            w.write(" = ")
            value.write(w)


@dataclass(frozen=True, slots=True)
class DictionaryAttr(Attribute):
    """`{a = 1, b}`; entries are kept sorted by name, as MLIR keeps them."""

    entries: tuple[tuple[str, Attribute], ...]

    @staticmethod
    def from_dict(values: dict[str, Attribute]) -> DictionaryAttr:
        return DictionaryAttr(tuple(sorted(values.items(), key=lambda kv: kv[0])))

    def as_dict(self) -> dict[str, Attribute]:
        return dict(self.entries)

    def write(self, w: AsmWriter) -> None:
        saved = w.elide_default_type
        w.elide_default_type = False  # only an array's direct elements elide `: i64`
        w.write("{")
        write_attr_entries(w, self.entries)
        w.write("}")
        w.elide_default_type = saved


@dataclass(frozen=True, slots=True)
class TypeAttr(Attribute):
    """A type used as an attribute value."""

    value: Type

    def write(self, w: AsmWriter) -> None:
        self.value.write(w)


def write_symbol_name(w: AsmWriter, name: str) -> None:
    # A bare name starts as MLIR's lexer wants it (a letter or `_`), else it is quoted.
    if name and name[0] in _BARE_START and all(c in _BARE_REST or c == "-" for c in name):
        w.write(f"@{name}")
    else:
        w.write(f'@"{escape_string(name)}"')


@dataclass(frozen=True, slots=True)
class SymbolRefAttr(Attribute):
    """`@root::@nested::@leaf`."""

    root: str
    nested: tuple[str, ...] = ()

    def write(self, w: AsmWriter) -> None:
        write_symbol_name(w, self.root)
        for name in self.nested:
            w.write("::")
            write_symbol_name(w, name)

    @property
    def leaf(self) -> str:
        return self.nested[-1] if self.nested else self.root


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attribute):
    """`array<i32: 1, 2, 3>`: a flat array of integers or floats."""

    element_type: Type
    values: tuple[int | float, ...]

    def write(self, w: AsmWriter) -> None:
        w.write("array<")
        self.element_type.write(w)
        if self.values:
            w.write(": ")
            if isinstance(self.element_type, FloatType):
                w.write(", ".join(format_float(float_to_bits(v, self.element_type), self.element_type)
                                  for v in self.values))
            elif self.element_type == i1:
                w.write(", ".join("true" if v else "false" for v in self.values))
            else:
                w.write(", ".join(str(v) for v in self.values))
        w.write(">")


@dataclass(frozen=True, slots=True)
class StridedLayoutAttr(Attribute):
    """`strided<[s0, s1, ...], offset: o>`: a memref layout by strides and an offset,
    each an int or None for `?` (dynamic). A zero offset is not printed, as in MLIR."""

    strides: tuple[int | None, ...]
    offset: int | None = 0

    def write(self, w: AsmWriter) -> None:
        w.write("strided<[" + ", ".join("?" if s is None else str(s) for s in self.strides) + "]")
        if self.offset != 0:
            w.write(f", offset: {'?' if self.offset is None else self.offset}")
        w.write(">")


@dataclass(frozen=True, slots=True)
class OpaqueAttr(Attribute):
    """An attribute of a dialect that is not loaded (`#dialect.name<body>`), as text."""

    text: str

    def write(self, w: AsmWriter) -> None:
        w.write(self.text)


# ------------------------------------------------------------------- dense elements


def element_dtype(element_type: Type) -> np.dtype:
    """The numpy dtype that stores elements of `element_type` (bf16 as raw uint16 bits;
    floats of no numpy type as their bit patterns too: the small formats in uint8, tf32
    in uint32, f80 and f128 as Python ints in an object array, as are integers wider than
64 bits; a complex element as a record of its two parts, `re` and `im`)."""
    import numpy as np

    if isinstance(element_type, FloatType):
        native = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64}
        if element_type.name in native:
            return np.dtype(native[element_type.name])
        for width, bits in ((8, np.uint8), (32, np.uint32)):
            if element_type.width <= width:
                return np.dtype(bits)
        return np.dtype(object)
    if isinstance(element_type, IntegerType):
        if element_type.width == 1 and element_type.signedness == "signless":
            return np.dtype(np.bool_)
        for width in (8, 16, 32, 64):
            if element_type.width <= width:
                signed = element_type.signedness != "unsigned"
                return np.dtype(f"{'i' if signed else 'u'}{width // 8}")
        return np.dtype(object)  # wider than 64 bits: Python ints
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if isinstance(element_type, ComplexType):
        part = element_dtype(element_type.element_type)
        if not part.hasobject:  # the two parts side by side, as MLIR stores them
            return np.dtype([("re", part), ("im", part)])
    raise ValueError(f"no dense storage for element type {element_type}")


def stores_float_bits(element_type: Type) -> bool:
    """Whether dense storage keeps `element_type`'s elements as their bit patterns (bf16
    and the floats numpy has no type for) rather than as numpy floats."""
    return isinstance(element_type, FloatType) and element_dtype(element_type).kind != "f"


@dataclass(frozen=True, slots=True, eq=False)
class DenseElementsAttr(Attribute):
    """`dense<...> : tensor<...>` backed by a read-only numpy array of the type's shape.

    A splat keeps one element, broadcast to the shape (a numpy view whose strides are
    all zero), so `dense<1.0> : tensor<100000x100000xf32>` costs four bytes, as in
    MLIR. Code reading `array` must not compute on all of a splat's elements when the
    shape is large: `is_splat()` and `splat_element()` answer without doing so.

    bf16 elements are kept as their raw 16-bit patterns (dtype uint16), so no extra
    numpy dtype package is needed.
    """

    type: ShapedType
    array: Any = field(repr=False)

    @staticmethod
    def from_array(array, type_: ShapedType) -> DenseElementsAttr:
        """The attribute of `type_` holding `array` (converted to the element type's
        storage dtype and broadcast to the shape). One element, or an array that is
        one element broadcast, is stored as a splat without materialising the shape."""
        import numpy as np

        dtype = element_dtype(type_.element_type)
        source = np.asarray(array)
        if source.size == 1 or (source.size > 1 and not any(source.strides)):
            element = np.array(source[(0,) * source.ndim], dtype=dtype)
            data = np.broadcast_to(element, type_.shape)
        else:
            data = np.ascontiguousarray(np.broadcast_to(np.asarray(source, dtype), type_.shape))
            data.flags.writeable = False
        return DenseElementsAttr(type_, data)

    def _is_splat_view(self) -> bool:
        return self.array.size > 0 and not any(self.array.strides)

    def is_splat(self) -> bool:
        """Every element has the same bits (an empty attribute is not a splat)."""
        if self._is_splat_view():
            return True
        flat = self.array.reshape(-1)
        if flat.size == 0:
            return False
        bits = flat if flat.dtype.hasobject else flat.view(_bits_dtype(flat))
        return bool((bits == bits[0]).all())

    def splat_element(self):
        """The element of a splat, as a numpy scalar of the storage dtype (raw bits
        for bf16 and the small float formats); None when not a splat."""
        return self.array[(0,) * self.array.ndim] if self.is_splat() else None

    def _hex_bytes(self) -> bytes:
        """The elements as MLIR's hex form holds them (i1: eight to a byte, the first
        in the lowest bit; an integer narrower than its storage, as `i4`, in its low
        bits only)."""
        import numpy as np

        element_type = self.type.element_type
        if element_type == i1:
            return np.packbits(self.array.reshape(-1), bitorder="little").tobytes()
        if self.array.dtype.hasobject:  # wide floats: in 64-bit words, as APInt keeps them
            size = (element_type.width + 63) // 64 * 8
            return b"".join(int(b).to_bytes(size, "little") for b in self.array.reshape(-1))
        if isinstance(element_type, IntegerType) and \
                element_type.width < self.array.dtype.itemsize * 8:
            unsigned = self.array.view(f"u{self.array.dtype.itemsize}")
            return (unsigned & ((1 << element_type.width) - 1)).tobytes()
        return self.array.tobytes()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DenseElementsAttr) or self.type != other.type:
            return False
        if self._is_splat_view() or other._is_splat_view():
            mine, theirs = self.splat_element(), other.splat_element()
            return mine is not None and theirs is not None and \
                _storage_bytes(mine) == _storage_bytes(theirs)
        return _storage_bytes(self.array) == _storage_bytes(other.array)

    def __hash__(self) -> int:
        # A sample of the elements, not all of them: hashing must stay cheap for
        # multi-megabyte weights (CSE and constant uniquing hash every constant);
        # equality still compares every byte. `flat[indices]` reads a splat view
        # without materialising it.
        import numpy as np

        size = self.array.size
        sample = self.array.flat[np.arange(0, size, max(1, size // 64))[:64]]
        return hash((self.type, _storage_bytes(sample)))

    def write(self, w: AsmWriter) -> None:
        if w.elide_large_elements is not None and self.array.size > w.elide_large_elements \
                and self.splat_element() is None:
            w.write("dense_resource<__elided__> : ")
        else:
            w.write("dense<")
            self.write_literal(w)
            w.write("> : ")
        self.type.write(w)

    def write_literal(self, w: AsmWriter, allow_hex: bool = True) -> None:
        """The elements as a literal (what `dense<...>` holds): one element for a
        splat, a hex string when the writer asks for one, else nested lists."""
        splat = self.splat_element()
        if splat is not None:
            w.write(_format_element(splat, self.type.element_type))
        elif allow_hex and w.hex_if_larger is not None and self.array.size > w.hex_if_larger:
            w.write(f'"0x{self._hex_bytes().hex().upper()}"')
        else:
            w.write(_format_nested(self.array, self.type.element_type))


@dataclass(frozen=True, slots=True)
class SparseElementsAttr(Attribute):
    """`sparse<indices, values> : tensor<...>`: the elements at `indices` (i64, one row
    of coordinates each) have `values`; every other element is zero."""

    type: ShapedType
    indices: DenseElementsAttr
    values: DenseElementsAttr

    def write(self, w: AsmWriter) -> None:
        if self.indices.array.size:
            w.write("sparse<")
            self.indices.write_literal(w, allow_hex=False)
            w.write(", ")
            self.values.write_literal(w)
            w.write("> : ")
        else:
            w.write("sparse<> : ")
        self.type.write(w)

    def verify(self) -> str | None:
        """What MLIR's verifier says of these indices and values (None: valid)."""
        values_shape, indices_shape = self.values.type.shape, self.indices.type.shape
        if len(values_shape) != 1:
            return "expected 1-d tensor for sparse element values"
        shape = self.type.shape
        if (len(indices_shape) == 2 and indices_shape[1] != len(shape)) or \
                (len(indices_shape) != 2 and (len(indices_shape) != 1 or len(shape) != 1)) or \
                indices_shape[0] != values_shape[0]:
            return (f"expected shape ([{', '.join(map(str, shape))}]); inferred shape of indices "
                    f"literal ([{', '.join(map(str, indices_shape))}]); inferred shape of values "
                    f"literal ([{', '.join(map(str, values_shape))}])")
        splat = self.indices.splat_element()
        rows = [[int(splat)] * len(shape)] if splat is not None else \
            self.indices.array.reshape(indices_shape[0], len(shape)).tolist()
        for number, index in enumerate(rows):
            if not all(0 <= i < size for i, size in zip(index, shape)):
                # MLIR prints the coordinates as unsigned 64-bit numbers.
                coordinates = ", ".join(str(i % (1 << 64)) for i in index)
                return (f"sparse index #{number} is not contained within the value shape, "
                        f"with index=[{coordinates}], and type='{self.type}'")
        return None


def _bits_dtype(array):
    import numpy as np

    size = array.dtype.itemsize
    # Wider elements (complex ones) compare as raw bytes.
    return {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(size, np.dtype(f"V{size}"))


def _storage_bytes(array) -> bytes | tuple:
    """What identifies stored elements: their bytes (an object array's ints, which
    have no fixed-width bytes, as a tuple)."""
    import numpy as np

    array = np.asarray(array)
    return tuple(int(v) for v in array.reshape(-1)) if array.dtype.hasobject else array.tobytes()


def element_bits(array) -> list[int]:
    """The bit pattern of every float element of a dense array, in row-major order."""
    flat = array.reshape(-1)
    if flat.dtype.hasobject:
        return [int(v) for v in flat.tolist()]
    return flat.view(_bits_dtype(flat)).tolist()


def _element_texts(array, element_type: Type) -> list[str]:
    """The spelling of every element, in order. Floats go through their raw bits, so
    NaN payloads and signalling NaNs survive."""
    import numpy as np

    flat = array.reshape(-1)
    if isinstance(element_type, ComplexType):
        part = element_type.element_type
        real = _element_texts(np.ascontiguousarray(flat["re"]), part)
        imaginary = _element_texts(np.ascontiguousarray(flat["im"]), part)
        return [f"({re},{im})" for re, im in zip(real, imaginary)]
    if isinstance(element_type, FloatType):
        return [format_float(b, element_type) for b in element_bits(flat)]
    if element_type == i1:
        return ["true" if v else "false" for v in flat.tolist()]
    return [str(int(v)) for v in flat.tolist()]


def _format_element(value, element_type: Type) -> str:
    import numpy as np

    return _element_texts(np.asarray(value, dtype=element_dtype(element_type)), element_type)[0]


def _format_nested(array, element_type: Type) -> str:
    if array.ndim == 0:
        return _element_texts(array, element_type)[0]
    if array.size == 0:
        return ""  # MLIR spells every empty literal `dense<>`
    flat = _element_texts(array, element_type)
    # Build nested brackets from the flat list, innermost dimension first.
    for dim in reversed(array.shape):
        flat = ["[" + ", ".join(flat[i:i + dim]) + "]" for i in range(0, len(flat), dim)]
    return flat[0]


@dataclass(frozen=True, slots=True)
class DenseResourceElementsAttr(Attribute):
    """`dense_resource<name> : tensor<...>`: elements kept in the file's
    `{-# dialect_resources: {builtin: {name: "0x..."}} #-}` section."""

    type: ShapedType
    handle: str
    # The session's blobs by handle (the parser's Context.resources), so the elements
    # can be read where the attribute is used; not part of the attribute's identity.
    blobs: dict | None = field(default=None, compare=False, hash=False, repr=False)

    def array(self):
        """The elements as a read-only numpy array (a view of the blob, no copy), or
        None when the blob is not available."""
        import numpy as np

        blob = self.blobs.get(self.handle) if self.blobs is not None else None
        if blob is None:
            return None
        dtype = element_dtype(self.type.element_type)
        if dtype.hasobject:  # no fixed-width storage to view the blob as
            return None
        data = np.frombuffer(blob[1], dtype=dtype)
        if data.size != int(np.prod(self.type.shape)):
            return None
        return data.reshape(self.type.shape)

    def write(self, w: AsmWriter) -> None:
        if w.used_resources is not None:
            w.used_resources[self.handle] = None
        w.write("dense_resource<")
        w.write(self.handle if is_bare_identifier(self.handle) else f'"{escape_string(self.handle)}"')
        w.write("> : ")
        self.type.write(w)


# ----------------------------------------------------------------------- locations


class Location(Attribute):
    """Where an op came from; printed as `loc(...)`."""

    __slots__ = ()

    def write(self, w: AsmWriter) -> None:
        w.write("loc(")
        self.write_inner(w)
        w.write(")")

    def write_inner(self, w: AsmWriter) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class UnknownLoc(Location):
    """`loc(unknown)`."""

    def write_inner(self, w: AsmWriter) -> None:
        w.write("unknown")


@dataclass(frozen=True, slots=True)
class FileLineColLoc(Location):
    """`loc("file":line:col)`, or a range of the file: `loc("file":line:col to :col2)`
    (on one line) or `loc("file":line:col to line2:col2)` (MLIR's FileLineColRange)."""

    filename: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def write_inner(self, w: AsmWriter) -> None:
        w.write(f'"{escape_string(self.filename)}":{self.line}:{self.column}')
        if self.end_column is not None:
            end_line = "" if self.end_line in (None, self.line) else str(self.end_line)
            w.write(f" to {end_line}:{self.end_column}")


@dataclass(frozen=True, slots=True)
class NameLoc(Location):
    """`loc("name")` or `loc("name"(child))`: e.g. an ONNX node name."""

    name: str
    child: Location | None = None

    def write_inner(self, w: AsmWriter) -> None:
        w.write(f'"{escape_string(self.name)}"')
        if self.child is not None:
            w.write("(")
            self.child.write_inner(w)
            w.write(")")


@dataclass(frozen=True, slots=True)
class CallSiteLoc(Location):
    """`loc(callsite(callee at caller))`."""

    callee: Location
    caller: Location

    def write_inner(self, w: AsmWriter) -> None:
        w.write("callsite(")
        self.callee.write_inner(w)
        w.write(" at ")
        self.caller.write_inner(w)
        w.write(")")


@dataclass(frozen=True, slots=True)
class FusedLoc(Location):
    """`loc(fused[a, b])` or `loc(fused<#meta>[a, b])`."""

    locations: tuple[Location, ...]
    metadata: Attribute | None = None

    def write_inner(self, w: AsmWriter) -> None:
        w.write("fused")
        if self.metadata is not None:
            w.write("<")
            self.metadata.write(w)
            w.write(">")
        w.write("[")
        first = True
        for loc in self.locations:
            if not first:
                w.write(", ")
            first = False
            loc.write_inner(w)
        w.write("]")


unknown_loc = UnknownLoc()


def file_line_col(loc: Location) -> FileLineColLoc | None:
    """The first file position inside a location, for diagnostics (a call site's
    callee first, then its caller)."""
    stack = [loc]
    while stack:
        current = stack.pop()
        if isinstance(current, FileLineColLoc):
            return current
        if isinstance(current, NameLoc) and current.child is not None:
            stack.append(current.child)
        elif isinstance(current, CallSiteLoc):
            stack.append(current.caller)
            stack.append(current.callee)
        elif isinstance(current, FusedLoc):
            stack.extend(reversed(current.locations))
    return None


def _call_site(loc: Location) -> CallSiteLoc | None:
    """The call site `loc` stands for: itself, a name's child, or the first among
    fused locations."""
    stack = [loc]
    while stack:
        current = stack.pop()
        if isinstance(current, CallSiteLoc):
            return current
        if isinstance(current, NameLoc) and current.child is not None:
            stack.append(current.child)
        elif isinstance(current, FusedLoc):
            stack.extend(reversed(current.locations))
    return None


def call_stack(loc: Location, limit: int = 10) -> list[Location]:
    """The callers of the call site in `loc`, innermost first and at most `limit` of
    them (MLIR's diagnostics show ten): where a diagnostic at `loc` was called from."""
    callers: list[Location] = []
    site = _call_site(loc)
    while site is not None and len(callers) < limit:
        callers.append(site.caller)
        site = _call_site(site.caller)
    return callers


# -------------------------------------------------------------- dialect-defined kinds


class DialectType(Type):
    """Base of types a dialect defines: `!dialect.mnemonic<body>`.

    A subclass sets `name` ("dialect.mnemonic"), declares its parameters as annotated
    fields and an `assembly_format` for the body, and is registered with
    `@dialect.type` (see :mod:`mlc.ir.opdef.params`); or it writes `parse(p)` and
    `print(self, w)` itself.
    """

    __slots__ = ()
    name: ClassVar[str]

    def write(self, w: AsmWriter) -> None:
        w.write("!" + self.name)
        w.dialect_body(self)


class DialectAttribute(Attribute):
    """Base of attributes a dialect defines: `#dialect.mnemonic<body>`.

    Declared like :class:`DialectType`. Inside an op's custom format an attribute of a
    known class prints without its `#dialect.name` (`fastmath<fast>` rather than
    `#arith.fastmath<fast>`), as MLIR does.
    """

    __slots__ = ()
    name: ClassVar[str]

    def write(self, w: AsmWriter) -> None:
        w.write("#" + self.name)
        w.dialect_body(self)
