"""ONNX linear algebra beyond matrix products: Det, Einsum."""

from __future__ import annotations

import numpy as np

from mlc.ir import FloatType, Value, f64
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@converter("Det", 11)
def det(node: Node) -> Value:
    """The determinant of each (n, n) matrix of (..., n, n), by Gaussian elimination
    with partial pivoting unrolled over the n columns (as LAPACK's LU, which numpy's
    det uses), in float64: at column k the row with the largest |entry| at or below
    the diagonal is swapped up (flipping the sign), the rows below lose their multiple
    of it, and the pivot joins the product. A zero pivot makes the product 0 (the rows
    are then divided by 1, so nothing becomes NaN)."""
    b, x = node.b, node.input(0)
    shape = x.type.shape
    element = x.type.element_type
    node.check(isinstance(element, FloatType), f"Det of {element} is not supported")
    node.check(len(shape) >= 2 and shape[-1] == shape[-2],
               f"X of shape {list(shape)} is not a stack of square matrices")
    n = shape[-1]
    batch = [int(np.prod(shape[:-2], dtype=np.int64))]
    a = b.reshape(b.cast(x, dtype=f64) if element != f64 else x, shape=[*batch, n, n])

    def const(value) -> Value:
        return b.const(np.asarray(value, np.float64))

    rows = np.arange(n).reshape(n, 1)
    product = const(np.ones(batch))
    for k in range(n):
        below = b.slice(a, starts=[k, k], ends=[n, k + 1], axes=[1, 2], steps=[1, 1])
        pivot_row = b.add(b.argmax(b.abs(b.reshape(below, shape=[*batch, n - k])), axis=1,
                                   keepdims=False), b.const(np.array(k, np.int64)))
        if k < n - 1:
            index = b.broadcast_to(b.reshape(pivot_row, shape=[*batch, 1, 1]), shape=[*batch, 1, n])
            chosen = b.gather_elements(a, index, axis=1)                    # (batch, 1, n)
            current = b.slice(a, starts=[k], ends=[k + 1], axes=[1], steps=[1])
            is_pivot = b.equal(b.const(rows.astype(np.int64)),
                               b.reshape(pivot_row, shape=[*batch, 1, 1]))
            a = b.where(b.const(rows == k), chosen, b.where(is_pivot, current, a))
            swapped = b.not_equal(pivot_row, b.const(np.array(k, np.int64)))
            product = b.where(swapped, b.neg(product), product)
        pivot = b.reshape(b.slice(a, starts=[k, k], ends=[k + 1, k + 1], axes=[1, 2],
                                  steps=[1, 1]), shape=batch)
        product = b.multiply(product, pivot)
        if k == n - 1:
            break
        safe = b.where(b.equal(pivot, const(0.0)), const(1.0), pivot)
        column = b.slice(a, starts=[k], ends=[k + 1], axes=[2], steps=[1])  # (batch, n, 1)
        factors = b.multiply(b.divide(column, b.reshape(safe, shape=[*batch, 1, 1])),
                             const((rows > k).astype(np.float64)))
        pivot_values = b.slice(a, starts=[k], ends=[k + 1], axes=[1], steps=[1])
        a = b.subtract(a, b.multiply(factors, pivot_values))
    result = b.reshape(product, shape=list(shape[:-2]))
    return result if element == f64 else b.cast(result, dtype=element)



@converter("Einsum", 12)
def einsum(node: Node) -> Value:
    """Einstein summation (:func:`mlc.graph.einsum.einsum`)."""
    from mlc.graph.einsum import EinsumError, einsum

    try:
        return einsum(node.b, node.attr("equation"), node.inputs)
    except EinsumError as exc:
        raise node.unsupported(str(exc)) from None
