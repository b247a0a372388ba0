"""A global's dense initializer as an LLVM constant of the global's own type
(`[4 x float] [float 1.0, ...]`, not its bytes as `[16 x i8]`), written as text in one
pass over a numpy array: llvmlite's `ir.Constant` per element is too slow for a model's
weights. Floats are written as LLVM's exact hexadecimal (`0x3FF8000000000000`, the
value as a double; `0xH3C00` for `half`), so every bit pattern, -0.0 and NaNs included,
survives.

    initializer = dense_initializer(value_type, array, op.loc)   # None: not element-wise
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from mlc.ir.core.attributes import DenseResourceElementsAttr, Location, ShapedType
from mlc.llvm.dialect.translation.core import translation_error


class TextConstant:
    """An initializer whose LLVM IR text is already written (what a global needs of a
    constant: its type and its reference)."""

    def __init__(self, type_: ir.Type, text: str):
        self.type = type_
        self.text = text

    def get_reference(self) -> str:
        return self.text


def _leaf(type_: ir.Type) -> ir.Type:
    while isinstance(type_, (ir.ArrayType, ir.VectorType)):
        type_ = type_.element
    return type_


def _count(type_: ir.Type) -> int:
    count = 1
    while isinstance(type_, (ir.ArrayType, ir.VectorType)):
        count *= type_.count
        type_ = type_.element
    return count


def _scalar_texts(flat: np.ndarray, element: ir.Type) -> list[str] | None:
    """Each element's value as LLVM writes it after its type; None if `flat`'s kind
    does not fit `element`."""
    if isinstance(element, ir.IntType):
        if flat.dtype.kind not in "biu":
            return None
        return [str(v) for v in flat.astype(np.int64 if flat.dtype.kind != "u" else np.uint64)
                .tolist()]
    if flat.dtype.kind != "f":
        return None
    if isinstance(element, ir.HalfType):
        return [f"0xH{bits:04X}" for bits in flat.astype(np.float16).view(np.uint16).tolist()]
    if isinstance(element, (ir.FloatType, ir.DoubleType)):
        # A float widens exactly to a double: LLVM reads `float 0x...` as that double.
        return [f"0x{bits:016X}" for bits in flat.astype(np.float64).view(np.uint64).tolist()]
    return None


def _aggregate(type_: ir.Type, items: list[str], start: int, count: int) -> str:
    if not isinstance(type_, (ir.ArrayType, ir.VectorType)):
        return items[start]
    inner = count // type_.count
    parts = ", ".join(f"{type_.element} {_aggregate(type_.element, items, start + i * inner, inner)}"
                      for i in range(type_.count))
    return f"<{parts}>" if isinstance(type_, ir.VectorType) else f"[{parts}]"


def dense_initializer(type_: ir.Type, array: np.ndarray) -> TextConstant | None:
    """`array` (one value, or as many as `type_` holds) as a constant of `type_`, an
    array or vector (nested) of integers or floats; None when it is not one."""
    if not isinstance(type_, (ir.ArrayType, ir.VectorType)):
        return None
    flat = np.asarray(array).reshape(-1)
    count = _count(type_)
    if flat.size == 1 and count != 1:
        flat = np.repeat(flat, count)
    if flat.size != count:
        return None
    items = _scalar_texts(flat, _leaf(type_))
    if items is None:
        return None
    return TextConstant(type_, _aggregate(type_, items, 0, count))


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
