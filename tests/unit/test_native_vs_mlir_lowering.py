"""mlir-opt-22 as the oracle of mlc's lowering to LLVM: mlc's own output in the
standard dialects (scf, memref, vector, math, arith, func) is lowered twice, by mlc
(`mlc.llvm.compile_module`: convert-scf-to-cf, convert-to-llvm, mlc's translation)
and by MLIR (mlir-opt-22's conversion passes, then mlir-translate-22); llvmlite
compiles both, and on the same seeded arguments every buffer and result agree.

The kernels: graph programs through graph-optimize, graph-lower-to-loop,
loop-plan-memory and loop-lower (a small MLP, examples/conv_relu.mlir, a softmax with
layer norm), the MLC course's mm_relu with its schedule (examples/mm_relu.mlir and
.trace.json: split, reorder, vectorize), and the examples/*.mlir already in these
dialects (their functions with at most one result: a native entry returns one).

Tolerance: both sides compile the same float32 operations with the same fast-math
flags (only te's `contract`); they may differ where one side fuses a multiply-add
into an FMA and the other does not, or a math function is a C library call on one
side and an LLVM intrinsic on the other: rtol 1e-6, atol 1e-6 times the largest
magnitude; integers exactly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mlc.ir import Context, PrintOptions, parse_module, print_op
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.build import compile_module, numpy_dtype, signature_specs
from mlc.llvm.jit import compile_llvm_ir
from mlc.loop.schedule import Schedule, Trace

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "property"))
from native_runs import assert_close, copies, defined_functions, seeded_arguments  # noqa: E402
from test_llvm_translate import MLIR_LOWERING, _run, _tool  # noqa: E402

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
RTOL = ATOL = 1e-6
GRAPH_TO_STANDARD = "graph-optimize,graph-lower-to-loop,loop-plan-memory,loop-lower,canonicalize"

SOFTMAX_LAYER_NORM = """
func.func @main(%x: tensor<4x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : tensor<4x16xf32>
  %1 = graph.layer_norm %0, %g, %b {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
"""


def _mlp() -> str:
    from mlc.graph.examples import mlp
    from mlc.graph.resources import module_text_with_resources

    return module_text_with_resources(mlp(in_features=16, hidden=8, num_classes=4).module)


def _graph_kernels(text: str):
    """`text`'s graph through the loop pipeline; the module and its resources."""
    ctx = Context()
    module = parse_module(text, ctx)
    with PassContext(opt_level=3):
        result = run_pipeline(module, GRAPH_TO_STANDARD)
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    return module, ctx.resources


def _scheduled_mm_relu():
    """The course's schedule of mm_relu (examples/mm_relu.trace.json), the ReLU's
    innermost loop (4 iterations) then vectorized."""
    sch = Schedule(parse_module((EXAMPLES / "mm_relu.mlir").read_text()))
    Trace.from_json(json.loads((EXAMPLES / "mm_relu.trace.json").read_text())).apply(sch)
    relu = sch.get_block("C", func_name="main")
    sch.vectorize(sch.get_loops(relu)[-1])
    module = sch.mod
    with PassContext(opt_level=3):
        result = run_pipeline(module, "loop-lower,canonicalize,loop-invariant-code-motion")
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    assert any(op.name.startswith("vector.") for op in module.walk()), "the schedule vectorizes"
    return module, None


def _standard_example(name: str):
    """examples/`name`, without the functions that return more than one value."""
    module = parse_module((EXAMPLES / name).read_text())
    for fn in defined_functions(module):
        if len(fn.attributes["function_type"].value.results) > 1:
            fn.erase()
    return module, None


KERNELS = {
    "mlp": lambda: _graph_kernels(_mlp()),
    "conv_relu": lambda: _graph_kernels((EXAMPLES / "conv_relu.mlir").read_text()),
    "softmax_layer_norm": lambda: _graph_kernels(SOFTMAX_LAYER_NORM),
    "mm_relu_scheduled": _scheduled_mm_relu,
    "examples/loops.mlir": lambda: _standard_example("loops.mlir"),
    "examples/arith.mlir": lambda: _standard_example("arith.mlir"),
    "examples/lowering.mlir": lambda: _standard_example("lowering.mlir"),
}


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_mlc_lowering_runs_like_mlir_opts(kernel):
    module, resources = KERNELS[kernel]()
    assert not any(op.name.startswith(("graph.", "loop.")) for op in module.walk())
    functions = defined_functions(module)
    assert functions
    ours = compile_module(module)
    mlir_ir = _run([_tool("mlir-translate"), "--mlir-to-llvmir"],
                   _run([_tool("mlir-opt"), *MLIR_LOWERING],
                        print_op(module, PrintOptions(), resources)))
    theirs = compile_llvm_ir(mlir_ir)
    for seed, fn in enumerate(functions):
        name = fn.sym_name.value
        results = fn.attributes["function_type"].value.results
        oracle = theirs.function(name, signature_specs(fn),
                                 numpy_dtype(results[0]) if results else None)
        args = seeded_arguments(fn, seed)
        our_args, their_args = copies(args), copies(args)
        our_result = ours[name](*our_args)
        their_result = oracle(*their_args)
        for n, (got, want) in enumerate(zip(our_args, their_args)):
            assert_close(got, want, RTOL, ATOL, f"{kernel} @{name}: argument #{n}")
        if results:
            assert_close(our_result, their_result, RTOL, ATOL, f"{kernel} @{name}: result")
