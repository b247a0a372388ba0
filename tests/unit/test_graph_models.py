"""The acceptance networks of mlc.graph.examples: each builds, verifies, has the
topology its docstring states (op counts by name, operand order where fusion relies
on it, weight counts), prints and parses back, and runs on the interpreter to finite
values of order one. Their parameters are checked by name and value, and every op is
located at the name of its layer, which remarks and kernels keep."""

from __future__ import annotations

import inspect
import math
from collections import Counter

import numpy as np
import pytest

from mlc.graph import GraphBuilder, evaluate
from mlc.graph.examples import (
    EXAMPLES,
    Example,
    NetworkParameterError,
    deep_convnet,
    mlp,
    mobilenet_v2_blocks,
    resnet18,
    transformer_encoder,
    tutorial_program,
)
from mlc.ir import Context, NameLoc, PrintOptions, parse_module, print_op, unknown_loc, verify
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins

# Op counts by name in @main, constants and the return left out.
TUTORIAL_OPS = {"graph.conv2d": 1, "graph.add": 5, "graph.multiply": 1}
MLP_OPS = {"graph.dense": 2, "graph.bias_add": 2, "graph.relu": 1}
RESNET18_OPS = {"graph.conv2d": 20, "graph.batch_norm": 20, "graph.relu": 17, "graph.add": 8,
                "graph.max_pool2d": 1, "graph.global_avg_pool2d": 1, "graph.flatten": 1,
                "graph.dense": 1, "graph.bias_add": 1}
MOBILENET_V2_OPS = {"graph.conv2d": 31, "graph.batch_norm": 31, "graph.clip": 21, "graph.add": 6,
                    "graph.global_avg_pool2d": 1, "graph.flatten": 1, "graph.dense": 1,
                    "graph.bias_add": 1}
TRANSFORMER_OPS = {"graph.dense": 6, "graph.bias_add": 6, "graph.reshape": 8, "graph.transpose": 4,
                   "graph.batch_matmul": 2, "graph.divide": 2, "graph.softmax": 1, "graph.erf": 1,
                   "graph.add": 3, "graph.multiply": 2, "graph.layer_norm": 2}

# torchvision's `sum(p.numel() for p in resnet18().parameters())`.
RESNET18_TRAINABLE_WEIGHTS = 11_689_512


def body(example: Example) -> list:
    return [op for op in example.main.entry_block.ops() if op.name != "func.return"]


def op_counts(example: Example) -> Counter:
    return Counter(op.name for op in body(example) if op.name != "graph.constant")


def constants(example: Example) -> list:
    return [op for op in body(example) if op.name == "graph.constant"]


def defining_name(value) -> str | None:
    return value.defining_op.name if value.defining_op is not None else None


def conv_kernel(batch_norm_result) -> tuple[int, ...]:
    """The kernel size of the conv2d whose output the batch norm producing
    `batch_norm_result` normalises."""
    conv = batch_norm_result.defining_op.operands[0].defining_op
    assert conv.name == "graph.conv2d"
    return conv.operands[1].type.shape[2:]


def result_shapes(example: Example) -> list[tuple[int, ...]]:
    return [t.shape for t in example.main.type.results]


def assert_order_one(outputs: list[np.ndarray]) -> None:
    for out in outputs:
        assert np.isfinite(out).all()
        assert 1e-2 < float(np.std(out)) < 1e2, f"activations of scale {np.std(out)}"


@pytest.fixture(scope="module")
def tutorial() -> Example:
    return tutorial_program()


@pytest.fixture(scope="module")
def small_mlp() -> Example:
    return mlp()


@pytest.fixture(scope="module")
def resnet() -> Example:
    return resnet18(image_size=64)


@pytest.fixture(scope="module")
def mobilenet() -> Example:
    return mobilenet_v2_blocks(image_size=32)


@pytest.fixture(scope="module")
def transformer() -> Example:
    return transformer_encoder()


# ------------------------------------------------------------------ topology


