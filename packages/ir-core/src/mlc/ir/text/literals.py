"""Reading literal bodies: strings, `dense<...>`, `array<...>` and resource blobs."""

from __future__ import annotations

import re

from mlc.ir.core.attributes import (
    ComplexType,
    DenseArrayAttr,
    DenseElementsAttr,
    FloatType,
    IntegerType,
    ShapedType,
    StridedLayoutAttr,
    Type,
    element_dtype,
    float_to_bits,
    i1,
    stores_float_bits,
)

_ESCAPE_RE = re.compile(r"\\(?:([0-9a-fA-F]{2})|(.))", re.S)
_SIMPLE_ESCAPES = {"n": 0x0A, "t": 0x09, '"': 0x22, "\\": 0x5C}


def unescape_string(quoted: str) -> str:
    """The value of an MLIR string literal (with its quotes)."""
    body = quoted[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    pos = 0
    for m in _ESCAPE_RE.finditer(body):
        out += body[pos:m.start()].encode("utf-8", "surrogateescape")
        if m.group(1) is not None:
            out.append(int(m.group(1), 16))
        else:
            ch = m.group(2)
            if ch not in _SIMPLE_ESCAPES:
                raise ValueError(f"unknown escape '\\{ch}' in string")
            out.append(_SIMPLE_ESCAPES[ch])
        pos = m.end()
    out += body[pos:].encode("utf-8", "surrogateescape")
    return out.decode("utf-8", "surrogateescape")


_DECIMAL_INTEGER_RE = re.compile(r"-?[0-9]+\Z")
# One token of a `dense<...>` literal, after whitespace and comments: punctuation, a
# primitive (`true`, `false`, a hex or decimal number, `inf`, `nan`) or a string.
_DENSE_TOKEN_RE = re.compile(r"(?:\s+|//[^\n]*)*+(?:(?P<punct>[\[\](),<>])"
                             r"|(?P<prim>true|false|-?0x[0-9a-fA-F]+"
                             r"|-?(?:[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?|[0-9]+(?:[eE][-+]?[0-9]+)?"
                             r"|inf|nan))"
                             r'|(?P<string>"(?:[^"\\\n]|\\.)*"))?')


def _element_value(text: str, element_type: Type, float_bits: bool = False):
    """One scalar of a literal, as the storage value for `element_type` (floats as
    their bit patterns with `float_bits`, so NaN payloads survive)."""
    if text in ("true", "false"):
        value: float | int = 1 if text == "true" else 0
        return bool(value) if element_type == i1 else value
    if isinstance(element_type, FloatType):
        if text.startswith("-0x"):
            raise ValueError("hexadecimal float literal should not have a leading minus")
        if text.startswith("0x"):
            bits = int(text, 16)
            if bits.bit_length() > element_type.width:
                raise ValueError("hexadecimal float constant out of range for type")
            if stores_float_bits(element_type) or float_bits:
                return bits
            from mlc.ir.core.attributes import bits_to_float

            return bits_to_float(bits, element_type)
        value = float(text)
        if stores_float_bits(element_type) or float_bits:
            return float_to_bits(value, element_type)
        return value
    if "." in text or "e" in text.lower() and not text.startswith("0x"):
        raise ValueError("expected integer elements, but parsed floating-point")
    value = int(text, 16) if "0x" in text else int(text)
    if element_type == i1:
        if value not in (-1, 0, 1):
            raise ValueError("integer constant out of range for type")
        return bool(value)
    width = getattr(element_type, "width", 64)
    signedness = getattr(element_type, "signedness", "signless")
    if signedness == "unsigned" and value < 0:
        raise ValueError("expected unsigned integer elements, but parsed negative value")
    low = 0 if signedness == "unsigned" else -(1 << (width - 1))
    high = (1 << (width - 1)) - 1 if signedness == "signed" else (1 << width) - 1
    if not low <= value <= high:
        raise ValueError("integer constant out of range for type")
    if signedness == "signless" and value >= 1 << (width - 1):
        value -= 1 << width  # stored, and printed, as MLIR does: in the signed range
    return value


def _unpack_bits(data: bytes, count: int):
    """i1 elements from MLIR's hex form: bits packed eight to a byte, the first element
    in the lowest bit, or one byte 0x00/0xFF for a splat (of one element, any nonzero
    byte is true); None if the size is wrong."""
    import numpy as np

    if len(data) == 1 and (count == 1 or data[0] in (0x00, 0xFF)):
        return np.bool_(data[0] != 0)
    if len(data) != (count + 7) // 8:
        return None
    return np.unpackbits(np.frombuffer(data, np.uint8), count=count, bitorder="little").astype(bool)


def _narrow_elements(array, element_type: Type):
    """Hex elements of a type narrower than its storage (`i4` or `f4E2M1FN` in a byte):
    as MLIR reads them, only the low `width` bits of each count, sign-extended for a
    signless or signed integer."""
    if array.dtype.hasobject or not isinstance(element_type, (IntegerType, FloatType)):
        return array
    spare = array.dtype.itemsize * 8 - element_type.width
    if spare <= 0:
        return array
    if isinstance(element_type, IntegerType) and element_type.signedness != "unsigned":
        return (array << spare) >> spare  # numpy shifts signed integers arithmetically
    return array & ((1 << element_type.width) - 1)


class LiteralError(ValueError):
    """A malformed literal; `offset` is where in the literal's text the error is (None:
    the literal as a whole)."""

    def __init__(self, message: str, offset: int | None = None, notes: tuple[str, ...] = ()):
        super().__init__(message)
        self.offset = offset
        self.notes = notes  # notes at the same place


_HEX_BLOB_RE = re.compile(r"0x(?:[0-9a-fA-F]{2})*")


class DenseLiteral:
    """The body of a `dense<...>` as read, before its type is known (MLIR reads it the
    same way, then checks it against the type that follows): a hex string, or the
    primitives in row-major order with the inferred shape (None: a single element, a
    splat). A complex element `(re, im)` is a pair of primitives."""

    __slots__ = ("hex", "hex_offset", "leaves", "shape", "offset")

    def __init__(self, offset: int):
        self.offset = offset  # of the `dense` keyword, where MLIR reports type mismatches
        self.hex: str | None = None
        self.hex_offset = 0
        # Each leaf: (text, offset), or a pair of them for a complex element.
        self.leaves: list = []
        self.shape: tuple[int, ...] | None = None

    def real_count(self) -> int:
        """How many primitives were read (two per complex element), as MLIR counts."""
        return sum(2 if isinstance(leaf[0], tuple) else 1 for leaf in self.leaves)


class _LiteralReader:
    """A cursor over the tokens of element literals (`dense<...>`, `sparse<...>`)."""

    __slots__ = ("text", "pos", "last_end")

    def __init__(self, text: str, keyword_start: int, keyword: str):
        self.text = text
        self.pos = keyword_start + len(keyword)
        self.last_end = self.pos  # MLIR reports "expected ..." right after it
        self.expect("<", f"expected '<' after '{keyword}'")

    def token(self) -> tuple[str | None, str, int]:
        """The next token's kind, text and offset (kind None: no literal token)."""
        m = _DENSE_TOKEN_RE.match(self.text, self.pos)
        kind = m.lastgroup
        at = m.start(kind) if kind is not None else m.end()
        return kind, m.group(kind) if kind is not None else "", at

    def take(self) -> tuple[str | None, str, int]:
        kind, value, at = self.token()
        self.pos = self.last_end = at + len(value)
        return kind, value, at

    def primitive(self) -> tuple[str, int]:
        kind, value, at = self.take()
        if kind != "prim":
            raise LiteralError("expected element literal of primitive type", at)
        return value, at

    def expect(self, value: str, message: str) -> None:
        if self.token()[1] != value:
            raise LiteralError(message, self.last_end)
        self.take()

    def at_close(self) -> bool:
        """Whether a `>` comes next (taking it if so)."""
        if self.token()[1] == ">":
            self.take()
            return True
        return False

    def literal(self, offset: int) -> DenseLiteral:
        """One literal: a hex string, or an element (a nested list, a complex element or
        a primitive). Nesting is kept on an explicit stack."""
        literal = DenseLiteral(offset)
        kind, value, at = self.token()
        if kind == "string":
            self.take()
            literal.hex, literal.hex_offset = value, at
            return literal
        # Open lists, innermost last: [element count, shape of their first element].
        lists: list[list] = []
        while True:
            kind, value, at = self.token()
            if value == "[":
                self.take()
                if self.token()[1] != "]":
                    lists.append([0, None])
                    continue
                self.take()
                shape: tuple[int, ...] = (0,)
            elif value == "(":
                self.take()
                real = self.primitive()
                self.expect(",", "expected ',' between complex elements")
                imaginary = self.primitive()
                self.expect(")", "expected ')' after complex elements")
                literal.leaves.append((real, imaginary))
                shape = ()
            else:
                literal.leaves.append(self.primitive())
                shape = ()
            # An element is complete: close the lists it completes.
            while lists:
                current = lists[-1]
                if current[1] is None:
                    current[1] = shape
                elif current[1] != shape:
                    raise LiteralError("tensor literal is invalid; ranks are not consistent "
                                       "between elements", self.token()[2])
                current[0] += 1
                if self.token()[1] == ",":
                    self.take()
                    break
                self.expect("]", "expected ']'")
                count, inner = lists.pop()
                shape = (count, *inner)
            else:
                literal.shape = shape if shape else None
                return literal


def read_dense_literal(text: str, start: int) -> tuple[DenseLiteral, int]:
    """The `dense<...>` at `start` in `text` (the keyword), read token by token up to
    its `>`, and the offset past it; LiteralError at the offending token, in MLIR's
    words."""
    reader = _LiteralReader(text, start, "dense")
    if reader.at_close():  # `dense<>`: no elements, and no shape to check
        return DenseLiteral(start), reader.pos
    literal = reader.literal(start)
    reader.expect(">", "expected '>'")
    return literal, reader.pos


def read_sparse_literal(text: str, start: int) -> tuple[tuple[DenseLiteral, DenseLiteral] | None, int]:
    """The `sparse<indices, values>` at `start` in `text` (the keyword): its two
    literals (None for `sparse<>`) and the offset past its `>`."""
    reader = _LiteralReader(text, start, "sparse")
    if reader.at_close():
        return None, reader.pos
    indices = reader.literal(reader.token()[2])
    reader.expect(",", "expected ','")
    values = reader.literal(reader.token()[2])
    reader.expect(">", "expected '>'")
    return (indices, values), reader.pos


def _complex_storage(part_dtype):
    """The storage of a complex element: its two parts side by side, as MLIR keeps them."""
    import numpy as np

    return np.dtype([("re", part_dtype), ("im", part_dtype)])


def dense_from_literal(literal: DenseLiteral, type_: ShapedType) -> DenseElementsAttr:
    """The attribute of `type_` that `literal` spells, checked as MLIR checks it."""
    import numpy as np

    if not isinstance(type_, ShapedType):
        raise ValueError("elements literal must be a shaped type")
    if not type_.has_static_shape():
        raise ValueError("elements literal type must have static shape")
    element_type = type_.element_type
    dtype = element_dtype(element_type)
    if literal.hex is not None:
        digits = unescape_string(literal.hex)
        if not _HEX_BLOB_RE.fullmatch(digits):
            raise LiteralError("expected string containing hex digits starting with `0x`",
                               literal.hex_offset)
        data = bytes.fromhex(digits[2:])
        count = type_.num_elements
        if dtype.hasobject:
            raise ValueError(f"hex elements of {element_type} are not supported")
        if element_type == i1:
            array = _unpack_bits(data, count)
        elif len(data) == dtype.itemsize and count != 1:
            array = _narrow_elements(np.frombuffer(data, dtype), element_type)[0]  # a splat
        elif len(data) == dtype.itemsize * count:
            array = _narrow_elements(np.frombuffer(data, dtype),
                                     element_type).reshape(type_.shape)
        else:
            array = None
        if array is None:
            raise ValueError(f"elements hex data size is invalid for provided type: '{type_}'")
        return DenseElementsAttr.from_array(array, type_)
    shape = literal.shape
    if shape is not None and shape != type_.shape:
        raise ValueError(f"inferred shape of elements literal ([{', '.join(map(str, shape))}]) "
                         f"does not match type ([{', '.join(map(str, type_.shape))}])")
    if not literal.leaves:
        if type_.num_elements != 0:
            raise ValueError(f"parsed zero elements, but type ('{type_}') expected at least 1")
        return DenseElementsAttr.from_array(np.zeros(type_.shape, dtype), type_)
    if isinstance(element_type, ComplexType):
        # MLIR counts primitives, two to an element, however they are grouped.
        reals = [part for leaf in literal.leaves
                 for part in (leaf if isinstance(leaf[0], tuple) else (leaf,))]
        if shape is None and len(reals) != 2:
            raise ValueError(f"parsed {len(reals)} elements, but type ('{element_type}') "
                             "expected 2 elements")
        if shape is not None and len(reals) != 2 * type_.num_elements:
            raise ValueError(f"parsed {len(reals)} elements, but type ('{type_}') expected "
                             f"{2 * type_.num_elements} elements")
        part_type = element_type.element_type
        part_storage = _value_storage(part_type)
        values = np.array([_checked_element(text, at, part_type) for text, at in reals],
                          dtype=part_storage)
        array = values.view(_complex_storage(part_storage)).view(dtype)
    else:
        texts = []
        for leaf in literal.leaves:
            if isinstance(leaf[0], tuple):
                raise LiteralError("complex elements are not supported", leaf[0][1])
            texts.append(leaf)
        storage = _value_storage(element_type)
        array = np.array([_checked_element(text, at, element_type) for text, at in texts],
                         dtype=storage)
        if storage != dtype:
            array = array.view(dtype)
    return DenseElementsAttr.from_array(array.reshape(shape if shape is not None else ()), type_)


def _value_storage(element_type: Type):
    """The dtype `_checked_element` values are collected in: floats as their bits."""
    import numpy as np

    dtype = element_dtype(element_type)
    if isinstance(element_type, FloatType) and not dtype.hasobject:
        return np.dtype(f"u{dtype.itemsize}")
    return dtype


def _checked_element(text: str, at: int, element_type: Type):
    """One primitive of a dense literal as the storage value of `element_type` (floats
    as bits), with MLIR's diagnostics at the primitive."""
    if isinstance(element_type, FloatType):
        if text in ("true", "false"):
            raise LiteralError("expected floating point literal", at)
        if _DECIMAL_INTEGER_RE.match(text):
            raise LiteralError("unexpected decimal integer literal for a floating point value",
                               at, ("add a trailing dot to make the literal a float",))
    elif text in ("true", "false") and element_type != i1:
        raise LiteralError("expected i1 type for 'true' or 'false' values", at)
    try:
        return _element_value(text, element_type, float_bits=True)
    except ValueError as exc:  # at the element, as MLIR reports it
        raise LiteralError(str(exc), at) from None


def parse_dense_array(text: str, simple_type) -> DenseArrayAttr:
    """`array<i32: 1, 2>`; `simple_type` maps a type name to its Type (a ValueError for
    any other text)."""
    type_text, colon, values_text = text[len("array<"):-1].partition(":")
    try:
        element_type = simple_type(type_text.strip())
    except ValueError:
        element_type = None
    if not isinstance(element_type, (IntegerType, FloatType)):
        got = type_text.strip()
        raise ValueError("expected integer or float type" + (f", got: '{got}'" if got else ""))
    if element_type != i1 and element_type.width % 8:
        raise ValueError("element type bitwidth must be a multiple of 8")
    if not colon and values_text.strip():
        raise ValueError("expected ':' after dense array type")
    values = [v.strip() for v in values_text.split(",")] if values_text.strip() else []
    for value in values:
        if value in ("true", "false") and element_type != i1:
            raise ValueError("expected i1 type for 'true' or 'false' values")
        if value not in ("true", "false") and element_type == i1:
            raise ValueError("expected 'true' or 'false' values for i1 type")
    if isinstance(element_type, FloatType):
        parsed = tuple(_element_value(v, element_type) for v in values)
    else:
        parsed = tuple(int(_element_value(v, element_type)) for v in values)
    return DenseArrayAttr(element_type, parsed)


_STRIDED_TOKEN = re.compile(r"(?:\s+|//[^\n]*)*+(-?[0-9]+|\?|[A-Za-z_]+|.)")


def read_strided_layout(text: str, start: int) -> tuple[StridedLayoutAttr, int]:
    """The `strided<[1, ?], offset: 4>` at `start` in `text`, and the offset just past
    its `>`; LiteralError at the offending token, in MLIR's words."""
    pos = start + len("strided")

    def token() -> tuple[str, int]:
        m = _STRIDED_TOKEN.match(text, pos)
        return (m.group(1), m.start(1)) if m else ("", len(text))

    def int_or_dynamic() -> int | None:
        nonlocal pos
        value, at = token()
        if value == "?":
            pos = at + 1
            return None
        if not re.fullmatch(r"-?[0-9]+", value) or not -(1 << 63) <= int(value) < 1 << 63:
            raise LiteralError("expected a 64-bit signed integer or '?'", at)
        pos = at + len(value)
        return int(value)

    def expect(what: str, message: str) -> None:
        nonlocal pos
        value, at = token()
        if value != what:  # after the text before the token, as MLIR reports "expected"
            raise LiteralError(message, pos)
        pos = at + len(value)

    expect("<", "expected '<' after 'strided'")
    expect("[", "expected '['")
    strides: list[int | None] = []
    value, at = token()
    if value == "]":
        pos = at + 1
    else:
        while True:
            strides.append(int_or_dynamic())
            value, at = token()
            if value not in (",", "]"):
                raise LiteralError("expected ']'", pos)
            pos = at + 1
            if value == "]":
                break
    offset: int | None = 0
    value, at = token()
    if value == ",":
        pos = at + 1
        expect("offset", "expected 'offset' after comma")
        expect(":", "expected ':' after 'offset'")
        offset = int_or_dynamic()
    expect(">", "expected '>'")
    return StridedLayoutAttr(tuple(strides), offset), pos
