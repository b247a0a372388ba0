"""mlc.llvm.build and compile_module: graph modules as one native entry point, modules of
the standard dialects as native functions — each result checked against the graph
interpreter (numpy's semantics of each op), which shares no code with the lowering."""

from __future__ import annotations

import numpy as np
import pytest

from mlc.graph.examples import mlp, resnet18
from mlc.graph.interpreter import evaluate
from mlc.ir import Context, parse_module
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.passes.manager import run_pipeline
from mlc.llvm.aot import bind_entry_resources
from mlc.llvm.build import BuildError, build, compile_module, lower_to_llvm_ir
from mlc.llvm.native_call import NativeCallError
from mlc.loop import te

rng = np.random.default_rng(3)


def _inputs(module):
    fn = next(op for op in module.regions[0].blocks[0].ops() if op.name == "func.func"
              and op.attributes["sym_name"].value == "main")
    return [rng.standard_normal(t.shape).astype(np.float32)
            for t in fn.attributes["function_type"].value.inputs]


@pytest.fixture(scope="module")
def mlp_model():
    module = mlp().module
    return module, build(module)


def test_mlp_natively_equals_the_interpreter(mlp_model):
    module, model = mlp_model
    x = _inputs(module)
    np.testing.assert_allclose(model(*x), evaluate(module, x)[0], rtol=1e-5, atol=1e-5)


def test_graph_executor_interface(mlp_model):
    module, model = mlp_model
    (x,) = _inputs(module)
    model.set_input("x", x)
    model.run()
    np.testing.assert_allclose(model.get_output(0), evaluate(module, [x])[0],
                               rtol=1e-5, atol=1e-5)
    assert model.num_outputs == 1
    with pytest.raises(KeyError, match="no input named 'y'"):
        model.set_input("y", x)


def test_wrong_calls_are_refused_before_native_code_runs(mlp_model):
    _, model = mlp_model
    with pytest.raises(NativeCallError, match="x"):
        model(np.zeros((2, 784), np.float32))
    with pytest.raises(NativeCallError):
        model(np.zeros((1, 784), np.float64))
    with pytest.raises(NativeCallError):
        model()


def test_weights_are_bound_as_pointers_not_embedded(mlp_model):
    module, model = mlp_model
    assert {"fc1.weight", "fc2.weight"} <= set(model.params)
    weight_bytes = sum(v.nbytes for v in model.params.values())
    # 100k weights: embedded they would be megabytes of IR text.
    assert weight_bytes > 400_000 and len(model.llvm_ir) < weight_bytes / 10
    assert "@__constant" not in model.llvm_ir


def test_stage_times_cover_every_stage(mlp_model):
    _, model = mlp_model
    names = [name for name, _ in model.timings.stages]
    for stage in ("graph → loops", "AOT entry", "llvm dialect", "translation to LLVM IR",
                  "optimise", "codegen"):
        assert any(stage in name for name in names), (stage, names)
    assert "total" in model.timings.report()


def test_build_leaves_the_module_unchanged():
    module = mlp().module
    before = str(module)
    build(module)
    assert str(module) == before


def test_small_resnet18_natively_equals_the_interpreter():
    # Weights, workspace views and kernels interleave in @main: the argument order of
    # the native entry must follow the rewritten signature exactly.
    module = resnet18(image_size=32).module
    x = _inputs(module)
    model = build(module)
    want = evaluate(module, x)[0]
    got = model(*x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * float(np.abs(want).max()))


