"""graph-lower-to-loop: fused graph functions become loop kernels, `main` buffers and
calls; the lowered module, run by the interpreter, computes what the graph
interpreter computes (the oracle), and bad input is a diagnostic.

Tolerance: kernels compute in float32, sums and products of convolutions, dense
layers and pools accumulated in float32 too, where the graph reference rounds each
op's float64 result once, so results agree to float32 rounding over these small
networks' short reductions (at most a few hundred terms of magnitude about 1): rtol
1e-5, atol 1e-6 times the output's largest magnitude (at least 1)."""

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.graph import evaluate as graph_evaluate
from mlc.graph.dialect import graph
from mlc.graph.examples import EXAMPLES
from mlc.graph.fusion.outline import is_primitive
from mlc.graph.op_base import GraphOp
from mlc.ir import Context, PrintOptions, f32, parse_module, print_op, verify
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.passes.registry import load_pass_plugins
from mlc.loop.kernels import group_kernel, group_structure

load_pass_plugins()

RTOL, ATOL = 1e-5, 1e-6


def functions(module):
    return {op.sym_name.value: op for op in module.regions[0].ops()}


def lower(module, pipeline="graph-optimize,graph-lower-to-loop"):
    with PassContext(opt_level=3):
        result = run_pipeline(module, pipeline)
    return result


def run_lowered(module, inputs, result_types):
    """Run the lowered @main on `inputs`; its outputs (written into fresh buffers)."""
    outputs = [np.zeros(t.shape, np.float32 if str(t.element_type) == "f32" else None)
               for t in result_types]
    evaluate(module, "main", [*inputs, *outputs])
    return outputs


def check_lowering(module, inputs, pipeline="graph-optimize,graph-lower-to-loop"):
    """Lower `module`, round-trip it through text, run it; compare with the graph
    interpreter on the module as it was. The lowered module."""
    expected = graph_evaluate(module, inputs)
    result_types = functions(module)["main"].type.results
    result = lower(module, pipeline)
    assert result.success, "\n".join(str(d) for d in result.diagnostics)
    verify(module)
    text = print_op(module)
    assert "graph." not in text.replace("graph.primitive", "")
    reparsed = parse_module(text, Context())
    verify(reparsed)
    assert print_op(reparsed) == text
    got = run_lowered(reparsed, inputs, result_types)
    for e, g in zip(expected, got):
        scale = max(1.0, float(np.max(np.abs(e))))
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL * scale)
    return module


def calls_in_main(module):
    return [op for op in functions(module)["main"].entry_block.ops() if op.name == "func.call"]


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_mlp_lowers_to_the_courses_structure_and_computes_the_same():
    net = EXAMPLES["mlp"](in_features=20, hidden=12, num_classes=5)
    module = check_lowering(net.module, [rand(1, 20)])
    kernels = functions(module)
    assert sorted(kernels) == ["fused_dense_bias_add", "fused_dense_bias_add_relu", "main"]
    main = kernels["main"]
    assert [str(t) for t in main.type.inputs] == ["memref<1x20xf32>", "memref<1x5xf32>"]
    assert main.type.results == ()
    ops = [op.name for op in main.entry_block.ops()]
    assert ops == ["loop.constant"] * 4 + ["loop.alloc_buffer", "func.call", "func.call",
                                            "func.return"]
    # The second call writes straight into @main's output buffer.
    assert calls_in_main(module)[-1].operands[-1] is main.entry_block.args[-1]
    # mm_relu's structure: the reduction into an intermediate buffer, the epilogue
    # (bias add and relu, inlined into one block) after it.
    kernel = print_op(kernels["fused_dense_bias_add_relu"])
    assert "%T_dense = loop.alloc_buffer : memref<1x12xf32>" in kernel
    blocks = [op.attributes["block_name"].value
              for op in kernels["fused_dense_bias_add_relu"].walk() if op.name == "loop.block"]
    assert blocks == ["T_dense", "T_relu"]
    assert "arith.maximumf" in kernel and "T_bias_add" not in kernel


def test_small_resnet_blocks_compute_the_same_and_share_kernels():
    net = EXAMPLES["deep_convnet"](blocks=2, width=2, image_size=4)
    module = net.module
    main_type = functions(module)["main"].type
    inputs = [rand(*t.shape, seed=n) for n, t in enumerate(main_type.inputs)]
    module = check_lowering(module, inputs)
    kernels = [f for name, f in functions(module).items() if name != "main"]
    # Two BasicBlocks of the same shapes: four calls into two kernels.
    assert len(calls_in_main(module)) == 4 and len(kernels) == 2


