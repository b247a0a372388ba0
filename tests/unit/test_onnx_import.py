"""`import_onnx` on models built here with onnx.helper: what it makes of a valid model
(parameters, locations, optional inputs, determinism), checked against onnx.reference
where numbers are involved, and every way a model can be wrong, each an OnnxImportError
whose one message names the model and what is wrong where."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from mlc.graph import evaluate
from mlc.ir import NameLoc, print_op
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.onnx import OnnxImportError, import_onnx
from mlc.onnx.importer import SUPPORTED_OPSETS

FLOAT = TensorProto.FLOAT


def value(name: str, shape, elem_type: int = FLOAT) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem_type, shape)


def make_model(nodes, inputs, outputs, initializers=(), opset: int | None = 17,
               domains: dict[str, int] | None = None) -> onnx.ModelProto:
    """A model of `opset` (None: no default-domain opset) and the custom `domains`."""
    graph = helper.make_graph(nodes, "test", inputs, outputs, list(initializers))
    opsets = [] if opset is None else [helper.make_opsetid("", opset)]
    opsets += [helper.make_opsetid(d, v) for d, v in (domains or {}).items()]
    return helper.make_model(graph, opset_imports=opsets)


def relu_model() -> onnx.ModelProto:
    return make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                      [value("x", [2, 3])], [value("y", [2, 3])])


def conv_model(batch="batch") -> onnx.ModelProto:
    """conv1 -> relu1, and a transpose of conv1's output, added: a model whose weights
    are large enough to be printed as blobs, with a dynamic batch dimension."""
    rng = np.random.default_rng(7)
    weight = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "conv1.weight", "conv1.bias"], ["c"], name="conv1",
                              pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu1"),
             helper.make_node("Transpose", ["c"], ["t"], name="transpose1", perm=[0, 1, 3, 2]),
             helper.make_node("Add", ["r", "t"], ["y"], name="add1")]
    return make_model(nodes, [value("x", [batch, 3, 5, 5])], [value("y", [batch, 4, 5, 5])],
                      [numpy_helper.from_array(weight, "conv1.weight"),
                       numpy_helper.from_array(bias, "conv1.bias")])


def import_error(model_or_path, **kwargs) -> str:
    with pytest.raises(OnnxImportError) as caught:
        import_onnx(model_or_path, **kwargs)
    return str(caught.value)


def reference(model: onnx.ModelProto, inputs: dict) -> list[np.ndarray]:
    return ReferenceEvaluator(model).run(None, inputs)


# ------------------------------------------------------------------ what a model becomes


def test_initializers_become_constants_named_after_them() -> None:
    module = import_onnx(conv_model(), input_shapes={"x": (2, 3, 5, 5)})
    main = module.regions[0].blocks[0].first_op
    assert [a.name_hint for a in main.entry_block.args] == ["x"]
    constants = [op for op in module.walk() if op.name == "graph.constant"]
    assert [c.results[0].name_hint for c in constants] == ["conv1.weight", "conv1.bias"]
    x = np.random.default_rng(0).standard_normal((2, 3, 5, 5)).astype(np.float32)
    [ours] = evaluate(module, {"x": x})
    [theirs] = reference(conv_model(), {"x": x})
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_keep_params_makes_initializers_parameters_after_the_inputs() -> None:
    model = conv_model()
    module = import_onnx(model, input_shapes={"x": (1, 3, 5, 5)}, freeze_params=False)
    main = module.regions[0].blocks[0].first_op
    arguments = main.entry_block.args
    assert [a.name_hint for a in arguments] == ["x", "conv1.weight", "conv1.bias"]
    assert [a.type.shape for a in arguments] == [(1, 3, 5, 5), (4, 3, 3, 3), (4,)]
    assert not [op for op in module.walk() if op.name == "graph.constant"]
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    x = np.random.default_rng(1).standard_normal((1, 3, 5, 5)).astype(np.float32)
    [ours] = evaluate(module, {"x": x, **weights})
    [theirs] = reference(model, {"x": x})
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_node_names_become_op_locations() -> None:
    module = import_onnx(conv_model(), input_shapes={"x": (1, 3, 5, 5)})
    located = {op.name: op.loc for op in module.walk() if op.name.startswith("graph.")
               and op.name != "graph.constant"}
    assert located == {"graph.conv2d": NameLoc("conv1"), "graph.bias_add": NameLoc("conv1"),
                       "graph.relu": NameLoc("relu1"), "graph.transpose": NameLoc("transpose1"),
                       "graph.add": NameLoc("add1")}


def test_an_unnamed_node_is_located_by_its_op_and_position() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["a"], name="first"),
                        helper.make_node("Neg", ["a"], ["y"])],
                       [value("x", [3])], [value("y", [3])])
    module = import_onnx(model)
    [neg] = [op for op in module.walk() if op.name == "graph.neg"]
    assert neg.loc == NameLoc("Neg_1")


def test_a_fusion_remark_names_the_onnx_node() -> None:
    """conv1's output feeds a transpose, which keeps it out of add1's kernel; the
    remark says so at conv1, with notes at add1 and transpose1."""
    module = import_onnx(conv_model(), input_shapes={"x": (1, 3, 5, 5)})
    load_pass_plugins()
    with PassContext(opt_level=3, config={"graph.fuse-ops.remarks": True}):
        result = run_pipeline(module, "graph-fuse-ops")
    assert result.success
    remarks = [d for d in result.diagnostics if d.severity == "remark"]
    refused = [d for d in remarks if "not fused into its post-dominator" in d.message]
    assert refused and refused[0].loc == NameLoc("conv1")
    assert {n.loc for n in refused[0].notes} == {NameLoc("add1"), NameLoc("transpose1")}


def test_optional_inputs_given_as_empty_names() -> None:
    """Clip without a minimum (`""`) and Gemm without C: the omitted inputs are
    omitted, not read as values, and the numbers are onnx.reference's."""
    rng = np.random.default_rng(2)
    b = rng.standard_normal((4, 5)).astype(np.float32)
    nodes = [helper.make_node("Clip", ["x", "", "high"], ["clipped"], name="clip"),
             helper.make_node("Gemm", ["clipped", "b", ""], ["y"], name="gemm", alpha=0.5)]
    model = make_model(nodes, [value("x", [3, 4])], [value("y", [3, 5])],
                       [numpy_helper.from_array(np.array(0.25, np.float32), "high"),
                        numpy_helper.from_array(b, "b")], opset=13)
    module = import_onnx(model)
    names = {op.name for op in module.walk()}
    assert {"graph.clip", "graph.dense"} <= names and not {"graph.add", "graph.bias_add"} & names
    x = rng.standard_normal((3, 4)).astype(np.float32)
    x[0, 0] = -1e30  # no minimum: kept
    [ours] = evaluate(module, {"x": x})
    [theirs] = reference(model, {"x": x})
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)


