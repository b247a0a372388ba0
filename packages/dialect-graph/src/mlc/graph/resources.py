"""Printing graph modules with their weights as `dense_resource` blobs: MLIR's way to
carry large constants (hex in a `{-# dialect_resources #-}` section, read back without
parsing element lists)."""

from __future__ import annotations

import re

from mlc.graph.names import unique_name
from mlc.graph.ops.constant import ConstantOp
from mlc.ir import DenseElementsAttr, DenseResourceElementsAttr, Operation
from mlc.ir.text import PrintOptions, print_op

_ALIGNMENT = 16  # bytes; enough for any element type


def module_text_with_resources(module: Operation, min_elements: int = 17,
                               options: PrintOptions | None = None) -> str:
    """The text of `module` with every dense constant of at least `min_elements`
    elements (not splats) printed as a `dense_resource` blob named after the
    constant (its name hint), made unique. `module` itself is not changed."""
    copy = module.clone()
    blobs: dict[str, tuple[int, bytes]] = {}
    for op in copy.walk():
        value = op.attributes.get("value") if isinstance(op, ConstantOp) else None
        if not isinstance(value, DenseElementsAttr) or value.array.size < min_elements \
                or value.is_splat():
            continue
        handle = unique_name(_handle(op.results[0].name_hint or "weight"), blobs)
        blobs[handle] = (_ALIGNMENT, value.array.tobytes())
        op.attributes["value"] = DenseResourceElementsAttr(value.type, handle, blobs)
    return print_op(copy, options or PrintOptions(), blobs)


def _handle(name: str) -> str:
    """A resource key from a constant's name: an identifier, so `0.weight` (a
    state-dict key of an nn.Sequential) becomes `_0.weight`."""
    handle = re.sub(r"[^A-Za-z0-9_.]", "_", name) or "weight"
    return "_" + handle if handle[0].isdigit() else handle