def test_structurally_identical_kernels_are_lowered_once():
    module = EXAMPLES["deep_convnet"](blocks=6, width=2, image_size=3).module
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize,graph-lower-to-loop")
    assert result.success
    names = [op.callee.leaf for op in calls_in_main(module)]
    assert len(names) == 12 and sorted(set(names)) == ["fused_conv2d_add_add_relu",
                                                         "fused_conv2d_add_relu"]
    verify(module)


def primitive_structures(name, **params):
    module = EXAMPLES[name](**params).module
    with PassContext(opt_level=3):
        run_pipeline(module, "graph-optimize")
    primitives = [f for f in module.regions[0].ops() if is_primitive(f)]
    return len(primitives), {group_structure(list(f.entry_block.args),
                                             list(f.entry_block.ops())[:-1],
                                             list(f.entry_block.terminator.operands))
                             for f in primitives}


def test_resnet18_calls_fewer_distinct_kernels_than_it_has_calls():
    # The cache key of the pass: layer1's and each later stage's repeated blocks
    # share kernels; shapes differ from stage to stage.
    calls, distinct = primitive_structures("resnet18", image_size=32)
    assert (calls, len(distinct)) == (24, 19)


def test_the_structure_ignores_names_and_locations_but_not_attributes():
    def group(alpha, name):
        b = GraphBuilder()
        with b.layer(name):
            y = b.leaky_relu(b.param("x", (2, 2)), alpha=alpha)
        module = b.module(y)
        fn = functions(module)["main"]
        return group_structure(list(fn.entry_block.args), list(fn.entry_block.ops())[:-1],
                               list(fn.entry_block.terminator.operands))

    assert group(0.1, "a") == group(0.1, "b")
    assert group(0.1, "a") != group(0.2, "a")


@pytest.mark.parametrize("name, params", [
    ("resnet18", {"image_size": 32}), ("mobilenet_v2", {"image_size": 32}),
    ("transformer", {"seq": 4, "hidden": 8, "heads": 2, "ffn": 8}),
    ("tutorial", {}),
])
def test_networks_lower_as_far_as_compute_rules_exist(name, params):
    # The interpreter is too slow to run these networks' fixed widths; they are
    # lowered and verified, or, while some of their ops have no compute rule yet, the
    # pass names exactly those ops and leaves the module as it was.
    module = EXAMPLES[name](**params).module
    with PassContext(opt_level=3):
        assert run_pipeline(module, "graph-optimize").success
    missing = sorted({op.name for op in module.walk() if isinstance(op, GraphOp)
                      and op.name != "graph.constant" and type(op).compute is None})
    before = print_op(module)
    primitives = sum(1 for f in module.regions[0].ops() if is_primitive(f))
    result = lower(module, "graph-lower-to-loop")
    if missing:
        assert not result.success
        [error] = result.diagnostics
        listed = error.message.split("ops without one: ")[1]
        assert sorted(part.split("'")[1] for part in listed.split(", ")) == missing
        assert print_op(module) == before
    else:
        assert result.success
        verify(module)
        assert len(calls_in_main(module)) == primitives