def test_dynamic_dimensions_bound_by_input_shapes() -> None:
    module = import_onnx(conv_model(), input_shapes={"x": [3, 3, 5, 5]})
    main = module.regions[0].blocks[0].first_op
    assert main.entry_block.args[0].type.shape == (3, 3, 5, 5)
    [returned] = main.entry_block.last_op.operands
    assert returned.type.shape == (3, 4, 5, 5)


def test_import_leaves_the_given_model_as_it_was() -> None:
    model = conv_model()
    before = model.SerializeToString()
    import_onnx(model, input_shapes={"x": (2, 3, 5, 5)})
    assert model.SerializeToString() == before
    with pytest.raises(OnnxImportError):
        import_onnx(model, input_shapes={"x": (2, 3, 4, 4)})  # fails after binding
    assert model.SerializeToString() == before


def test_import_is_deterministic() -> None:
    texts = {print_op(import_onnx(conv_model(), input_shapes={"x": (1, 3, 5, 5)}))
             for _ in range(3)}
    assert len(texts) == 1


# ------------------------------------------------------------------ reading the file


def test_missing_file(tmp_path) -> None:
    path = tmp_path / "absent.onnx"
    assert import_error(path) == f"{path}: error: cannot read the model: No such file or directory"


def test_empty_file(tmp_path) -> None:
    path = tmp_path / "empty.onnx"
    path.write_bytes(b"")
    assert import_error(path) == f"{path}: error: not an ONNX model: the file is empty"


def test_not_protobuf(tmp_path) -> None:
    path = tmp_path / "text.onnx"
    path.write_text("module {\n}\n")
    assert import_error(path) == (
        f"{path}: error: not an ONNX model: the file (11 bytes) is not a valid ModelProto "
        "(truncated or not protobuf)")


