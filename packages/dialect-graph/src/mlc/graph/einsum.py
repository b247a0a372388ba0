"""Einstein summation as graph ops, for the frontends (ONNX Einsum, torch.einsum).

Each operand's repeated labels become its diagonal (the sum of its product with an
identity mask), labels no later operand or the output needs are summed away at once,
and operands are contracted left to right: a float pair by one matrix product over
their shared labels (batch labels in front), integers by a broadcast product and a sum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mlc.graph.builder import GraphBuilder
from mlc.ir import FloatType, Value, element_dtype

__all__ = ["EinsumError", "einsum"]


class EinsumError(ValueError):
    """An equation that does not fit its operands (the message says why)."""


def _check(condition: bool, reason: str) -> None:
    if not condition:
        raise EinsumError(reason)


def einsum(b: GraphBuilder, equation: str, operands: Sequence[Value]) -> Value:
    """`equation` (numpy's and ONNX's Einsum notation, ellipses included) on
    `operands`, built with `b`; EinsumError when the equation does not fit them."""
    terms, output = _parse_equation(equation, [len(v.type.shape) for v in operands])
    x, labels = None, ""
    for index, (value, term) in enumerate(zip(operands, terms)):
        value, term = _diagonals(b, value, term)
        needed = set(output).union(*terms[index + 1:], labels)
        value, term = _sum_labels(b, value, term, [c for c in term if c not in needed])
        if x is None:
            x, labels = value, term
            continue
        keep = set(output).union(*terms[index + 1:])
        _check(all(_extent(x, labels, c) == _extent(value, term, c)
                       for c in set(labels) & set(term) - keep),
                   "a summed label has different extents in two operands")
        x, labels = _contract(b, x, labels, value, term, keep)
    x, labels = _sum_labels(b, x, labels, [c for c in labels if c not in output])
    permutation = [labels.index(c) for c in output]
    return x if permutation == sorted(permutation) else b.transpose(x, axes=permutation)


def _parse_equation(equation: str, ranks: list[int]) -> tuple[list[str], str]:
    """The operands' label strings and the output's, an ellipsis written out as digit
    labels (its axes aligned from the right, as numpy broadcasts them); an implicit
    output is the ellipsis then the labels used once, in alphabetical order."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    _check(len(terms) == len(ranks), f"the equation '{equation}' names {len(terms)} operands, "
               f"there are {len(ranks)}")
    ellipsis_rank = 0
    for term, rank in zip(terms, ranks):
        if "..." in term:
            ellipsis_rank = max(ellipsis_rank, rank - (len(term) - 3))
    _check(ellipsis_rank <= 10, "an ellipsis of more than 10 axes")
    digits = "".join(str(i) for i in range(ellipsis_rank))

    def written_out(term: str, rank: int) -> str:
        if "..." in term:
            term = term.replace("...", digits[ellipsis_rank - (rank - (len(term) - 3)):])
        _check(len(term) == rank and all(c.isalpha() or c.isdigit() for c in term),
                   f"the term '{term}' does not label the {rank} axes of its operand")
        return term

    terms = [written_out(t, r) for t, r in zip(terms, ranks)]
    if arrow:
        output = output.replace("...", digits)
    else:
        letters = "".join(terms)
        output = digits + "".join(sorted(c for c in set(letters)
                                         if c.isalpha() and letters.count(c) == 1))
    _check(len(set(output)) == len(output) and set(output) <= set("".join(terms)),
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