def test_tutorial_program_is_the_tvm_tutorial(tutorial: Example) -> None:
    verify(tutorial.module)
    assert op_counts(tutorial) == TUTORIAL_OPS
    x, weight = tutorial.main.entry_block.args
    assert (x.name_hint, x.type.shape) == ("x", (1, 64, 56, 56))
    assert (weight.name_hint, weight.type.shape) == ("weight", (64, 64, 3, 3))
    c, two = constants(tutorial)
    assert c.result.type.shape == (1, 64, 54, 54)
    assert two.result.type.shape == () and float(two.value.array) == 2.0
    conv, add_cc, multiply, add_y, add_z, add_z1, add_z2 = [o for o in body(tutorial)
                                                            if o.name != "graph.constant"]
    assert list(add_cc.operands) == [c.result, c.result]
    assert list(multiply.operands) == [add_cc.result, two.result]
    assert list(add_y.operands) == [conv.result, multiply.result]
    # z and z1 are the same expression, kept apart for CSE to merge.
    assert list(add_z.operands) == list(add_z1.operands) == [add_y.result, c.result]
    assert list(add_z2.operands) == [add_z.result, add_z1.result]
    assert result_shapes(tutorial) == [(1, 64, 54, 54)]


def test_mlp_topology(small_mlp: Example) -> None:
    verify(small_mlp.module)
    assert op_counts(small_mlp) == MLP_OPS
    assert [a.type.shape for a in small_mlp.main.entry_block.args] == [(1, 784)]
    assert sorted(c.result.type.shape for c in constants(small_mlp)) == [(10,), (10, 128), (128,),
                                                                          (128, 784)]
    assert result_shapes(small_mlp) == [(1, 10)]


def test_resnet18_topology(resnet: Example) -> None:
    verify(resnet.module)
    assert op_counts(resnet) == RESNET18_OPS
    ops = body(resnet)
    for op in ops:
        if op.name == "graph.conv2d":
            assert [user.name for user in op.result.users] == ["graph.batch_norm"]
    # Every residual add takes the main branch (bn of a 3x3 conv) first and the
    # shortcut (the block input, or bn of the 1x1 downsample conv) second.
    adds = [op for op in ops if op.name == "graph.add"]
    for add in adds:
        main, shortcut = add.operands
        assert defining_name(main) == "graph.batch_norm"
        assert conv_kernel(main) == (3, 3)
        if defining_name(shortcut) == "graph.batch_norm":
            assert conv_kernel(shortcut) == (1, 1)
        else:
            assert defining_name(shortcut) in ("graph.relu", "graph.max_pool2d")
    assert sum(defining_name(add.operands[1]) == "graph.batch_norm" for add in adds) == 3
    assert result_shapes(resnet) == [(1, 1000)]


def test_resnet18_weight_count(resnet: Example) -> None:
    total = sum(c.result.type.num_elements for c in constants(resnet))
    running_stats = sum(op.operands[i].type.num_elements
                        for op in body(resnet) if op.name == "graph.batch_norm" for i in (3, 4))
    assert running_stats == 2 * 4800
    assert total - running_stats == RESNET18_TRAINABLE_WEIGHTS


def test_resnet18_smallest_image() -> None:
    small = resnet18(image_size=32)
    verify(small.module)
    pooled = next(op for op in body(small) if op.name == "graph.global_avg_pool2d")
    assert pooled.operands[0].type.shape == (1, 512, 1, 1)
    assert result_shapes(small) == [(1, 1000)]


def test_mobilenet_v2_blocks_topology(mobilenet: Example) -> None:
    verify(mobilenet.module)
    assert op_counts(mobilenet) == MOBILENET_V2_OPS
    convs = [op for op in body(mobilenet) if op.name == "graph.conv2d"]
    depthwise = [op for op in convs if op.values["groups"] > 1]
    assert len(depthwise) == 10
    assert all(op.values["groups"] == op.result.type.shape[1] for op in depthwise)
    assert [op.result.type.shape[1] for op in convs][-1] == 1280
    for add in (op for op in body(mobilenet) if op.name == "graph.add"):
        assert defining_name(add.operands[0]) == "graph.batch_norm"
    assert result_shapes(mobilenet) == [(1, 1000)]


