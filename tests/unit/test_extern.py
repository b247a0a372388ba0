"""External functions (mlc.ir.extern): a kernel calls a registered Python function by
name, in destination-passing style, as the MLC course's `env.linear`."""

import numpy as np
import pytest

from mlc.ir import parse_module
from mlc.ir.extern import get_func, list_funcs, register_func, remove_func
from mlc.ir.interpreter import UnsupportedOperation, evaluate

MODULE = """
func.func private @"env.linear"(memref<2x3xf32>, memref<4x3xf32>, memref<4xf32>, memref<2x4xf32>)
func.func @main(%x: memref<2x3xf32>, %w: memref<4x3xf32>, %b: memref<4xf32>,
                %out: memref<2x4xf32>) {
  func.call @"env.linear"(%x, %w, %b, %out)
      : (memref<2x3xf32>, memref<4x3xf32>, memref<4xf32>, memref<2x4xf32>) -> ()
  loop.for %i = 0 to 2 {
    loop.for %j = 0 to 4 {
      loop.block "relu"(%vi = spatial(2, %i), %vj = spatial(4, %j)) {
        %y = loop.load %out[%vi, %vj] : memref<2x4xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %y, %zero : f32
        loop.store %r, %out[%vi, %vj] : memref<2x4xf32>
      }
    }
  }
  return
}
"""


@pytest.fixture
def env_linear():
    seen = []

    @register_func("env.linear", override=True)
    def linear(x, w, b, out):
        seen.append(out)
        np.matmul(x, w.T, out=out)
        out += b

    yield seen
    remove_func("env.linear")


def test_a_kernel_calls_a_registered_function_on_shared_arrays(env_linear):
    rng = np.random.default_rng(0)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((2, 3), (4, 3), (4,)))
    out = np.zeros((2, 4), np.float32)
    evaluate(parse_module(MODULE), "main", [x, w, b, out])
    np.testing.assert_allclose(out, np.maximum(x @ w.T + b, 0), rtol=1e-6)
    assert env_linear[0] is out  # no copy: the function wrote into the caller's array
    assert "env.linear" in list_funcs() and get_func("env.linear") is not None


def test_registering_twice_needs_override(env_linear):
    with pytest.raises(ValueError, match="'env.linear' is already registered"):
        register_func("env.linear", lambda *a: None)


def test_a_call_to_an_unregistered_declaration_is_refused():
    with pytest.raises(UnsupportedOperation, match="no external function is registered"):
        evaluate(parse_module(MODULE), "main", [np.zeros((2, 3), np.float32),
                                                np.zeros((4, 3), np.float32),
                                                np.zeros(4, np.float32),
                                                np.zeros((2, 4), np.float32)])


def test_graph_lower_to_loop_binds_a_primitive_function_to_an_external_one():
    from mlc.graph import evaluate as graph_evaluate
    from mlc.graph.examples import mlp
    from mlc.ir.passes.context import PassContext
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.passes.registry import load_pass_plugins

    module = mlp(in_features=6, hidden=5, num_classes=3).module
    x = np.random.default_rng(1).standard_normal((1, 6)).astype(np.float32)
    [expected] = graph_evaluate(module, [x])
    calls = []

    @register_func("env.linear_relu", override=True)
    def linear_relu(data, weight, bias, out):
        calls.append(out)
        np.maximum(data @ weight.T + bias, 0, out=out)

    try:
        load_pass_plugins()
        with PassContext(opt_level=3):
            result = run_pipeline(module, "graph-optimize,graph-lower-to-loop{extern="
                                          "fused_dense_bias_add_relu:env.linear_relu}")
        assert result.success, result.diagnostics
        out = np.zeros((1, 3), np.float32)
        evaluate(module, "main", [x, out])
        assert len(calls) == 1
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    finally:
        remove_func("env.linear_relu")


@pytest.mark.parametrize("option, message", [
    ("fused_nothing:env.f", "extern names 'fused_nothing', not a graph.primitive function"),
])
def test_bad_extern_options_are_diagnostics(option, message):
    from mlc.graph.examples import mlp
    from mlc.ir.passes.context import PassContext
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.passes.registry import load_pass_plugins

    load_pass_plugins()
    module = mlp(in_features=6, hidden=5, num_classes=3).module
    with PassContext(opt_level=3):
        result = run_pipeline(module, f"graph-optimize,graph-lower-to-loop{{extern={option}}}")
    assert not result.success
    assert any(message in d.message for d in result.diagnostics), result.diagnostics


@pytest.mark.parametrize("option, message, column", [
    ("env.f", "extern takes FUNCTION:NAME, got 'env.f'", 43),
    ("f:", "extern takes FUNCTION:NAME, got 'f:'", 43),
    ("f:env.a,g:env.b,f:env.c", "extern binds 'f' twice", 43),
])
def test_malformed_extern_options_are_refused_where_the_pipeline_spells_them(option, message,
                                                                             column):
    from mlc.ir.passes.pipeline import PipelineError, parse_pipeline
    from mlc.ir.passes.registry import PASSES, load_pass_plugins

    load_pass_plugins()
    with pytest.raises(PipelineError) as caught:
        parse_pipeline(f"graph-optimize,graph-lower-to-loop{{extern={option}}}")
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.message == ("invalid value for option 'extern' of 'graph-lower-to-loop': "
                                  + message)
    assert diagnostic.loc.column == column
    # The same check holds for options given in Python.
    from mlc.ir.passes.options import OptionError
    with pytest.raises(OptionError, match=message.replace("'", ".")):
        PASSES["graph-lower-to-loop"](extern=tuple(option.split(",")))
