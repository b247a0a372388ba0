"""Reading literal bodies: strings, `dense<...>`, `array<...>` and resource blobs."""

from __future__ import annotations

import re

from mlc.ir.core.attributes import (
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


_ELEMENT_TOKEN_RE = re.compile(r"\s*(?:(\[)|(\])|(,)|(true|false)|(-?0x[0-9a-fA-F]+)"
                               r"|(-?(?:[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?|[0-9]+(?:[eE][-+]?[0-9]+)?"
                               r"|inf|nan))|(\())\s*")
_DECIMAL_INTEGER_RE = re.compile(r"-?[0-9]+\Z")


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


def parse_dense_body(body: str, type_: ShapedType) -> DenseElementsAttr:
    """`body` is the text between `dense<` and `>`."""
    import numpy as np

    if not isinstance(type_, ShapedType):
        raise ValueError("elements literal must be a shaped type")
    if not type_.has_static_shape():
        raise ValueError("elements literal type must have static shape")
    element_type = type_.element_type
    dtype = element_dtype(element_type)
    start = len(body) - len(body.lstrip())
    body = body.strip()
    if body.startswith('"'):
        digits = unescape_string(body)
        if not _HEX_BLOB_RE.fullmatch(digits):
            raise LiteralError("expected string containing hex digits starting with `0x`",
                                       start)
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
    if not body:
        if type_.num_elements != 0:
            raise ValueError(f"parsed zero elements, but type ('{type_}') expected at least 1")
        return DenseElementsAttr.from_array(np.zeros(type_.shape, dtype), type_)
    # Nested lists: build them with a stack (no recursion), then check the shape.
    stack: list[list] = [[]]
    pos = 0
    n = len(body)
    while pos < n:
        m = _ELEMENT_TOKEN_RE.match(body, pos)
        if m is None or m.end() == pos:
            at = start + len(body[pos:]) - len(body[pos:].lstrip()) + pos
            raise LiteralError("expected element literal of primitive type", at)
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            if len(stack) < 2:
                raise ValueError("unbalanced ']' in elements literal")
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3):
            continue
        elif m.group(7):
            raise ValueError("complex elements are not supported")
        else:
            text = m.group(m.lastindex)
            at = start + m.start(m.lastindex)
            if isinstance(element_type, FloatType):
                if m.group(4):
                    raise LiteralError("expected floating point literal", at)
                if _DECIMAL_INTEGER_RE.match(text):
                    raise LiteralError("unexpected decimal integer literal for a floating point "
                                       "value", at, ("add a trailing dot to make the literal a "
                                                     "float",))
            elif m.group(4) and element_type != i1:
                raise LiteralError("expected i1 type for 'true' or 'false' values", at)
            try:
                stack[-1].append(_element_value(text, element_type, float_bits=True))
            except ValueError as exc:  # at the element, as MLIR reports it
                raise LiteralError(str(exc), at) from None
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("malformed elements literal")
    literal = stack[0][0]
    # Floats are built from their bit patterns, then viewed as floats.
    storage = np.dtype(f"u{dtype.itemsize}") if isinstance(element_type, FloatType) and \
        not dtype.hasobject else dtype
    try:
        if not isinstance(literal, list):  # a splat: one element, whatever the shape
            array = np.array(literal, dtype=storage)
        else:
            array = np.array(literal, dtype=storage)
        if storage != dtype:
            array = array.view(dtype)
    except ValueError:
        raise ValueError("tensor literal is invalid; ranks are not consistent between "
                         "elements") from None
    if isinstance(literal, list) and array.shape != type_.shape:
        raise ValueError(f"inferred shape of elements literal ([{', '.join(map(str, array.shape))}]) "
                         f"does not match type ([{', '.join(map(str, type_.shape))}])")
    return DenseElementsAttr.from_array(array, type_)


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


_STRIDED_TOKEN = re.compile(r"\s*(-?[0-9]+|\?|[A-Za-z_]+|.)")


def parse_strided_layout(text: str) -> StridedLayoutAttr:
    """`strided<[1, ?], offset: 4>` (the whole text); LiteralError at the offending
    token, in MLIR's words."""
    pos = len("strided<")

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
    return StridedLayoutAttr(tuple(strides), offset)
