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


# name -> (struct format or None, exponent bits, mantissa bits, total bits)
_FLOAT_LAYOUT = {
    "f16": ("e", 5, 10, 16),
    "bf16": (None, 8, 7, 16),
    "tf32": (None, 8, 10, 19),
    "f80": (None, 15, 64, 80),  # x87: the mantissa field holds an explicit integer bit
    "f128": (None, 15, 112, 128),
    "f32": ("f", 8, 23, 32),
    "f64": ("d", 11, 52, 64),
}


@dataclass(frozen=True, slots=True)
class FloatType(Type):
    """`f16`, `bf16`, `tf32`, `f32`, `f64`, `f80` or `f128`."""

    name: str

    @property
    def width(self) -> int:
        return _FLOAT_LAYOUT[self.name][3]

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


@dataclass(frozen=True, slots=True)
class MemRefType(ShapedType):
    """`memref<4x?xf32, layout, memory_space>`."""

    shape: tuple[int, ...]
    element_type: Type
    layout: Attribute | None = None
    memory_space: Attribute | None = None

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
    """The bit pattern of `value` rounded to `type_` (round-to-nearest-even)."""
    fmt, exp_bits, mant_bits, _ = _FLOAT_LAYOUT[type_.name]
    if fmt is not None:
        try:
            return int.from_bytes(struct.pack("<" + fmt, value), "little")
        except OverflowError:  # finite doubles beyond the type's range round to infinity
            return float_to_bits(math.copysign(math.inf, value), type_)
    explicit = type_.name == "f80"
    fraction_bits = mant_bits - 1 if explicit else mant_bits
    sign = (1 << (exp_bits + mant_bits)) if math.copysign(1.0, value) < 0 else 0
    top = (1 << exp_bits) - 1
    integer_bit = (1 << fraction_bits) if explicit else 0
    if math.isnan(value):
        return sign | (top << mant_bits) | integer_bit | (1 << (fraction_bits - 1))
    if math.isinf(value):
        return sign | (top << mant_bits) | integer_bit
    magnitude = abs(value)
    if magnitude == 0.0:
        return sign
    bias = (1 << (exp_bits - 1)) - 1
    _, e = math.frexp(magnitude)
    exponent = max(e - 1, 1 - bias)
    # Scale so the significand's integer part has fraction_bits + 1 bits; round half
    # to even (Python's round on an exactly representable float).
    significand = round(math.ldexp(magnitude, fraction_bits - exponent))
    if significand >= 1 << (fraction_bits + 1):
        significand >>= 1
        exponent += 1
    if significand < 1 << fraction_bits:  # subnormal
        biased = 0
    else:
        biased = exponent + bias
    if biased >= top:
        return sign | (top << mant_bits) | integer_bit
    if not explicit:
        significand &= (1 << fraction_bits) - 1
    return sign | (biased << mant_bits) | significand