def test_every_truncation_of_a_model_is_a_diagnostic(tmp_path) -> None:
    """Each proper prefix of a serialized model fails with one error naming the file:
    protobuf's own errors, a model without its graph or its opsets, or onnx.checker's."""
    data = conv_model(batch=1).SerializeToString()
    path = tmp_path / "cut.onnx"
    messages = set()
    for length in range(len(data)):
        path.write_bytes(data[:length])
        message = import_error(path)
        assert message.startswith(f"{path}: error: ") and "\n" not in message.strip()
        messages.add(message.split(": error: ", 1)[1].split(":")[0])
    assert "not an ONNX model" in messages
    path.write_bytes(data)
    import_onnx(path)


def test_a_name_that_is_not_utf8(tmp_path) -> None:
    data = conv_model(batch=1).SerializeToString()
    path = tmp_path / "names.onnx"
    path.write_bytes(data.replace(b"relu1", b"\xffelu1"))
    assert import_error(path) == (
        f"{path}: error: the model is not valid ONNX: the name of node #1 is not valid UTF-8")
    path.write_bytes(data.replace(b"transpose1", b"transpose\xff", 1))
    assert import_error(path) == (
        f"{path}: error: the model is not valid ONNX: the name of node #2 is not valid UTF-8")


def test_corrupted_bytes_give_diagnostics(tmp_path) -> None:
    """Seeded random changes of one to three bytes of a model: each imports, or fails
    with an OnnxImportError naming the file (never another exception)."""
    data = conv_model(batch=1).SerializeToString()
    rng = np.random.default_rng(11)
    path = tmp_path / "corrupt.onnx"
    outcomes = set()
    for _ in range(150):
        corrupt = bytearray(data)
        for position in rng.integers(0, len(data), rng.integers(1, 4)):
            corrupt[position] = rng.integers(0, 256)
        path.write_bytes(bytes(corrupt))
        try:
            import_onnx(path)
            outcomes.add("imported")
        except OnnxImportError as error:
            assert str(error).startswith(f"{path}: error: ")
            outcomes.add(str(error).split(": error: ")[1][:20])
    assert len(outcomes) >= 3  # the changes reach the parser, the checker and the importer


# ------------------------------------------------------------------ opsets


@pytest.mark.parametrize("opset", [0, 99])
def test_opset_outside_those_mlc_reads(opset: int) -> None:
    model = relu_model()
    model.opset_import[0].version = opset
    assert import_error(model) == (
        f"<model>: error: opset {opset} of the default ONNX domain is not supported (mlc reads "
        f"opsets {SUPPORTED_OPSETS.start} to {SUPPORTED_OPSETS.stop - 1})")


def test_model_without_a_default_domain_opset() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"])], [value("x", [2])],
                       [value("y", [2])], opset=None, domains={"com.acme": 1})
    assert import_error(model) == "<model>: error: the model imports no opset of the default ONNX domain"


# ------------------------------------------------------------------ shapes


def test_every_unbound_dynamic_dimension_is_named() -> None:
    model = make_model([helper.make_node("Add", ["a", "b"], ["y"], name="add")],
                       [value("a", ["batch", 4]), value("b", [None, "width"])],
                       [value("y", ["batch", 4])])
    assert import_error(model) == (
        "<model>: error: dynamic dimensions must be bound with --input-shape NAME=D0,D1,... "
        "(input_shapes=): unbound: 'a' dimension 0 ('batch'), 'b' dimension 0 (?), "
        "'b' dimension 1 ('width')")
    # Binding some of them leaves the others named.
    assert import_error(model, input_shapes={"a": (2, 4)}).endswith(
        "unbound: 'b' dimension 0 (?), 'b' dimension 1 ('width')")
    import_onnx(model, input_shapes={"a": (2, 4), "b": (2, 4)})


def test_input_of_unknown_rank_is_unbound() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"])],
                       [helper.make_tensor_value_info("x", FLOAT, None)], [value("y", [2])])
    assert import_error(model).endswith("unbound: 'x' (rank unknown)")
    import_onnx(model, input_shapes={"x": (2,)})