def test_transformer_encoder_topology(transformer: Example) -> None:
    verify(transformer.module)
    assert op_counts(transformer) == TRANSFORMER_OPS
    assert sum(op_counts(transformer).values()) == 37
    scalars = sorted(float(c.value.array) for c in constants(transformer)
                     if c.result.type.shape == ())
    assert scalars == pytest.approx([0.5, 1.0, math.sqrt(2.0), 8.0])
    matmuls = [op for op in body(transformer) if op.name == "graph.batch_matmul"]
    assert [op.result.type.shape for op in matmuls] == [(4, 128, 128), (4, 128, 64)]
    assert result_shapes(transformer) == [(1, 128, 256)]


def test_deep_convnet_grows_linearly() -> None:
    for blocks in (1, 4):
        net = deep_convnet(blocks=blocks, width=16, image_size=8)
        verify(net.module)
        assert op_counts(net) == {"graph.conv2d": 2 * blocks, "graph.batch_norm": 2 * blocks,
                                  "graph.relu": 2 * blocks, "graph.add": blocks}
        assert len(constants(net)) == 10 * blocks
        assert result_shapes(net) == [(1, 16, 8, 8)]


def test_examples_registry() -> None:
    assert {"tutorial", "mlp", "resnet18", "mobilenet_v2", "transformer"} <= set(EXAMPLES)
    for name, build in EXAMPLES.items():
        assert build.__doc__
        example = build()
        assert example.name == name
        assert set(example.inputs()) == {a.name_hint for a in example.main.entry_block.args}


def test_same_seed_same_weights() -> None:
    first, again, other = mlp(seed=3), mlp(seed=3), mlp(seed=4)
    assert all(a.value == b.value for a, b in zip(constants(first), constants(again)))
    assert constants(first)[0].value != constants(other)[0].value


# ------------------------------------------------------------------ text


@pytest.mark.parametrize("options", [
    # Exact either way; decimal spelling of 100k floats takes seconds to print and parse.
    pytest.param(PrintOptions(), id="decimal", marks=pytest.mark.slow),
    pytest.param(PrintOptions(hex_if_larger=16), id="hex"),
])
def test_mlp_text_round_trip(small_mlp: Example, options: PrintOptions) -> None:
    text = print_op(small_mlp.module, options)
    parsed = parse_module(text, Context())
    verify(parsed)
    assert print_op(parsed, options) == text


def test_tutorial_text_round_trip(tutorial: Example) -> None:
    options = PrintOptions(hex_if_larger=16)
    text = print_op(tutorial.module, options)
    assert "%c = graph.constant" in text
    parsed = parse_module(text, Context())
    assert print_op(parsed, options) == text


@pytest.mark.parametrize("name", ["resnet", "mobilenet", "transformer"])
def test_large_model_text_round_trip_with_elided_weights(name: str, request) -> None:
    example: Example = request.getfixturevalue(name)
    options = PrintOptions(elide_large_elements=16)
    text = print_op(example.module, options)
    parsed = parse_module(text, Context())
    verify(parsed)
    assert print_op(parsed, options) == text


# ------------------------------------------------------------------ evaluation


def test_mlp_evaluates_as_numpy(small_mlp: Example) -> None:
    inputs = small_mlp.inputs()
    [out] = evaluate(small_mlp.module, inputs)
    w1, b1, w2, b2 = (c.value.array for c in constants(small_mlp))
    expected = np.maximum(inputs["x"] @ w1.T + b1, 0) @ w2.T + b2
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)
    assert_order_one([out])


def test_tutorial_evaluates(tutorial: Example) -> None:
    [out] = evaluate(tutorial.module, tutorial.inputs())
    assert out.shape == (1, 64, 54, 54)
    assert_order_one([out])


def test_resnet18_evaluates(resnet: Example) -> None:
    [out] = evaluate(resnet.module, resnet.inputs())
    assert out.shape == (1, 1000)
    assert_order_one([out])


