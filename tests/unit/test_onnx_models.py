"""Whole networks through the ONNX frontend (issue 12): the ONNX models of
`mlc.onnx.examples` pass onnx.checker, import, run through graph-optimize, and give
onnx.reference's outputs before and after; after fusion they are as many kernels as
the graph dialect's own networks (test_graph_pipeline.py: MLP 2, ResNet-18 24,
MobileNetV2 34, transformer 15). Conv biases, BatchNormalization, Clip as ReLU6,
Gemm(transB=1) and Flatten/Reshape before Gemm leave no kernel of their own."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import onnx
import pytest
from onnx.reference import ReferenceEvaluator

from mlc.graph import evaluate
from mlc.graph import examples as graph_examples
from mlc.graph.fusion.outline import is_primitive
from mlc.ir import verify
from mlc.ir.dialects.func import FuncOp
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.onnx import OnnxImportError, import_onnx
from mlc.onnx import examples as onnx_examples

# float32 kernels against onnx.reference through up to 20 layers, as test_graph_pipeline.
RTOL = ATOL = 1e-4


@dataclass(frozen=True)
class Case:
    """A network of mlc.onnx.examples, with the parameters it is built with here, the
    graph example it mirrors, and the kernels graph-optimize makes of it."""

    id: str
    network: str
    parameters: dict
    kernels: int
    compositions: dict[str, int]
    variant: dict = field(default_factory=dict)


_RESNET_KERNELS = {"max_pool2d": 1, "global_avg_pool2d": 1, "flatten": 1, "dense_bias_add": 1}
CASES = [
    Case("mlp", "mlp", {}, 2, {"dense_bias_add_relu": 1, "dense_bias_add": 1}),
    # Every Conv with its batch norm (scale folded into the weights, shift an add) and
    # its Relu; each residual Add in the kernel of its block's second conv.
    Case("resnet18", "resnet18", {"image_size": 64}, 24,
         {"conv2d_add_relu": 9, "conv2d_add_add_relu": 8, "conv2d_add": 3, **_RESNET_KERNELS}),
    Case("resnet18-folded", "resnet18", {"image_size": 64}, 24,
         {"conv2d_bias_add_relu": 9, "conv2d_bias_add_add_relu": 8, "conv2d_bias_add": 3,
          **_RESNET_KERNELS}, variant={"fold_batch_norm": True}),
    # Clip(0, 6) with its conv; the Reshape's Shape/Gather/Unsqueeze/Concat are folded.
    Case("mobilenet_v2", "mobilenet_v2", {"image_size": 64}, 34,
         {"conv2d_bias_add_clip": 21, "conv2d_bias_add": 4, "conv2d_bias_add_add": 6,
          "global_avg_pool2d": 1, "reshape": 1, "dense_bias_add": 1}),
    Case("mobilenet_v2-batch-norm", "mobilenet_v2", {"image_size": 64}, 34,
         {"conv2d_add_clip": 21, "conv2d_add": 4, "conv2d_add_add": 6,
          "global_avg_pool2d": 1, "reshape": 1, "dense_bias_add": 1},
         variant={"fold_batch_norm": False}),
    # The Erf GELU fuses into the FFN's first MatMul + Add, the residual Adds into the
    # MatMul + Add before them; heads split and merged in one kernel each.
    Case("transformer", "transformer", {"seq": 32}, 15,
         {"matmul_add": 3, "reshape_transpose": 3, "matmul_divide": 1, "softmax": 1,
          "matmul": 1, "transpose_reshape": 1, "matmul_add_add": 2, "layer_norm": 2,
          "matmul_add_divide_erf_add_multiply_multiply": 1}),
]


@dataclass
class Imported:
    model: onnx.ModelProto
    inputs: dict[str, np.ndarray]
    expected: list[np.ndarray]
    imported: list[np.ndarray]
    module: object  # after graph-optimize
    optimized: list[np.ndarray]


def _inputs(model: onnx.ModelProto, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {i.name: rng.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim],
                                        dtype=np.float32)
            for i in model.graph.input}


@pytest.fixture(scope="module", params=CASES, ids=[c.id for c in CASES])
def case(request) -> tuple[Case, Imported]:
    case = request.param
    model = onnx_examples.ONNX_EXAMPLES[case.network](**case.parameters, **case.variant)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 17)]
    onnx.checker.check_model(model, full_check=True)
    inputs = _inputs(model)
    expected = ReferenceEvaluator(model).run(None, inputs)
    module = import_onnx(model)
    imported = evaluate(module, list(inputs.values()))
    load_pass_plugins()
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize")
    assert result.success, result.diagnostics
    verify(module)
    optimized = evaluate(module, list(inputs.values()))
    return case, Imported(model, inputs, expected, imported, module, optimized)


def _assert_close(actual: list[np.ndarray], expected: list[np.ndarray]) -> None:
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype
        np.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL * float(np.abs(e).max()))


def test_imported_model_computes_what_onnx_reference_does(case):
    _, run = case
    _assert_close(run.imported, run.expected)


def test_optimized_model_computes_what_onnx_reference_does(case):
    _, run = case
    _assert_close(run.optimized, run.expected)


def _main(module) -> FuncOp:
    return next(op for op in module.regions[0].ops()
                if isinstance(op, FuncOp) and op.sym_name.value == "main")


def test_kernel_counts_equal_the_graph_dialects(case):
    spec, run = case
    kernels = [op for op in run.module.regions[0].ops()
               if isinstance(op, FuncOp) and is_primitive(op)]
    compositions = Counter(re.sub(r"^fused_|_\d+$", "", k.sym_name.value) for k in kernels)
    assert len(kernels) == spec.kernels
    assert compositions == spec.compositions
    # Nothing is left outside the kernels: no shape arithmetic, no unfused op.
    main_ops = Counter(op.name for op in _main(run.module).entry_block.ops())
    assert set(main_ops) == {"func.call", "graph.constant", "func.return"}
    assert main_ops["func.call"] == spec.kernels
    # Batch norms are folded: their scale into the conv weights, nothing multiplies.
    kernel_ops = Counter(op.name for k in kernels for op in k.entry_block.ops())
    assert kernel_ops["graph.batch_norm"] == 0
    if spec.network != "transformer":
        assert kernel_ops["graph.multiply"] == 0


def test_the_onnx_model_is_the_graph_example():
    """Same layers, sizes and seeded weights drawn in the same order: the imported
    model computes what the graph dialect's example network computes."""
    for name, parameters in (("mlp", {}), ("resnet18", {"image_size": 16}),
                             ("mobilenet_v2", {"image_size": 16}), ("transformer", {"seq": 8})):
        graph_example = graph_examples.EXAMPLES[name](**parameters)
        inputs = graph_example.inputs()
        module = import_onnx(onnx_examples.ONNX_EXAMPLES[name](**parameters))
        _assert_close(evaluate(module, list(inputs.values())),
                      evaluate(graph_example.module, inputs))