def bits_to_float(bits: int, type_: FloatType) -> float:
    """The value (as a Python float, rounded if the type is wider) of a bit pattern."""
    fmt, exp_bits, mant_bits, width = _FLOAT_LAYOUT[type_.name]
    if fmt is not None:
        return struct.unpack("<" + fmt, bits.to_bytes(width // 8, "little"))[0]
    explicit = type_.name == "f80"
    fraction_bits = mant_bits - 1 if explicit else mant_bits
    sign = -1.0 if (bits >> (exp_bits + mant_bits)) & 1 else 1.0
    exponent = (bits >> mant_bits) & ((1 << exp_bits) - 1)
    fraction = bits & ((1 << fraction_bits) - 1)
    bias = (1 << (exp_bits - 1)) - 1
    if exponent == (1 << exp_bits) - 1:
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
    """MLIR's float spelling: `%e` with 6 digits if that reads back exactly, else the
    shortest decimal that does, else (inf, nan, ...) the hex bit pattern."""
    _, exp_bits, mant_bits, width = _FLOAT_LAYOUT[type_.name]
    exponent = (bits >> mant_bits) & ((1 << exp_bits) - 1)
    value = bits_to_float(bits, type_)
    if exponent != (1 << exp_bits) - 1 and math.isfinite(value):  # finite (also as a double)
        text = f"{value:.6e}"
        if float_to_bits(float(text), type_) == bits:
            return text
        text = repr(value) if width == 64 else _shortest_repr(value, type_, bits)
        if "e" not in text and "." not in text:
            text += ".0"
        if float_to_bits(float(text), type_) == bits:
            return text
    return f"0x{bits:0{width // 4}X}"


def _shortest_repr(value: float, type_: FloatType, bits: int) -> str:
    for digits in range(1, 18):
        text = f"{value:.{digits}e}"
        if float_to_bits(float(text), type_) == bits:
            return text
    return repr(value)


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
    """MLIR's string escaping: `\\`, `"` and non-printable bytes as `\\XX`."""
    if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return value
    out = []
    for byte in value.encode("utf-8", "surrogateescape"):
        if byte == 0x5C:
            out.append("\\\\")
        elif byte == 0x22:
            out.append('\\"')
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:02X}")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class StringAttr(Attribute):
    """`"text"`, with MLIR's escapes."""

    value: str

    def write(self, w: AsmWriter) -> None:
        w.write(f'"{escape_string(self.value)}"')


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
    if name and all(c in _BARE_REST or c == "-" for c in name):
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
class OpaqueAttr(Attribute):
    """An attribute of a dialect that is not loaded (`#dialect.name<body>`), or builtin
    syntax that mlc keeps verbatim (`strided<...>`), as text."""

    text: str

    def write(self, w: AsmWriter) -> None:
        w.write(self.text)


# ------------------------------------------------------------------- dense elements


def element_dtype(element_type: Type) -> np.dtype:
    """The numpy dtype that stores elements of `element_type` (bf16 as raw uint16 bits)."""
    import numpy as np

    if isinstance(element_type, FloatType):
        return np.dtype({"f16": np.float16, "bf16": np.uint16, "f32": np.float32,
                         "f64": np.float64}[element_type.name])
    if isinstance(element_type, IntegerType):
        if element_type.width == 1 and element_type.signedness == "signless":
            return np.dtype(np.bool_)
        for width in (8, 16, 32, 64):
            if element_type.width <= width:
                signed = element_type.signedness != "unsigned"
                return np.dtype(f"{'i' if signed else 'u'}{width // 8}")
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    raise ValueError(f"no dense storage for element type {element_type}")


@dataclass(frozen=True, slots=True, eq=False)
class DenseElementsAttr(Attribute):
    """`dense<...> : tensor<...>` backed by a numpy array of the type's shape.

    bf16 elements are kept as their raw 16-bit patterns (dtype uint16), so no extra
    numpy dtype package is needed.
    """

    type: ShapedType
    array: Any = field(repr=False)

    @staticmethod
    def from_array(array, type_: ShapedType) -> DenseElementsAttr:
        import numpy as np

        data = np.ascontiguousarray(np.broadcast_to(np.asarray(array, element_dtype(type_.element_type)),
                                                    type_.shape)).reshape(type_.shape)
        data.flags.writeable = False
        return DenseElementsAttr(type_, data)

    def is_splat(self) -> bool:
        flat = self.array.reshape(-1)
        if flat.size == 0:
            return False
        return bool((flat.view(_bits_dtype(flat)) == flat.view(_bits_dtype(flat))[0]).all())

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, DenseElementsAttr) and self.type == other.type
                and self.array.tobytes() == other.array.tobytes())

    def __hash__(self) -> int:
        # A sample of the elements, not all of them: hashing must stay cheap for
        # multi-megabyte weights (CSE and constant uniquing hash every constant);
        # equality still compares every byte.
        flat = self.array.reshape(-1)
        sample = flat[:: max(1, flat.size // 64)][:64]
        return hash((self.type, sample.tobytes()))

    def write(self, w: AsmWriter) -> None:
        size = self.array.size
        if w.elide_large_elements is not None and size > w.elide_large_elements and not self.is_splat():
            w.write("dense_resource<__elided__> : ")
        elif self.is_splat():
            w.write("dense<")
            w.write(_format_element(self.array.reshape(-1)[0], self.type.element_type))
            w.write("> : ")
        elif w.hex_if_larger is not None and size > w.hex_if_larger:
            w.write(f'dense<"0x{self.array.tobytes().hex().upper()}"> : ')
        else:
            w.write("dense<")
            w.write(_format_nested(self.array, self.type.element_type))
            w.write("> : ")
        self.type.write(w)


def _bits_dtype(array):
    import numpy as np

    return {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[array.dtype.itemsize]


def _element_texts(array, element_type: Type) -> list[str]:
    """The spelling of every element, in order. Floats go through their raw bits, so
    NaN payloads and signalling NaNs survive."""
    flat = array.reshape(-1)
    if isinstance(element_type, FloatType):
        return [format_float(b, element_type) for b in flat.view(_bits_dtype(flat)).tolist()]
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
    """`loc("file":line:col)`."""

    filename: str
    line: int
    column: int

    def write_inner(self, w: AsmWriter) -> None:
        w.write(f'"{escape_string(self.filename)}":{self.line}:{self.column}')


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
    """The first file position inside a location, for diagnostics."""
    stack = [loc]
    while stack:
        current = stack.pop()
        if isinstance(current, FileLineColLoc):
            return current
        if isinstance(current, NameLoc) and current.child is not None:
            stack.append(current.child)
        elif isinstance(current, CallSiteLoc):
            stack.append(current.callee)
        elif isinstance(current, FusedLoc):
            stack.extend(reversed(current.locations))
    return None


# -------------------------------------------------------------- dialect-defined kinds


class DialectType(Type):
    """Base of types a dialect defines: `!dialect.mnemonic<body>`.

    Subclasses are frozen dataclasses with a class attribute `name` ("dialect.mnemonic")
    and implement `write_body` and the classmethod `parse_body(parser)`; the dialect
    registers them so the parser can find them by name.
    """

    __slots__ = ()
    name: ClassVar[str]

    def write(self, w: AsmWriter) -> None:
        w.write("!" + self.name)
        self.write_body(w)

    def write_body(self, w: AsmWriter) -> None:
        """The text after the name, e.g. `<4 x i8>`; nothing by default."""

    @classmethod
    def parse_body(cls, parser) -> DialectType:
        """Build the type from its body; `parser` is an :class:`AsmBodyParser`."""
        return cls()


class DialectAttribute(Attribute):
    """Base of attributes a dialect defines: `#dialect.mnemonic<body>`.

    Same protocol as :class:`DialectType`. Inside an op's custom format an attribute
    of a known class prints stripped (`fastmath<fast>` rather than
    `#arith.fastmath<fast>`), as MLIR does.
    """

    __slots__ = ()
    name: ClassVar[str]

    def write(self, w: AsmWriter) -> None:
        w.write("#" + self.name)
        self.write_body(w)

    def write_body(self, w: AsmWriter) -> None:
        """The text after the name, e.g. `<fast>`; nothing by default."""

    @classmethod
    def parse_body(cls, parser) -> DialectAttribute:
        return cls()