def test_mobilenet_v2_blocks_evaluate(mobilenet: Example) -> None:
    [out] = evaluate(mobilenet.module, mobilenet.inputs())
    assert out.shape == (1, 1000)
    assert_order_one([out])


def test_transformer_encoder_evaluates(transformer: Example) -> None:
    [out] = evaluate(transformer.module, transformer.inputs())
    assert out.shape == (1, 128, 256)
    assert_order_one([out])


def test_deep_convnet_stays_of_order_one() -> None:
    net = deep_convnet(blocks=16, width=16, image_size=8)
    assert_order_one(evaluate(net.module, net.inputs()))


@pytest.mark.slow
@pytest.mark.parametrize("build", [resnet18, mobilenet_v2_blocks], ids=["resnet18", "mobilenet_v2"])
def test_full_size_models_evaluate(build) -> None:
    example = build()
    verify(example.module)
    [out] = evaluate(example.module, example.inputs())
    assert out.shape == (1, 1000)
    assert_order_one([out])


# ------------------------------------------------------------------ parameters


def test_every_network_declares_its_builders_parameters() -> None:
    for name, network in EXAMPLES.items():
        signature = inspect.signature(network.build)
        assert [p.name for p in network.parameters] == list(signature.parameters), name
        assert [p.default for p in network.parameters] == \
            [p.default for p in signature.parameters.values()], name
        assert all(p.doc and p.minimum >= 0 for p in network.parameters), name
        assert network.summary == network.build.__doc__.strip().splitlines()[0]


def test_parameters_set_the_network() -> None:
    net = EXAMPLES["deep_convnet"](blocks=3, width=4, image_size=5)
    assert net.parameters == {"blocks": 3, "width": 4, "image_size": 5, "seed": 0}
    assert op_counts(net)["graph.conv2d"] == 6
    assert [a.type.shape for a in net.main.entry_block.args] == [(1, 4, 5, 5)]
    small = mlp(in_features=12, hidden=7, num_classes=3)
    assert sorted(c.result.type.shape for c in constants(small)) == [(3,), (3, 7), (7,), (7, 12)]
    assert result_shapes(small) == [(1, 3)]
    # Calling the function and calling the registry entry are the same thing.
    assert EXAMPLES["resnet18"] is resnet18
    assert resnet18(image_size=8).parameters == {"image_size": 8, "num_classes": 1000, "seed": 0}


@pytest.mark.parametrize("call, message", [
    (lambda: deep_convnet(blocks=0), "network 'deep_convnet': blocks must be at least 1, got 0"),
    (lambda: deep_convnet(depth=3), "network 'deep_convnet' has no parameter 'depth'; its "
                                    "parameters: blocks, width, image_size, seed"),
    (lambda: deep_convnet(blocks="3"), "network 'deep_convnet': blocks must be an integer, got '3'"),
    (lambda: deep_convnet(blocks=2.5), "network 'deep_convnet': blocks must be an integer, got 2.5"),
    (lambda: deep_convnet(blocks=True), "network 'deep_convnet': blocks must be an integer, got True"),
    (lambda: mlp(seed=-1), "network 'mlp': seed must be at least 0, got -1"),
    (lambda: transformer_encoder(hidden=10, heads=4),
     "network 'transformer': hidden (10) must be a multiple of heads (4)"),
])
def test_bad_parameters_are_refused_by_name(call, message) -> None:
    with pytest.raises(NetworkParameterError) as caught:
        call()
    assert str(caught.value) == message


# ------------------------------------------------------------------ locations


def name_of(op_or_loc) -> str | None:
    """The name of an op's (or a location's) NameLoc."""
    loc = getattr(op_or_loc, "loc", op_or_loc)
    return loc.name if isinstance(loc, NameLoc) else None


