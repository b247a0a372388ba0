"""ONNX Einsum against numpy's einsum on random equations: one to three operands,
repeated labels (diagonals), summed and batch labels, explicit and implicit outputs,
ellipses that broadcast (extents of 1); floats through matrix products, integers through products
and sums."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper

from mlc.onnx.backend import MlcBackend

ONNX_TYPE = {np.float32: TensorProto.FLOAT, np.int64: TensorProto.INT64}


@st.composite
def equations(draw):
    """(equation, operand shapes): labels from 'abcd' with random extents."""
    extent = {c: draw(st.integers(1, 3)) for c in "abcd"}
    count = draw(st.integers(1, 3))
    terms = [draw(st.text("abcd", min_size=0, max_size=3)) for _ in range(count)]
    ellipsis = draw(st.booleans()) and count <= 2
    batch = draw(st.lists(st.integers(1, 2), min_size=0, max_size=2)) if ellipsis else []
    shapes = []
    for i, term in enumerate(terms):
        # ONNX's shape inference wants an ellipsis of one rank; an extent 1 broadcasts.
        own = [1 if i and draw(st.booleans()) else n for n in batch]
        shapes.append(tuple(own) + tuple(extent[c] for c in term))
    if ellipsis:
        terms = ["..." + t for t in terms]
    used = sorted(set("".join(terms)) - {"."})
    if draw(st.booleans()):
        output = "".join(draw(st.permutations(used))[:draw(st.integers(0, len(used)))])
        equation = ",".join(terms) + "->" + ("..." if ellipsis else "") + output
    else:
        equation = ",".join(terms)
    return equation, shapes


@settings(max_examples=60, deadline=None)
@given(case=equations(), dtype=st.sampled_from([np.float32, np.int64]),
       seed=st.integers(0, 2**32 - 1))
def test_einsum_matches_numpy(case, dtype, seed):
    equation, shapes = case
    rng = np.random.default_rng(seed)
    arrays = [rng.integers(-3, 4, shape).astype(dtype) for shape in shapes]
    expected = np.einsum(equation, *arrays)
    names = [f"x{i}" for i in range(len(arrays))]
    graph = helper.make_graph(
        [helper.make_node("Einsum", names, ["y"], equation=equation)], "einsum",
        [helper.make_tensor_value_info(n, ONNX_TYPE[dtype], a.shape) for n, a in zip(names, arrays)],
        [helper.make_tensor_value_info("y", ONNX_TYPE[dtype], expected.shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    (got,) = MlcBackend.prepare(model).run(arrays)
    assert got.dtype == expected.dtype and got.shape == expected.shape, equation
    np.testing.assert_allclose(got, expected, rtol=1e-5, err_msg=equation)