@pytest.mark.parametrize(("shapes", "message"), [
    ({"y": (1, 3, 5, 5)}, "--input-shape names 'y', which is not among the model's inputs ('x')"),
    ({"batch": (1,)}, "--input-shape names 'batch', which is not among the model's inputs "
                      "('x'); 'batch' is a dimension of input 'x': give that input's whole "
                      "shape (--input-shape x=N,3,5,5)"),
    ({"x": (1, 3, 5)}, "input 'x' has rank 4, but 3 dimensions are given for it"),
    ({"x": (1,)}, "input 'x' has rank 4, but 1 dimension is given for it"),
    ({"x": (-1, 3, 5, 5)}, "--input-shape x: dimensions must be >= 0, got [-1, 3, 5, 5]"),
    ({"x": (1, 3, 5, 6)}, "input 'x' has dimension 3 of size 5, but 6 is given for it"),
])
def test_input_shapes_that_do_not_fit_the_model(shapes: dict, message: str) -> None:
    assert import_error(conv_model(), input_shapes=shapes) == f"<model>: error: {message}"


# ------------------------------------------------------------------ what mlc cannot convert


def test_every_unconvertible_node_in_one_diagnostic() -> None:
    """Ops of a domain mlc does not know, an op mlc has no converter for, an attribute
    value a converter refuses: all in one error, each node with its op and opset, the
    nodes after a failed one still converted (and checked)."""
    nodes = [helper.make_node("Relu", ["x"], ["a"], name="ok"),
             helper.make_node("Frobnicate", ["a"], ["b"], name="frob", domain="com.acme"),
             helper.make_node("Multinomial", ["probabilities"], ["drawn"], name="draw",
                              sample_size=3),
             helper.make_node("Dropout", ["x", "ratio", "training"], ["dropped"],
                              name="drop"),
             helper.make_node("Relu", ["dropped"], ["y"], name="after_drop")]
    constants = [numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
                 numpy_helper.from_array(np.array(True), "training")]
    model = make_model(nodes, [value("x", [2, 3, 4]), value("probabilities", [2, 5])],
                       [value("b", [2, 3, 4]), value("drawn", [2, 3], TensorProto.INT32), value("y", [2, 3, 4])],
                       constants, opset=15, domains={"com.acme": 2})
    message = import_error(model)
    assert message == (
        "<model>: error: cannot convert 3 nodes of the model (opset 15):\n"
        "  node 'frob': com.acme.Frobnicate (opset 2): mlc has no converter for this op\n"
        "  node 'draw': Multinomial (opset 15): mlc has no converter for this op\n"
        "  node 'drop': Dropout (opset 15): training_mode=true with a ratio other than 0 "
        "(random) is not supported")


def test_graph_ops_refusing_what_onnx_checker_lets_through() -> None:
    """ONNX's shape inference does not check a Conv's channels against its weight;
    the graph op does, and the node is named with the others mlc cannot convert."""
    weight = numpy_helper.from_array(np.ones((4, 2, 3, 3), np.float32), "w")
    model = make_model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
                       [value("x", [1, 3, 5, 5])], [value("y", [1, 4, 3, 3])], [weight])
    assert import_error(model) == (
        "<model>: error: cannot convert 1 node of the model (opset 17):\n"
        "  node 'conv': Conv (opset 17): 'graph.conv2d' weight expects 2 input channels "
        "(2 per group x 1 groups), data has 3")


def test_an_op_converted_only_from_a_later_opset_is_upgraded_by_onnx_version_converter():
    # GatherND is converted from opset 12 on; at opset 11 ONNX's version converter
    # upgrades the model first.
    model = make_model([helper.make_node("GatherND", ["x", "i"], ["y"], name="early")],
                       [value("x", [2, 3]), value("i", [2, 1], TensorProto.INT64)], [value("y", [2, 3])],
                       opset=11)
    x, i = np.arange(6, dtype=np.float32).reshape(2, 3), np.array([[1], [0]])
    module = import_onnx(model)
    np.testing.assert_array_equal(evaluate(module, [x, i])[0], reference(model, {"x": x, "i": i})[0])


def test_an_op_the_version_converter_cannot_upgrade_names_the_first_opset(monkeypatch):
    # OneHot is converted from opset 11; when ONNX's version converter cannot take the
    # model there (it has no adapter for some op of it), the node is named.
    from onnx import version_converter

    def no_adapter(model, target):
        raise RuntimeError("no adapter")

    monkeypatch.setattr(version_converter, "convert_version", no_adapter)
    model = make_model([helper.make_node("OneHot", ["i", "d", "v"], ["y"], name="early")],
                       [value("i", [2], TensorProto.INT64), value("d", [1], TensorProto.INT64),
                        value("v", [2])], [value("y", [2, 3])], opset=10)
    assert import_error(model) == (
        "<model>: error: cannot convert 1 node of the model (opset 10):\n"
        "  node 'early': OneHot (opset 10): mlc converts it from opset 11 on")