@pytest.mark.parametrize("build", [
    tutorial_program, mlp, lambda: resnet18(image_size=32), lambda: mobilenet_v2_blocks(image_size=32),
    lambda: transformer_encoder(seq=8, hidden=16, heads=2, ffn=32), lambda: deep_convnet(blocks=2),
], ids=["tutorial", "mlp", "resnet18", "mobilenet_v2", "transformer", "deep_convnet"])
def test_every_op_is_located_at_its_layer(build) -> None:
    example = build()
    for op in body(example):
        assert name_of(op), f"{op.name} has location {op.loc}"
        # A weight is named after the layer that reads it: `<layer>.weight`.
        for operand in op.operands:
            producer = operand.defining_op
            if producer is not None and producer.name == "graph.constant" and \
                    name_of(producer).endswith((".weight", ".bias")) and op.name != "graph.constant":
                assert name_of(producer).rsplit(".", 1)[0] == name_of(op)


def test_layer_names_follow_torch() -> None:
    names = [(name_of(op), op.name) for op in body(resnet18(image_size=32))
             if op.name != "graph.constant"]
    assert names[:4] == [("conv1", "graph.conv2d"), ("bn1", "graph.batch_norm"),
                         ("relu", "graph.relu"), ("maxpool", "graph.max_pool2d")]
    assert names[4:11] == [("layer1.0.conv1", "graph.conv2d"), ("layer1.0.bn1", "graph.batch_norm"),
                           ("layer1.0.relu", "graph.relu"), ("layer1.0.conv2", "graph.conv2d"),
                           ("layer1.0.bn2", "graph.batch_norm"), ("layer1.0.add", "graph.add"),
                           ("layer1.0.relu_1", "graph.relu")]
    assert ("layer2.0.downsample.0", "graph.conv2d") in names
    assert names[-4:] == [("avgpool", "graph.global_avg_pool2d"), ("flatten", "graph.flatten"),
                          ("fc", "graph.dense"), ("fc", "graph.bias_add")]
    mobilenet = {name_of(op): op.name for op in body(mobilenet_v2_blocks(image_size=32))}
    assert mobilenet["features.2.conv.0.2"] == "graph.clip"       # expansion's ReLU6
    assert mobilenet["features.2.conv.1.0"] == "graph.conv2d"     # depthwise
    assert mobilenet["features.3.add"] == "graph.add"
    transformer = {name_of(op): op.name for op in body(transformer_encoder(seq=8, hidden=16,
                                                                           heads=2, ffn=32))}
    assert transformer["attention.softmax"] == "graph.softmax"
    assert transformer["output.layer_norm"] == "graph.layer_norm"


def test_locations_survive_the_pipeline_into_kernels() -> None:
    example = mlp()
    load_pass_plugins()
    with PassContext(opt_level=3):
        assert run_pipeline(example.module, "graph-optimize").success
    kernels = {op.sym_name.value: op for op in example.module.regions[0].ops()
               if op.name == "func.func" and op.sym_name.value != "main"}
    first = [(name_of(op), op.name) for op in kernels["fused_dense_bias_add_relu"].entry_block.ops()]
    assert first == [("fc1", "graph.dense"), ("fc1", "graph.bias_add"), ("relu", "graph.relu"),
                     (None, "func.return")]


def test_fusion_remarks_name_the_layer() -> None:
    example = transformer_encoder(seq=8, hidden=16, heads=2, ffn=32)
    load_pass_plugins()
    with PassContext(opt_level=3, config={"graph.fuse-ops.remarks": True}):
        result = run_pipeline(example.module, "graph-fuse-ops")
    remarks = {(name_of(d.loc), d.message.split(": ", 2)[-1]) for d in result.diagnostics}
    assert ("attention.softmax", "'graph.softmax' not fused: it is opaque: opaque ops are "
                                 "never fused") in remarks
    assert all(name for name, _ in remarks)


def test_builder_layers() -> None:
    b = GraphBuilder()
    x = b.param("x", (2,))
    with b.layer("outer"):
        a = b.relu(x)
        with b.layer("inner"):
            c = b.relu(a)
        d = b.relu(c)
        e = b.relu(d, name="own")
        f = b.relu(e, loc=NameLoc("given"))
    g = b.relu(f)
    assert [name_of(v.defining_op) for v in (a, c, d, e, f)] == ["outer", "inner", "outer", "own",
                                                                   "given"]
    assert g.defining_op.loc == unknown_loc
