"""A global's dense initializer as an LLVM constant of the global's own type
(`[4 x float] [float 1.0, ...]`, not its bytes as `[16 x i8]`), written as text in one
pass over a numpy array: llvmlite's `ir.Constant` per element is too slow for a model's
weights. Floats are written as LLVM's exact hexadecimal (`0x3FF8000000000000`, the
value as a double; `0xH3C00` for `half`), so every bit pattern, -0.0 and NaNs included,
survives. The text is made by numpy, one step per level of nesting: a million floats
take about as long as their bytes did.

    initializer = dense_initializer(value_type, array, op.loc)   # None: not element-wise
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from mlc.ir.core.attributes import DenseResourceElementsAttr, Location, ShapedType
from mlc.ir.core.ir import Operation
from mlc.llvm.dialect.translation.core import ModuleTranslation, translation_error


class TextConstant:
    """An initializer whose LLVM IR text is already written (what a global needs of a
    constant: its type and its reference)."""

    def __init__(self, type_: ir.Type, text: str):
        self.type = type_
        self.text = text

    def get_reference(self) -> str:
        return self.text

    __str__ = get_reference  # how llvmlite writes an aggregate constant's members


def _count(type_: ir.Type) -> int:
    count = 1
    while isinstance(type_, (ir.ArrayType, ir.VectorType)):
        count *= type_.count
        type_ = type_.element
    return count


_HEX = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)


def _hex_columns(bits: np.ndarray, digits: int) -> np.ndarray:
    """Each unsigned integer of `bits` (of `digits` / 2 bytes) as `digits` upper-case
    hex digits: an (n, digits) matrix of ASCII bytes."""
    big_endian = bits.astype(f">u{digits // 2}").view(np.uint8).reshape(bits.size, digits // 2)
    out = np.empty((bits.size, digits), dtype=np.uint8)
    out[:, 0::2] = _HEX[big_endian >> 4]
    out[:, 1::2] = _HEX[big_endian & 0xF]
    return out


def _rows(text: bytes, n: int) -> np.ndarray:
    return np.broadcast_to(np.frombuffer(text, dtype=np.uint8), (n, len(text)))


def _leaf_rows(flat: np.ndarray, element: ir.Type):
    """Each element as `<type> <value>`, one row of ASCII bytes each, all of one width
    (integers padded with blanks, which LLVM's lexer skips); None if `flat`'s kind does
    not fit `element`."""
    n = flat.size
    if isinstance(element, ir.IntType):
        if flat.dtype.kind not in "biu":
            return None
        digits = flat.astype(np.int64 if flat.dtype.kind != "u" else np.uint64).astype("S")
        matrix = digits.view(np.uint8).reshape(n, digits.dtype.itemsize).copy()
        matrix[matrix == 0] = ord(" ")
        return np.concatenate([_rows(f"{element} ".encode(), n), matrix], axis=1)
    if flat.dtype.kind != "f":
        return None
    if isinstance(element, ir.HalfType):
        return np.concatenate([_rows(b"half 0xH", n), _hex_columns(
            flat.astype(np.float16).view(np.uint16), 4)], axis=1)
    if isinstance(element, (ir.FloatType, ir.DoubleType)):
        # A float widens exactly to a double: LLVM reads `float 0x...` as that double.
        return np.concatenate([_rows(f"{element} 0x".encode(), n), _hex_columns(
            flat.astype(np.float64).view(np.uint64), 16)], axis=1)
    return None


def _grouped(rows: np.ndarray, type_: ir.Type, typed: bool) -> np.ndarray:
    """Rows of `type_.count` elements each joined into `[n x T] [e, e, ...]` (`<...>` for
    a vector; without the leading type unless `typed`)."""
    count, width = type_.count, rows.shape[1]
    groups = rows.shape[0] // count
    separated = np.concatenate([rows, _rows(b", ", rows.shape[0])], axis=1)
    joined = separated.reshape(groups, count * (width + 2))[:, :-2]
    vector = isinstance(type_, ir.VectorType)
    head = (f"{type_} " if typed else "") + ("<" if vector else "[")
    return np.concatenate([_rows(head.encode(), groups), joined,
                           _rows(b">" if vector else b"]", groups)], axis=1)


def dense_initializer(type_: ir.Type, array: np.ndarray) -> TextConstant | None:
    """`array` (one value, or as many as `type_` holds) as a constant of `type_`, an
    array or vector (nested) of integers or floats; None when it is not one. Every
    element is written at once as a row of bytes of one width, and each level of
    nesting joins its rows in one numpy step."""
    if not isinstance(type_, (ir.ArrayType, ir.VectorType)):
        return None
    flat = np.asarray(array).reshape(-1)
    count = _count(type_)
    if flat.size == 1 and count != 1:
        flat = np.repeat(flat, count)
    if flat.size != count:
        return None
    if count == 0:  # a zero-length array (some level of it) has no elements to write
        return TextConstant(type_, "zeroinitializer")
    levels = []
    leaf = type_
    while isinstance(leaf, (ir.ArrayType, ir.VectorType)):
        levels.append(leaf)
        leaf = leaf.element
    rows = _leaf_rows(flat, leaf)
    if rows is None:
        return None
    for depth, level in enumerate(reversed(levels)):
        rows = _grouped(rows, level, typed=depth < len(levels) - 1)
    return TextConstant(type_, rows.tobytes().decode("ascii"))


def resource_array(attr: DenseResourceElementsAttr, loc: Location | None) -> np.ndarray:
    """The elements of a `dense_resource` initializer, or an error worded as
    mlir-translate's for a blob that is missing, of another size, or of a type that
    has no LLVM constant."""
    if not isinstance(attr.type, ShapedType) or type(attr.type).__name__ not in (
            "RankedTensorType", "VectorType"):
        raise translation_error("unsupported dense_resource type", loc)
    element = attr.type.element_type
    width = getattr(element, "width", None)
    if width is None or width % 8:
        raise translation_error("no known conversion for innermost element type", loc)
    blob = attr.blobs.get(attr.handle) if attr.blobs is not None else None
    if blob is None:
        raise translation_error("resource does not exist", loc)
    array = attr.array()
    if array is None:
        raise translation_error("raw data size does not match element type size", loc)
    return array


# ------------------------------------------------------------------ initializer regions


def _members(type_: ir.Type) -> list[ir.Type]:
    if isinstance(type_, (ir.LiteralStructType, ir.IdentifiedStructType)):
        return list(type_.elements)
    return [type_.element] * type_.count


def _inserted(aggregate: ir.Constant, value, position: list[int]) -> ir.Constant:
    """`aggregate` with `value` at `position` (a constant `insertvalue`)."""
    if isinstance(aggregate.constant, list):
        elements = list(aggregate.constant)
    else:  # undef, poison or zero: each member alike
        elements = [ir.Constant(member, aggregate.constant) for member in _members(aggregate.type)]
    head, *rest = position
    elements[head] = value if not rest else _inserted(elements[head], value, rest)
    return ir.Constant(aggregate.type, elements)


def region_initializer(t: ModuleTranslation, op: Operation) -> ir.Constant | TextConstant:
    """The constant an `llvm.mlir.global`'s initializer region computes (constants,
    addresses of symbols, `insertvalue`, constant GEPs), as LLVM's constant expression;
    an error at the first op that is not a constant."""
    from mlc.llvm.dialect import ops_control as C
    from mlc.llvm.dialect import ops_values as V
    from mlc.llvm.dialect.translation.core import constant, llvm_type

    values: dict = {}
    for inner in op.regions[0].blocks[0].ops():
        if isinstance(inner, C.ReturnOp):
            return values[inner.operands[0]]
        result_type = llvm_type(inner.results[0].type, inner.loc) if inner.results else None
        if isinstance(inner, V.ConstantOp):
            value = constant(result_type, inner.attributes["value"], inner.loc)
        elif isinstance(inner, (V.UndefOp, V.PoisonOp)):
            value = ir.Constant(result_type, ir.Undefined)
        elif isinstance(inner, V.ZeroOp):
            value = ir.Constant(result_type, None)
        elif isinstance(inner, V.AddressOfOp):
            value = t.symbol(inner.attributes["global_name"].root, inner)
        elif isinstance(inner, V.InsertValueOp):
            value = _inserted(values[inner.operands[0]], values[inner.operands[1]],
                              list(inner.attributes["position"].values))
        elif isinstance(inner, V.GEPOp):
            value = _constant_gep(inner, [values[v] for v in inner.operands], result_type)
        else:
            raise translation_error(f"'{inner.name}' is not a constant LLVM IR can write in "
                                    "a global's initializer", inner.loc)
        values[inner.results[0]] = value
    raise translation_error("a global's initializer region must end in llvm.return", op.loc)


def _constant_gep(op: Operation, args: list, result_type: ir.Type) -> TextConstant:
    from mlc.llvm.dialect import ops_values as V
    from mlc.llvm.dialect.translation.core import int_attr, llvm_type, type_attr

    base, dynamic = args[0], iter(args[1:])
    indices = []
    for raw in op.attributes["rawConstantIndices"].values:
        index = next(dynamic) if raw == V.DYNAMIC_INDEX else ir.Constant(ir.IntType(32), raw)
        indices.append(f"{index.type} {index.get_reference()}")
    inbounds = " inbounds" if (int_attr(op, "noWrapFlags", 0) or 0) & 1 else ""
    element = llvm_type(type_attr(op, "elem_type"), op.loc)
    return TextConstant(result_type, f"getelementptr{inbounds} ({element}, ptr "
                                     f"{base.get_reference()}, {', '.join(indices)})")