def test_legacy_broadcast_aligns_the_second_operand_at_axis():
    # Before opset 7, Add broadcasts only with broadcast=1, matching B to A's axes from
    # `axis` on: B (3,) against A (2, 3, 4) at axis 1 is B[None, :, None].
    model = make_model([helper.make_node("Add", ["a", "b"], ["y"], broadcast=1, axis=1)],
                       [value("a", [2, 3, 4]), value("b", [3])], [value("y", [2, 3, 4])], opset=6)
    a, b = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32), np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(evaluate(import_onnx(model), [a, b])[0], a + b[None, :, None])


# ------------------------------------------------------------------ invalid models


def test_a_node_reading_an_undefined_value() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["a"], name="relu"),
                        helper.make_node("Add", ["a", "nowhere"], ["y"], name="add")],
                       [value("x", [2])], [value("y", [2])])
    assert import_error(model) == (
        "<model>: error: the model is not valid ONNX (onnx.checker): node 'add' (Add) reads "
        "'nowhere', which is not a graph input, an initializer or an output of an earlier node")


def test_an_unnamed_node_in_a_checker_error_is_named_as_its_location() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["a"], name="relu"),
                        helper.make_node("Neg", ["nowhere"], ["y"])],
                       [value("x", [2])], [value("y", [2])])
    assert "node 'Neg_1' (Neg) reads 'nowhere'" in import_error(model)


def test_a_checker_error_at_a_node() -> None:
    model = make_model([helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis="last")],
                       [value("x", [2])], [value("y", [2])])
    assert import_error(model) == (
        "<model>: error: the model is not valid ONNX (onnx.checker): node 'softmax' (Softmax): "
        "Mismatched attribute type in 'softmax : axis'. Expected: 'INT', actual: 'STRING'")


def test_shape_inference_failures_name_each_node() -> None:
    nodes = [helper.make_node("Add", ["a", "b"], ["y"], name="add"),
             helper.make_node("MatMul", ["a", "b"], ["z"], name="matmul")]
    model = make_model(nodes, [value("a", [2, 4]), value("b", [3, 4])],
                       [value("y", [2, 4]), value("z", [2, 4])])
    assert import_error(model) == (
        "<model>: error: ONNX shape inference fails on the model:\n"
        "  node 'add' (Add): Incompatible dimensions\n"
        "  node 'matmul' (MatMul): Incompatible dimensions for matrix multiplication")


def test_shape_inference_failure_after_binding_a_shape() -> None:
    """The declared output shape holds for batch 1 but not for the bound batch 2."""
    model = make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                       [value("x", ["batch", 3])], [value("y", [1, 3])])
    import_onnx(model, input_shapes={"x": (1, 3)})
    assert import_error(model, input_shapes={"x": (2, 3)}) == (
        "<model>: error: ONNX shape inference fails on the model:\n"
        "  node 'relu' (Relu): Inferred shape and existing shape differ in dimension 0: (2) vs (1)")


def test_graph_output_without_a_shape() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [value("x", [2])],
                       [helper.make_tensor_value_info("y", FLOAT, None)])
    assert import_error(model).startswith(
        "<model>: error: the model is not valid ONNX (onnx.checker): graph output 'y' declares "
        "no shape (an empty shape is a scalar)")


def test_graph_output_no_node_computes() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [value("x", [2])],
                       [value("y", [2]), value("z", [2])])
    assert import_error(model) == (
        "<model>: error: the model is not valid ONNX (onnx.checker): Graph output 'z' is not an "
        "output of any node in graph.")


def test_initializer_of_an_unsupported_element_type() -> None:
    weights = helper.make_tensor("w", TensorProto.BFLOAT16, [2], [1.0, 2.0])
    model = make_model([helper.make_node("Cast", ["w"], ["wf"], to=FLOAT, name="cast"),
                        helper.make_node("Add", ["x", "wf"], ["y"], name="add")],
                       [value("x", [2])], [value("y", [2])], [weights])
    assert import_error(model) == "<model>: error: initializer 'w': element type BFLOAT16 is not supported"


def test_input_of_an_unsupported_element_type() -> None:
    model = make_model([helper.make_node("Cast", ["x"], ["y"], to=FLOAT, name="cast")],
                       [value("x", [2], TensorProto.BFLOAT16)], [value("y", [2])])
    assert import_error(model) == "<model>: error: input 'x': element type BFLOAT16 is not supported"
