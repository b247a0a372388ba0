"""A content hash of IR: equal for IR that prints the same (locations included), and
cheap on modules holding large constants.

The text is printed with large dense constants elided, and the elided elements are
hashed as their raw bytes instead of being spelled out in hex, which for a network's
weights is the difference between milliseconds and seconds. A cache keyed by it (the
build cache of mlc.llvm) misses whenever anything printable changes.
"""

from __future__ import annotations

import hashlib

from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DictionaryAttr,
)
from mlc.ir.core.ir import Operation
from mlc.ir.text.printer import PrintOptions, print_op

__all__ = ["fingerprint"]

_ELIDE_ABOVE = 16
"""Constants of more elements are hashed as bytes rather than printed."""


def fingerprint(op: Operation) -> str:
    """The SHA-256 (hex) of `op` as printed with locations, with its large constants'
    elements hashed as bytes (module docstring)."""
    digest = hashlib.sha256()
    options = PrintOptions(generic=True, debuginfo=True, elide_large_elements=_ELIDE_ABOVE)
    digest.update(print_op(op, options).encode())
    for nested in op.walk():
        for name, attr in nested.attributes.items():
            _hash_elements(digest, name, attr)
    return digest.hexdigest()


def _hash_elements(digest, name: str, attr: Attribute) -> None:
    """Feed the elements of the large constants in `attr` to `digest`, in order."""
    if isinstance(attr, DenseElementsAttr):
        if attr.array.size > _ELIDE_ABOVE and attr.splat_element() is None:
            _hash_array(digest, name, attr.array)
    elif isinstance(attr, DenseResourceElementsAttr):
        array = attr.array()
        if array is not None:
            _hash_array(digest, name, array)
    elif isinstance(attr, ArrayAttr):
        for element in attr.elements:
            _hash_elements(digest, name, element)
    elif isinstance(attr, DictionaryAttr):
        for key, value in attr.entries:
            _hash_elements(digest, key, value)


def _hash_array(digest, name: str, array) -> None:
    import numpy as np

    digest.update(f"\0{name}:{array.dtype.str}:{array.shape}\0".encode())
    if array.dtype.hasobject:
        digest.update(repr(array.tolist()).encode())
    else:
        digest.update(np.ascontiguousarray(array).data)