def test_entry_arguments_are_params_then_workspaces():
    text = """
    memref.global "private" constant @w : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {
      %a = memref.alloc() : memref<16xi8>
      %w = memref.get_global @w : memref<4xf32>
      %b = memref.alloc() : memref<8xi8>
      %w2 = memref.get_global @w : memref<4xf32>
      memref.dealloc %a : memref<16xi8>
      memref.dealloc %b : memref<8xi8>
      return
    }
    """
    module = parse_module(text, Context())
    resources = bind_entry_resources(module)
    fn = next(module.regions[0].blocks[0].ops())
    types = [str(t) for t in fn.attributes["function_type"].value.inputs]
    assert types == ["memref<4xf32>"] * 3 + ["memref<16xi8>", "memref<8xi8>"]
    assert [name for name, _, _ in resources.params] == ["w"]
    assert [str(t) for _, t in resources.workspaces] == ["memref<16xi8>", "memref<8xi8>"]
    assert not any(op.name in ("memref.alloc", "memref.dealloc", "memref.get_global",
                               "memref.global") for op in module.walk())


def _mm_relu_module(n: int):
    A = te.placeholder((n, n), "float32", name="A")
    B = te.placeholder((n, n), "float32", name="B")
    k = te.reduce_axis(n, name="k")
    Y = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((n, n), lambda i, j: te.maximum(Y[i, j], 0.0), name="C")
    module = ModuleOp.build()
    module.body.append(te.create_prim_func([A, B, C], name="mm_relu"))
    return module


def test_compile_module_runs_a_lowered_kernel():
    module = _mm_relu_module(16)
    assert run_pipeline(module, "loop-lower,canonicalize").success
    kernel = compile_module(module)["mm_relu"]
    a = rng.standard_normal((16, 16)).astype(np.float32)
    b = rng.standard_normal((16, 16)).astype(np.float32)
    c = np.empty((16, 16), np.float32)
    kernel(a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)


def test_what_cannot_be_compiled_is_a_located_diagnostic():
    text = ("func.func @f(%m: memref<?xf32>) {\n  %c0 = arith.constant 0 : index\n"
            "  %v = memref.load %m[%c0] : memref<?xf32>\n  return\n}\n")
    with pytest.raises(BuildError) as info:
        compile_module(parse_module(text, Context()))
    message = str(info.value)
    assert "convert-to-llvm cannot lower" in message and "memref.load" in message


def test_unknown_params_are_refused():
    with pytest.raises(BuildError, match="params name no argument of @main: nope"):
        build(mlp().module, params={"nope": np.zeros(1, np.float32)})


def test_math_without_an_intrinsic_calls_the_c_library():
    # erf has no LLVM intrinsic: scalars call erff, vectors call it per element (f32 erf
    # once math-polynomial-approximation, which approximates it, is disabled).
    import math

    from mlc.ir.passes.context import PassContext

    text = """
    func.func @erf_kernel(%x: memref<8xf32>, %y: memref<8xf32>, %s: memref<1xf64>) {
      %c0 = arith.constant 0 : index
      %v = vector.load %x[%c0] : memref<8xf32>, vector<8xf32>
      %e = math.erf %v : vector<8xf32>
      vector.store %e, %y[%c0] : memref<8xf32>, vector<8xf32>
      %a = memref.load %s[%c0] : memref<1xf64>
      %b = math.erf %a : f64
      memref.store %b, %s[%c0] : memref<1xf64>
      return
    }
    """
    with PassContext(disabled={"math-polynomial-approximation"}):
        kernel = compile_module(parse_module(text, Context()))["erf_kernel"]
        assert 'call float @"erff"' in lower_to_llvm_ir(parse_module(text, Context()))
    x = np.linspace(-2, 2, 8, dtype=np.float32)
    y = np.empty(8, np.float32)
    s = np.array([0.5])
    kernel(x, y, s)
    np.testing.assert_allclose(y, [math.erf(v) for v in x], rtol=1e-6, atol=1e-7)
    assert s[0] == math.erf(0.5)


def test_a_function_named_like_a_c_library_function_is_not_called_instead():
    text = """
    func.func @erf(%x: memref<1xf64>) {
      %c0 = arith.constant 0 : index
      %a = memref.load %x[%c0] : memref<1xf64>
      %b = math.erf %a : f64
      memref.store %b, %x[%c0] : memref<1xf64>
      return
    }
    """
    with pytest.raises(BuildError, match="cannot lower 'math.erf'"):
        compile_module(parse_module(text, Context()))