def test_ops_are_located_at_their_nodes():
    module = import_onnx(onnx_examples.resnet18(image_size=16))
    located = {(op.name, str(op.loc)) for op in _main(module).entry_block.ops()}
    assert ("graph.conv2d", 'loc("layer1.0.conv1")') in located
    assert ("graph.batch_norm", 'loc("layer1.0.bn1")') in located
    assert ("graph.add", 'loc("layer4.1.add")') in located
    assert ("graph.dense", 'loc("fc")') in located
    # Initializers are constants named after the state-dict keys.
    names = {str(op.loc) for op in _main(module).entry_block.ops() if op.name == "graph.constant"}
    assert 'loc("layer1.0.conv1.weight")' in names



# -- large weights: onnx.checker and shape inference see them declared, not carried


def _relu_model(x_dims, initializer: onnx.TensorProto | None = None) -> onnx.ModelProto:
    nodes = [onnx.helper.make_node("Relu", ["x"], ["y"], name="relu")]
    outputs = [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, x_dims)]
    initializers = []
    if initializer is not None:
        nodes.append(onnx.helper.make_node("Relu", [initializer.name], ["w_relu"], name="w_relu"))
        outputs.append(onnx.helper.make_tensor_value_info("w_relu", onnx.TensorProto.FLOAT,
                                                          list(initializer.dims)))
        initializers.append(initializer)
    graph = onnx.helper.make_graph(
        nodes, "g", [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, x_dims)],
        outputs, initializer=initializers)
    return onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])


def test_a_large_initializer_whose_data_does_not_fill_its_dims_is_reported():
    short = onnx.TensorProto(name="w", data_type=onnx.TensorProto.FLOAT, dims=[50, 50],
                             raw_data=np.zeros(2499, np.float32).tobytes())
    model = _relu_model([2], short)
    with pytest.raises(onnx.checker.ValidationError):  # onnx.checker on the whole model
        onnx.checker.check_model(model)
    with pytest.raises(OnnxImportError, match="initializer 'w': .*2499.* into shape \\(50,50\\)"):
        import_onnx(model)


def test_large_initializers_import_with_their_values():
    weights = np.random.default_rng(0).standard_normal((50, 50), dtype=np.float32)
    model = _relu_model([2], onnx.numpy_helper.from_array(weights, "w"))
    module = import_onnx(model)
    _, w_relu = evaluate(module, [np.zeros(2, np.float32)])
    np.testing.assert_array_equal(w_relu, np.maximum(weights, 0))


def test_import_leaves_the_callers_model_unchanged():
    model = _relu_model(["N", 4])
    before = model.SerializeToString()
    module = import_onnx(model, input_shapes={"x": (3, 4)})
    assert _main(module).entry_block.args[0].type.shape == (3, 4)
    assert model.SerializeToString() == before


@pytest.mark.parametrize("trans_b", [1, 0], ids=["transB=1 (torch)", "transB=0 (keras, tf2onnx)"])
def test_a_gemm_with_its_bias_and_relu_is_one_dense_kernel(trans_b):
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((16, 8) if trans_b else (8, 16), dtype=np.float32)
    bias = rng.standard_normal(16, dtype=np.float32)
    graph = onnx.helper.make_graph(
        [onnx.helper.make_node("Gemm", ["x", "w", "b"], ["h"], name="fc", transB=trans_b),
         onnx.helper.make_node("Relu", ["h"], ["y"], name="relu")], "g",
        [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 8])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 16])],
        initializer=[onnx.numpy_helper.from_array(weight, "w"),
                     onnx.numpy_helper.from_array(bias, "b")])
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])
    x = rng.standard_normal((2, 8), dtype=np.float32)
    module = import_onnx(model)
    load_pass_plugins()
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-optimize").success
    kernels = [op.sym_name.value for op in module.regions[0].ops()
               if isinstance(op, FuncOp) and is_primitive(op)]
    assert kernels == ["fused_dense_bias_add_relu"]  # a transposed weight is folded
    _assert_close(evaluate(module, [x]), ReferenceEvaluator(model).run(None, {"x": x}))
