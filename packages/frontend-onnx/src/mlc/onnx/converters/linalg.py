"""ONNX linear algebra beyond matrix products: Det, Einsum."""

from __future__ import annotations

import math

import numpy as np

from mlc.ir import FloatType, Value, element_dtype, f64
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
    """Einstein summation, as graph ops: each operand's repeated labels become its
    diagonal, labels no later operand or the output needs are summed away at once, and
    operands are contracted left to right, a float pair by one matrix product over
    their shared labels (batch labels in front), integers by a broadcast product and
    a sum."""
    operands = node.inputs
    terms, output = _parse_equation(node, node.attr("equation"), [len(v.type.shape) for v in operands])
    b = node.b
    x, labels = None, ""
    for index, (value, term) in enumerate(zip(operands, terms)):
        value, term = _diagonals(b, value, term)
        needed = set(output).union(*terms[index + 1:], labels)
        value, term = _sum_labels(b, value, term, [c for c in term if c not in needed])
        if x is None:
            x, labels = value, term
            continue
        keep = set(output).union(*terms[index + 1:])
        node.check(all(_extent(x, labels, c) == _extent(value, term, c)
                       for c in set(labels) & set(term) - keep),
                   "a summed label has different extents in two operands")
        x, labels = _contract(b, x, labels, value, term, keep)
    x, labels = _sum_labels(b, x, labels, [c for c in labels if c not in output])
    permutation = [labels.index(c) for c in output]
    return x if permutation == sorted(permutation) else b.transpose(x, axes=permutation)


def _parse_equation(node: Node, equation: str, ranks: list[int]) -> tuple[list[str], str]:
    """The operands' label strings and the output's, an ellipsis written out as digit
    labels (its axes aligned from the right, as numpy broadcasts them); an implicit
    output is the ellipsis then the labels used once, in alphabetical order."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    node.check(len(terms) == len(ranks), f"the equation '{equation}' names {len(terms)} operands, "
               f"the node has {len(ranks)}")
    ellipsis_rank = 0
    for term, rank in zip(terms, ranks):
        if "..." in term:
            ellipsis_rank = max(ellipsis_rank, rank - (len(term) - 3))
    node.check(ellipsis_rank <= 10, "an ellipsis of more than 10 axes")
    digits = "".join(str(i) for i in range(ellipsis_rank))

    def written_out(term: str, rank: int) -> str:
        if "..." in term:
            term = term.replace("...", digits[ellipsis_rank - (rank - (len(term) - 3)):])
        node.check(len(term) == rank and all(c.isalpha() or c.isdigit() for c in term),
                   f"the term '{term}' does not label the {rank} axes of its operand")
        return term

    terms = [written_out(t, r) for t, r in zip(terms, ranks)]
    if arrow:
        output = output.replace("...", digits)
    else:
        letters = "".join(terms)
        output = digits + "".join(sorted(c for c in set(letters)
                                         if c.isalpha() and letters.count(c) == 1))
    node.check(len(set(output)) == len(output) and set(output) <= set("".join(terms)),
               f"the output '{output}' repeats a label or names one no operand has")
    return terms, output


def _extent(x: Value, labels: str, label: str) -> int:
    return x.type.shape[labels.index(label)]


def _diagonals(b, x: Value, labels: str) -> tuple[Value, str]:
    """`x` with each label that repeats reduced to one axis: its diagonal, as the sum
    of the product with an identity mask over the two axes."""
    while len(set(labels)) < len(labels):
        first = next(i for i, c in enumerate(labels) if labels.count(c) > 1)
        second = labels.index(labels[first], first + 1)
        n = x.type.shape[first]
        mask_shape = [n if i in (first, second) else 1 for i in range(len(labels))]
        mask = np.eye(n).reshape(mask_shape).astype(element_dtype(x.type.element_type))
        x = b.sum(b.multiply(x, b.const(mask, dtype=x.type.element_type)), axes=[second])
        labels = labels[:second] + labels[second + 1:]
    return x, labels


def _sum_labels(b, x: Value, labels: str, summed: list[str]) -> tuple[Value, str]:
    if not summed:
        return x, labels
    x = b.sum(x, axes=[labels.index(c) for c in summed])
    return x, "".join(c for c in labels if c not in summed)


def _contract(b, x: Value, x_labels: str, y: Value, y_labels: str,
              keep: set[str]) -> tuple[Value, str]:
    """The product of `x` and `y` summed over their shared labels not in `keep`, with
    the labels of its axes."""
    shared = [c for c in x_labels if c in y_labels]
    batch = [c for c in shared if c in keep]
    summed = [c for c in shared if c not in keep]
    x_free = [c for c in x_labels if c not in y_labels]
    y_free = [c for c in y_labels if c not in x_labels]
    if not isinstance(x.type.element_type, FloatType):
        # Integers (matmul takes floats): a broadcast product over every label, summed.
        order = batch + x_free + y_free + summed
        x, y = (_aligned(b, v, labels, order) for v, labels in ((x, x_labels), (y, y_labels)))
        return _sum_labels(b, b.multiply(x, y), "".join(order), summed)
    free_shape = [_extent(x, x_labels, c) for c in x_free] + [_extent(y, y_labels, c) for c in y_free]
    product = b.matmul(_grouped(b, x, x_labels, batch, [x_free, summed]),
                       _grouped(b, y, y_labels, batch, [summed, y_free]))
    batch_shape = list(product.type.shape[:len(batch)])
    return b.reshape(product, shape=batch_shape + free_shape), "".join(batch + x_free + y_free)


def _aligned(b, x: Value, labels: str, order: list[str]) -> Value:
    """`x` transposed to the order of its labels in `order`, with an axis of extent 1
    for each label of `order` it lacks."""
    own = [c for c in order if c in labels]
    permutation = [labels.index(c) for c in own]
    if permutation != sorted(permutation):
        x = b.transpose(x, axes=permutation)
    shape = [_extent(x, "".join(own), c) if c in labels else 1 for c in order]
    return b.reshape(x, shape=shape) if tuple(shape) != x.type.shape else x


def _grouped(b, x: Value, labels: str, batch: list[str], groups: list[list[str]]) -> Value:
    """`x` as [batch axes..., one axis per group]: transposed to batch then group
    order, each group's axes merged."""
    order = batch + [c for group in groups for c in group]
    x = _aligned(b, x, labels, order)
    shape = [_extent(x, "".join(order), c) for c in batch] + [
        math.prod(_extent(x, "".join(order), c) for c in group) for group in groups]
    return b.reshape(x, shape=shape) if tuple(shape) != x.type.shape else x