def test_values_handed_back_as_they_are_are_copied_into_the_outputs():
    b = GraphBuilder()
    x = b.param("x", (2, 3))
    c = b.const(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = b.relu(x)
    module = b.module(x, c, y, y)
    module = check_lowering(module, [rand(2, 3)])
    names = [op.callee.leaf for op in calls_in_main(module)]
    assert names == ["fused_relu", "copy", "copy", "copy"]


def test_without_fusion_each_op_is_its_own_kernel():
    b = GraphBuilder()
    x = b.param("x", (3, 4))
    y = b.add(b.exp(x), b.const(np.ones(4, np.float32)))
    module = b.module(b.multiply(y, y))
    module = check_lowering(module, [rand(3, 4)], pipeline="graph-lower-to-loop")
    assert [op.callee.leaf for op in calls_in_main(module)] == ["exp", "add", "multiply"]


def test_ops_without_compute_rules_are_all_named_and_nothing_changes(monkeypatch):
    # Two op kinds without a rule (taken away for the test: every op will have one).
    monkeypatch.setattr(graph.ops["graph.exp"], "compute", None)
    monkeypatch.setattr(graph.ops["graph.tanh"], "compute", None)
    b = GraphBuilder()
    x = b.param("x", (2, 3))
    with b.layer("first"):
        e = b.exp(b.relu(x))
    with b.layer("second"):
        t = b.tanh(e)
    with b.layer("third"):
        e2 = b.exp(b.neg(t))
    module = b.module(e2)
    assert lower(module, "graph-optimize").success
    before = print_op(module)
    result = lower(module, "graph-lower-to-loop")
    assert not result.success
    [error] = result.diagnostics
    assert error.message == ("graph-lower-to-loop: 'graph.exp' has no compute rule, so it "
                             "cannot be lowered to loops; ops without one: 'graph.exp' (2 ops), "
                             "'graph.tanh' (1 op)")
    assert str(error.loc) == 'loc("first")'
    [note] = error.notes
    assert note.message == "'graph.tanh' has no compute rule" and str(note.loc) == 'loc("second")'
    assert print_op(module) == before


def test_a_rule_refusing_its_operands_is_a_diagnostic_at_the_op(monkeypatch):
    # No rule refuses operands its op's verifier accepts; one is made to, for the test.
    def refusing(te, attrs, a, b):
        raise te.TEError("integer powers have no compute rule yet")

    monkeypatch.setattr(graph.ops["graph.power"], "compute", staticmethod(refusing))
    module = parse_module("""
    func.func @main(%x: tensor<3xi32>, %y: tensor<3xi32>) -> tensor<3xi32> {
      %0 = graph.power %x, %y : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32> loc("pow")
      return %0 : tensor<3xi32>
    }""", Context())
    result = lower(module)
    assert not result.success
    [error] = result.diagnostics
    assert "integer powers have no compute rule yet" in error.message
    assert str(error.loc) == 'loc("pow")'


def test_signed_tensors_are_refused_with_a_diagnostic():
    module = parse_module("""
    func.func @main(%x: tensor<3xsi8>) -> tensor<3xsi8> {
      %0 = graph.relu %x : tensor<3xsi8>
      return %0 : tensor<3xsi8>
    }""", Context())
    result = lower(module, "graph-lower-to-loop")
    assert not result.success
    assert "kernels compute on floats, signless and unsigned integers" in \
        result.diagnostics[0].message


# A primitive function, a constant, a copy and a loose op that lowers, then a loose op
# whose kernel cannot be built: the failure comes in the middle of the conversion, after
# @main's signature, its constant, calls and a kernel of its own were rewritten.
FAILING_LATE = """
func.func @main(%x: tensor<3xf32>, %e: tensor<0x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = graph.constant dense<1.0> : tensor<3xf32>
  %0 = call @fused_exp(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.neg %0 : tensor<3xf32>
  %2 = graph.sum %e {axes = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32> loc("sum")
  return %1, %2, %c : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
func.func private @fused_exp(%p0: tensor<3xf32>) -> tensor<3xf32> attributes {graph.primitive} {
  %0 = graph.exp %p0 : tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""


def test_a_kernel_failing_mid_conversion_leaves_the_very_same_module():
    module = parse_module(FAILING_LATE, Context())
    before = print_op(module, PrintOptions(debuginfo=True))
    ops_before = list(module.walk())
    args_before = [list(f.entry_block.args) for f in functions(module).values()]
    result = lower(module, "graph-lower-to-loop")
    assert not result.success
    [error] = result.diagnostics
    assert error.message.startswith("graph-lower-to-loop: 'graph.sum' computes the non-empty "
                                    "tensor<3xf32> from the empty tensor<0x3xf32>")
    assert str(error.loc) == 'loc("sum")'
    # Rolled back by the driver: the same text, the same op and argument objects.
    assert print_op(module, PrintOptions(debuginfo=True)) == before
    after = list(module.walk())
    assert len(after) == len(ops_before) and all(a is b for a, b in zip(after, ops_before))
    assert [list(f.entry_block.args) for f in functions(module).values()] == args_before
    # Without the failing op it lowers: the loose op's and the copy's kernels before
    # @main, the primitive function's kernel in its place.
    fixed = parse_module(FAILING_LATE.replace(
        '%2 = graph.sum %e {axes = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32> loc("sum")',
        "%2 = graph.exp %x : tensor<3xf32>"), Context())
    x = rand(3)
    module = check_lowering(fixed, [x, np.zeros((0, 3), np.float32)], "graph-lower-to-loop")
    assert [op.callee.leaf for op in calls_in_main(module)] == [
        "fused_exp", "neg", "fused_exp", "copy"]
    assert list(functions(module)) == ["neg", "copy", "main", "fused_exp"]


def test_extern_declarations_go_where_the_kernels_of_loose_ops_go():
    # Declarations first, before the first caller, then the kernels the callers need
    # beyond the primitive functions', in the order they were made; without callers,
    # the declarations go at the end of the module.
    module = parse_module(FAILING_LATE.replace(
        '%2 = graph.sum %e {axes = array<i64: 0>} : tensor<0x3xf32> -> tensor<3xf32> loc("sum")',
        "%2 = graph.exp %x : tensor<3xf32>"), Context())
    assert lower(module, "graph-lower-to-loop{extern=fused_exp:env.exp}").success
    assert list(functions(module)) == ["env.exp", "neg", "exp", "copy", "main"]
    assert [op.callee.leaf for op in calls_in_main(module)] == [
        "env.exp", "neg", "exp", "copy"]
    alone = parse_module(FAILING_LATE[FAILING_LATE.index("func.func private"):], Context())
    assert lower(alone, "graph-lower-to-loop{extern=fused_exp:env.exp}").success
    assert list(functions(alone)) == ["env.exp"]


# ------------------------------------------------------------------ injective ops fused


def test_a_transformer_lowers_and_computes_the_same():
    # Attention's head split and merge (reshape, transpose, reshape) fuse into copy
    # kernels of one block each, their indices composed.
    net = EXAMPLES["transformer"](seq=4, hidden=8, heads=2, ffn=8)
    module = check_lowering(net.module, [rand(1, 4, 8)])
    heads = [f for name, f in functions(module).items() if name.startswith("fused_reshape")]
    assert heads
    for kernel in heads:
        assert sum(op.name == "loop.block" for op in kernel.walk()) == 1
        assert not any(op.name == "loop.alloc_buffer" for op in kernel.walk())


def test_an_embedding_lookup_lowers_with_a_data_dependent_load():
    b = GraphBuilder()
    ids = b.param("ids", (2, 3), "int64")
    table = b.const(rand(7, 4, seed=3))
    position = b.const(rand(3, 4, seed=4))
    y = b.relu(b.add(b.gather(table, ids, axis=0), position))
    module = check_lowering(b.module(y), [np.array([[0, 6, -1], [3, 3, -7]], np.int64)])
    [kernel] = [f for name, f in functions(module).items() if name != "main"]
    text = print_op(kernel)
    assert "%p0[?, %vi2]" in text and "arith.index_cast" in text
    assert sum(op.name == "loop.block" for op in kernel.walk()) == 1


# Each op with operands (shape, element type), attributes: it is fused between a relu
# of each float operand and a neg of each result.
INJECTIVE_GROUPS = [
    ("reshape", [((2, 3, 4), "float32")], dict(shape=(4, 6))),
    ("flatten", [((2, 3, 2), "float32")], dict(axis=2)),
    ("transpose", [((2, 3, 4), "float32")], dict(axes=(1, -1, 0))),
    ("squeeze", [((2, 1, 3), "float32")], dict(axes=(1,))),
    ("expand_dims", [((2, 3), "float32")], dict(axis=1, num_newaxis=2)),
    ("broadcast_to", [((3, 1), "float32")], dict(shape=(2, 3, 4))),
    ("tile", [((2, 3), "float32")], dict(repeats=(2, 1, 2))),
    ("pad", [((2, 3), "float32")], dict(pads=(1, 0, 0, 2), value=-1.0)),
    ("slice", [((4, 5), "float32")], dict(starts=(3, 1), ends=(-100, 5), steps=(-2, 2))),
    ("layout_transform", [((1, 4, 2, 2), "float32")], dict(src_layout="NCHW", dst_layout="NCHW2c")),
    ("concat", [((2, 1), "float32"), ((2, 3), "float32")], dict(axis=1)),
    ("split", [((2, 5), "float32")], dict(sections=(2, 3), axis=1)),
    ("gather", [((5, 3), "float32"), ((2, 2), "int32")], dict(axis=0)),
    ("gather_elements", [((3, 4), "float32"), ((3, 2), "int64")], dict(axis=1)),
    ("gather_nd", [((3, 4), "float32"), ((2, 2), "int64")], dict()),
    ("one_hot", [((2, 3), "int64")], dict(depth=4, on_value=1.0, off_value=0.0, dtype=f32)),
]


@pytest.mark.parametrize("name, operands, attrs", INJECTIVE_GROUPS,
                         ids=[case[0] for case in INJECTIVE_GROUPS])
def test_an_injective_op_is_inlined_between_elementwise_ops(name, operands, attrs):
    b = GraphBuilder()
    params = [b.param(f"p{n}", shape, dtype) for n, (shape, dtype) in enumerate(operands)]
    inputs = [b.relu(p) if dtype == "float32" else p for p, (_, dtype) in zip(params, operands)]
    results = b.op(name, inputs, **attrs) if name == "concat" else b.op(name, *inputs, **attrs)
    results = results if isinstance(results, list) else [results]
    module = b.module(*[b.neg(r) for r in results])
    rng = np.random.default_rng(5)
    arrays = []
    for shape, dtype in operands:
        if dtype == "float32":
            arrays.append(rng.standard_normal(shape).astype(np.float32))
        else:  # indices valid for every case above: in [-2, 2)
            arrays.append(rng.integers(-2, 2, shape).astype(dtype))
    main = functions(module)["main"]
    expected = graph_evaluate(module, arrays)
    kernel = group_kernel("fused", list(main.entry_block.args),
                          list(main.entry_block.ops())[:-1],
                          list(main.entry_block.terminator.operands))
    # One block per result: relu, the op and neg inlined into each other. But pad
    # reads relu with padding, which inlining cannot compose (outside, the result is
    # the pad value, not relu of it): relu keeps its block and buffer.
    blocks = [op for op in kernel.walk() if op.name == "loop.block"]
    kept = 1 if name == "pad" else 0
    assert len(blocks) == len(results) + kept
    assert sum(op.name == "loop.alloc_buffer" for op in kernel.walk()) == kept
    wrapper = ModuleOp.build()
    wrapper.body.append(kernel)
    reparsed = parse_module(print_op(wrapper), Context())
    verify(reparsed)
    outputs = [np.zeros(e.shape, e.dtype) for e in expected]
    evaluate(reparsed, "fused", [*arrays, *outputs])
    for got, want in zip(outputs, expected):
        np.testing.assert_array_equal(got, want)


def test_a_reshape_is_inlined_into_the_reduction_reading_it():
    # Fusion keeps a reshape out of a dense's group (as TVM's); a group holding both
    # still inlines it: the dense reads the operand at the composed index.
    b = GraphBuilder()
    x = b.param("x", (2, 2, 3, 3))
    w = b.param("w", (5, 18))
    y = b.relu(b.dense(b.reshape(x, shape=(2, -1)), w))
    module = b.module(y)
    main = functions(module)["main"]
    kernel = group_kernel("fused", list(main.entry_block.args), list(main.entry_block.ops())[:-1],
                          list(main.entry_block.terminator.operands))
    text = print_op(kernel)
    assert [op.attributes["block_name"].value for op in kernel.walk()
            if op.name == "loop.block"] == ["T_dense", "T_relu"]
    assert "loop.load %p0[%vi0, %vk floordiv 9, (%vk floordiv 3) mod 3, %vk mod 3]" in text
    arrays = [rand(2, 2, 3, 3, seed=1), rand(5, 18, seed=2)]
    [expected] = graph_evaluate(module, arrays)
    wrapper = ModuleOp.build()
    wrapper.body.append(kernel)
    out = np.zeros((2, 5), np.float32)
    evaluate(wrapper, "fused", [*arrays, out])
    np.testing.assert_allclose(out, expected, rtol=RTOL, atol=ATOL)


def test_a_group_of_diamonds_lowers_to_a_kernel_of_its_size():
    # Each step reads the value before it through two stages that are inlined into the
    # step: without sharing the copies of equal expressions, each step would double
    # the kernel (2^16 loads here); shared, the kernel grows by a few ops per step.
    b = GraphBuilder()
    x = b.param("x", (4,))
    value = x
    for _ in range(16):
        value = b.add(b.exp(b.neg(value)), b.tanh(b.transpose(value, axes=[0])))
    module = b.module(value)
    main = functions(module)["main"]
    kernel = group_kernel("fused", list(main.entry_block.args), list(main.entry_block.ops())[:-1],
                          list(main.entry_block.terminator.operands))
    assert sum(op.name == "loop.load" for op in kernel.walk()) == 1
    assert sum(1 for _ in kernel.walk()) < 16 * 8
    arrays = [rand(4, seed=3)]
    [expected] = graph_evaluate(module, arrays)
    wrapper = ModuleOp.build()
    wrapper.body.append(kernel)
    out = np.zeros(4, np.float32)
    evaluate(wrapper, "fused", [*arrays, out])
    np.testing.assert_allclose(out, expected, rtol=RTOL, atol=ATOL)
