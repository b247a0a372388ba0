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
