"""Indices read from data, checked in native code (issue 22): a scatter's, which its
rule matches against positions instead of loading at (so no access would check them),
reported as gather's are, through a build, `compile_module` and an exported library;
valid indices give onnx.reference's results."""

from __future__ import annotations

import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from mlc.ir import Context, parse_module
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import UndefinedBehavior, evaluate
from mlc.llvm.build import build, compile_module
from mlc.llvm.loader import load_module
from mlc.llvm.native_call import NativeIndexError
from mlc.loop.compute_rules import op_kernel
from mlc.onnx import import_onnx

SAFE = " (an index read from data; the call ran on a safe index instead"


def scatter_model() -> onnx.ModelProto:
    """ScatterElements (axis 1, add) and ScatterND (no reduction) of one 4x3 data."""
    f32, i64 = TensorProto.FLOAT, TensorProto.INT64
    graph = helper.make_graph(
        [helper.make_node("ScatterElements", ["data", "e", "u"], ["y"], axis=1,
                          reduction="add"),
         helper.make_node("ScatterND", ["data", "n", "v"], ["z"])],
        "scatters",
        [helper.make_tensor_value_info("data", f32, [4, 3]),
         helper.make_tensor_value_info("e", i64, [4, 2]),
         helper.make_tensor_value_info("u", f32, [4, 2]),
         helper.make_tensor_value_info("n", i64, [2, 1]),
         helper.make_tensor_value_info("v", f32, [2, 3])],
        [helper.make_tensor_value_info("y", f32, [4, 3]),
         helper.make_tensor_value_info("z", f32, [4, 3])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def scatter_inputs(e, n) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"data": rng.standard_normal((4, 3)).astype(np.float32),
            "e": np.asarray(e, np.int64), "u": rng.standard_normal((4, 2)).astype(np.float32),
            "n": np.asarray(n, np.int64), "v": rng.standard_normal((2, 3)).astype(np.float32)}


# Negative indices count from the end (ONNX); duplicates accumulate with `add`.
GOOD = scatter_inputs([[0, -1], [2, 2], [-3, 1], [1, -2]], [[3], [-4]])
BAD = {
    "ScatterElements": (scatter_inputs([[0, 1], [2, 3], [0, 0], [1, 1]], [[3], [0]]),
                        "index 3 is out of range [0, 3) in kernel @fused_scatter_elements, "
                        "block 'T_scatter_index': index 1 of %p0 : memref<4x3xf32>"),
    "ScatterElements, negative": (scatter_inputs([[0, 1], [2, 0], [-4, 0], [1, 1]], [[3], [0]]),
                                  "index -1 is out of range [0, 3) in kernel "
                                  "@fused_scatter_elements, block 'T_scatter_index'"),
    "ScatterND": (scatter_inputs([[0, 1], [2, 2], [0, 0], [1, 1]], [[1], [2**40]]),
                  f"index {2**40} is out of range [0, 4) in kernel @fused_scatter_nd, block "
                  "'T_scatter_index0': index 0 of %p0 : memref<4x3xf32>"),
}


def test_native_scatters_check_their_indices_built_and_exported(c_compiler, tmp_path):
    """An index outside its axis is a NativeIndexError naming the kernel, the index and
    the bound (it silently wrote nothing before), from the build and from its exported
    library; valid indices, negative ones too, give onnx.reference's results, also
    right after a failed call."""
    model = scatter_model()
    expected = ReferenceEvaluator(model).run(None, GOOD)
    built = build(import_onnx(model))
    library = built.export_library(tmp_path / "scatters.so")
    for runner in (built, load_module(library)):
        for name, (inputs, message) in BAD.items():
            with pytest.raises(NativeIndexError) as error:
                runner(*inputs.values())
            assert str(error.value).startswith(f"main(): {message}"), name
            assert SAFE in str(error.value)
        results = runner(*GOOD.values())
        for result, reference in zip(results, expected):
            np.testing.assert_allclose(result, reference, rtol=1e-6, atol=1e-6)


SCATTER_ND_I32 = """
func.func @main(%x: tensor<2x3x2xf32>, %i: tensor<2x2xi32>, %u: tensor<2x2xf32>) -> tensor<2x3x2xf32> {
  %0 = graph.scatter_nd %x, %i, %u {reduction = "max"} : (tensor<2x3x2xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x3x2xf32>
  return %0 : tensor<2x3x2xf32>
}
"""


def scatter_kernel_module() -> ModuleOp:
    """The loop kernel of one scatter_nd (i32 indices addressing two axes) alone."""
    graph_module = parse_module(SCATTER_ND_I32, Context())
    op = next(op for op in graph_module.walk() if op.name == "graph.scatter_nd")
    module = ModuleOp.build()
    module.body.append(op_kernel(op, "scatter"))
    return module


def test_a_scatter_kernel_checks_each_axis_through_compile_module_and_the_interpreter():
    """The kernel alone, compiled by compile_module: each addressed axis is checked
    against its own extent (3 for the second), as the loop interpreter checks it."""
    module = scatter_kernel_module()
    native = compile_module(module)["scatter"]
    x = np.zeros((2, 3, 2), np.float32)
    updates = np.array([[5, 6], [7, 8]], np.float32)
    out = np.full((2, 3, 2), np.nan, np.float32)
    native(x, np.array([[1, -1], [0, 1]], np.int32), updates, out)
    np.testing.assert_array_equal(out[1, 2], [5, 6])
    np.testing.assert_array_equal(out[0, 1], [7, 8])
    assert np.count_nonzero(out) == 4
    for indices, message in (([[1, 3], [0, 0]], "index 3 is out of range [0, 3)"),
                             ([[0, 0], [-3, 0]], "index -1 is out of range [0, 2)")):
        indices = np.array(indices, np.int32)
        with pytest.raises(NativeIndexError) as error:
            native(x, indices, updates, out)
        assert str(error.value).startswith(f"scatter(): {message} in kernel @scatter, block "
                                           "'T_scatter_index")
        with pytest.raises(UndefinedBehavior) as error:
            evaluate(module, "scatter", [x, indices, updates, out.copy()])
        assert f"{message} in index " in str(error.value)


PARALLEL_GATHERS = """
func.func @gathers(%X: memref<1000x32xf32>, %Z: memref<500x32xf32>, %I: memref<4096xi64>,
                   %J: memref<4096xi64>, %Y: memref<4096x32xf32>) {
  loop.for parallel %i = 0 to 4096 {
    loop.for %j = 0 to 32 {
      loop.block "Y"(%vi = spatial(4096, %i), %vj = spatial(32, %j)) {
        %n = loop.load %I[%vi] : memref<4096xi64>
        %row = arith.index_cast %n : i64 to index
        %x = loop.load %X[%row, %vj] : memref<1000x32xf32>
        %m = loop.load %J[%vi] : memref<4096xi64>
        %other = arith.index_cast %m : i64 to index
        %z = loop.load %Z[%other, %vj] : memref<500x32xf32>
        %y = arith.addf %x, %z : f32
        loop.store %y, %Y[%vi, %vj] : memref<4096x32xf32>
      }
    }
  }
  return
}
"""


@pytest.mark.parametrize("num_threads", [2, 3])
def test_threads_failing_at_once_leave_one_coherent_record(num_threads):
    """Every row of a parallel loop reads two tables at indices that are mostly out of
    range: the threads fail at once, at two sites of different bounds. The failures are
    counted atomically (exactly: none lost to a race) and the first alone writes the
    record, so each report pairs a site with its own bound and an index it was given."""
    module = parse_module(PARALLEL_GATHERS, Context())
    native = compile_module(module, num_threads=num_threads)
    assert "atomicrmw add ptr" in native.llvm_ir
    rows = np.arange(4096, dtype=np.int64)
    first, second = rows * 7 - 2000, 4000 - rows * 3  # 143 and 168 rows in range
    bad = {"index 0 of %X : memref<1000x32xf32>": (1000, set(first[(first < 0) | (first >= 1000)])),
           "index 0 of %Z : memref<500x32xf32>": (500, set(second[(second < 0) | (second >= 500)]))}
    failures = 32 * sum(len(indices) for _, indices in bad.values())
    x, z = np.ones((1000, 32), np.float32), np.ones((500, 32), np.float32)
    for _ in range(40):
        with pytest.raises(NativeIndexError) as error:
            native["gathers"](x, z, first, second, np.zeros((4096, 32), np.float32))
        message = str(error.value)
        index, bound, where, count = re.fullmatch(
            r"gathers\(\): index (-?\d+) is out of range \[0, (\d+)\) in kernel @gathers, "
            r"block 'Y': (.*); (\d+) checks failed in the call \(an index read from data.*",
            message).groups()
        assert (int(bound), int(count)) == (bad[where][0], failures), message
        assert int(index) in bad[where][1], message
    y = np.zeros((4096, 32), np.float32)
    native["gathers"](x, z, np.zeros(4096, np.int64), np.full(4096, 499), y)  # then valid
    np.testing.assert_array_equal(y, 2)


@pytest.mark.parametrize("fields", [3, 4])
def test_a_record_of_three_fields_from_an_older_library_still_reads(fields):
    """Libraries exported before the failure count have a record of 3 fields (their
    metadata names none): it is read and cleared as such, never past its end."""
    import ctypes

    from mlc.llvm.native_call import IndexErrorRecord

    memory = (ctypes.c_int64 * 5)(2, 9, 4, 6, 77)  # the 5th: whatever follows the record
    record = IndexErrorRecord(ctypes.addressof(memory), ["site a", "site b"], fields)
    with pytest.raises(NativeIndexError) as error:
        record.raise_if_set("f")
    count = "; 6 checks failed in the call" if fields == 4 else ""
    assert str(error.value).startswith(f"f(): index 9 is out of range [0, 4) in site b{count} (")
    assert list(memory) == [0, 0, 0, 6 if fields == 3 else 0, 77]
    record.raise_if_set("f")  # cleared: nothing to report
