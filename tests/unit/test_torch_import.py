"""`from_fx` and `from_exported_program` on small modules written here: what a module
becomes (arguments, constants or parameters, locations), user maps that extend or
override the defaults, every way an import is refused (one diagnostic naming every
node), external functions on torch tensors without copies, and `mlc-import model.pt2`.
Numbers are checked against torch itself."""

from __future__ import annotations

import os

import numpy as np
import pytest

if os.environ.get("CI") == "true":
    import torch  # CI installs the torch frontend: its tests must run there
else:
    torch = pytest.importorskip("torch")

import torch.nn.functional as F  # noqa: E402
from torch import nn  # noqa: E402

from mlc.graph import evaluate  # noqa: E402
from mlc.ir import print_op  # noqa: E402
from mlc.ir.dialects.func import FuncOp  # noqa: E402
from mlc.torch import (  # noqa: E402
    FUNCTION_MAP,
    Node,
    TorchImportError,
    from_exported_program,
    from_fx,
    register_torch_func,
)


def _main(module) -> FuncOp:
    return next(op for op in module.regions[0].ops()
                if isinstance(op, FuncOp) and op.sym_name.value == "main")


def _torch(model: nn.Module, *inputs: torch.Tensor) -> list[np.ndarray]:
    with torch.no_grad():
        out = model(*inputs)
    return [t.numpy() for t in (out if isinstance(out, tuple) else (out,))]


def _inputs(*shapes) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(0)
    return [torch.randn(s, generator=generator) for s in shapes]


class Mixed(nn.Module):
    """The default converters across their forms: functions, methods, modules, sizes
    computed in Python, tuples, indexing."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 8)
        self.conv = nn.Conv2d(3, 4, 3, stride=1, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.AvgPool2d(2)
        self.norm = nn.LayerNorm(8)
        self.register_buffer("shift", torch.linspace(-1, 1, 8))

    def forward(self, x, image):
        h = F.silu(self.fc(x)).view(x.size(0), -1) + self.shift
        a, b = h.chunk(2, dim=1)
        c = torch.cat([torch.sigmoid(a) * 2, torch.tanh(b) - 1.5], dim=-1)
        d = self.norm(c).transpose(0, 1).contiguous().transpose(1, 0)
        e = F.log_softmax(d / 3, dim=1) + F.gelu(d, approximate="tanh")
        y = F.max_pool2d(F.relu(self.bn(self.conv(image))), 2)
        y = self.pool(y) + F.adaptive_avg_pool2d(y, 1)
        first, rest = torch.split(y.flatten(1), [1, 3], dim=1)
        return e[:, 1:5], torch.bmm(first.reshape(1, 2, 1), rest.reshape(1, 1, 6)), F.relu6(e)


@pytest.fixture
def mixed():
    torch.manual_seed(0)
    model = Mixed()
    model.bn.running_mean.uniform_(-0.5, 0.5)
    model.bn.running_var.uniform_(0.5, 1.5)
    return model.eval(), _inputs((2, 6), (2, 3, 6, 6))


def _assert_close(actual, expected) -> None:
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert a.shape == e.shape and a.dtype == e.dtype
        np.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-5)


def test_the_default_converters_compute_what_torch_does(mixed):
    model, inputs = mixed
    expected = _torch(model, *inputs)
    module = from_fx(model, [tuple(t.shape) for t in inputs])
    _assert_close(evaluate(module, [t.numpy() for t in inputs]), expected)
    exported = from_exported_program(torch.export.export(model, tuple(inputs)))
    _assert_close(evaluate(exported, [t.numpy() for t in inputs]), expected)


def test_placeholders_are_arguments_and_tensors_constants_named_by_state_dict_key(mixed):
    model, inputs = mixed
    module = from_fx(model, {"image": (2, 3, 6, 6), "x": (2, 6)})
    main = _main(module)
    assert [a.name_hint for a in main.entry_block.args] == ["x", "image"]
    constants = {op.results[0].name_hint for op in main.entry_block.ops()
                 if op.name == "graph.constant" and op.results[0].name_hint}
    assert {"fc.weight", "fc.bias", "conv.weight", "bn.running_var", "norm.weight",
            "shift"} <= constants


def test_ops_are_located_at_their_fx_nodes(mixed):
    model, _ = mixed
    module = from_fx(model, [(2, 6), (2, 3, 6, 6)])
    located = {(op.name, str(op.loc)) for op in _main(module).entry_block.ops()}
    assert ("graph.dense", 'loc("fc")') in located
    assert ("graph.swish", 'loc("silu")') in located
    assert ("graph.conv2d", 'loc("conv")') in located
    assert ("graph.batch_matmul", 'loc("bmm")') in located


@pytest.mark.parametrize("importer", ["fx", "export"])
def test_keep_params_makes_the_tensors_parameters_after_the_inputs(mixed, importer):
    model, inputs = mixed
    if importer == "fx":
        module = from_fx(model, [tuple(t.shape) for t in inputs], keep_params=True)
    else:
        module = from_exported_program(torch.export.export(model, tuple(inputs)),
                                       keep_params=True)
    names = [a.name_hint for a in _main(module).entry_block.args]
    assert names[:2] == ["x", "image"]
    state = {k: v.numpy() for k, v in model.state_dict().items()}
    assert set(names[2:]) <= set(state) and "fc.weight" in names
    arguments = [t.numpy() for t in inputs] + [state[n] for n in names[2:]]
    _assert_close(evaluate(module, arguments), _torch(model, *inputs))


def test_input_dtypes_type_the_arguments():
    class Scale(nn.Module):
        def forward(self, x, y):
            return x * y + 0.5

    x, y = (torch.randn(3, dtype=torch.float64) for _ in range(2))
    module = from_fx(Scale(), [(3,), (3,)], input_dtypes=[torch.float64, torch.float64])
    assert [str(a.type) for a in _main(module).entry_block.args] == ["tensor<3xf64>"] * 2
    _assert_close(evaluate(module, [x.numpy(), y.numpy()]), _torch(Scale(), x, y))
    exported = from_exported_program(torch.export.export(Scale(), (x, y)))
    assert [str(a.type) for a in _main(exported).entry_block.args] == ["tensor<3xf64>"] * 2


def test_numbers_against_integer_tensors_promote_as_torch_does():
    # An integer tensor times a float is float (not the float truncated to an
    # integer), true division of integers is float, integers with integers stay.
    class Arithmetic(nn.Module):
        def forward(self, x):
            return x * 0.5, 0.25 + x, 3 - x, x / 2, x / x.clamp(min=1), x + 2, x * 3

    x = torch.arange(-3, 5, dtype=torch.int64).reshape(2, 4)
    want = Arithmetic()(x)
    for module in (from_fx(Arithmetic(), [(2, 4)], input_dtypes=[torch.int64]),
                   from_exported_program(torch.export.export(Arithmetic(), (x,)))):
        got = evaluate(module, [x.numpy()])
        assert [g.dtype for g in got] == [w.numpy().dtype for w in want]
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w.numpy(), rtol=1e-6)


# ------------------------------------------------------------------ user maps


class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 3, generator=torch.Generator().manual_seed(3)))

    def forward(self, x):
        return torch.relu(torch.matmul(x, self.weight))


def test_a_user_map_overrides_a_default_converter():
    """The course's map: torch.matmul through the builder, here computed as x·W + 1
    so that the override is seen in the numbers."""
    def matmul_plus_one(node: Node):
        product = node.b.matmul(node.tensor(0, "input"), node.tensor(1, "other"))
        return node.b.add(product, node.b.const(np.float32(1)))

    model = MyModel()
    [x] = _inputs((2, 4))
    module = from_fx(model, [(2, 4)], call_function_map={torch.matmul: matmul_plus_one})
    [y] = evaluate(module, [x.numpy()])
    np.testing.assert_allclose(y, np.maximum(x.numpy() @ model.weight.detach().numpy() + 1, 0),
                               rtol=1e-5)
    assert FUNCTION_MAP[torch.matmul] is not matmul_plus_one  # the defaults are untouched


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class WithCustomModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = Swish()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(torch.expm1(self.act(x)))


def test_user_maps_extend_the_defaults_with_functions_and_modules():
    class Leaf(torch.fx.Tracer):
        def is_leaf_module(self, m, name):
            return isinstance(m, Swish) or super().is_leaf_module(m, name)

    model = WithCustomModule().eval()
    graph_module = torch.fx.GraphModule(model, Leaf().trace(model))
    with pytest.raises(TorchImportError) as refused:
        from_fx(graph_module, [(2, 3)])
    assert "node 'act' (module 'act' of" in str(refused.value)
    assert "node 'expm1' (function torch.expm1)" in str(refused.value)
    module = from_fx(graph_module, [(2, 3)],
                     call_function_map={torch.expm1: lambda node: node.b.subtract(
                         node.b.exp(node.tensor(0, "input")), node.b.const(np.float32(1)))},
                     call_module_map={Swish: lambda node: node.b.swish(node.tensor(0, "input"))})
    [x] = _inputs((2, 3))
    _assert_close(evaluate(module, [x.numpy()]), _torch(model, x))


# ------------------------------------------------------------------ refused imports


class Unconvertible(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(4, 4), nn.PReLU())
        self.conv = nn.Conv3d(1, 1, 1)

    def forward(self, x):
        h = torch.logcumsumexp(self.block(x), dim=0)
        return torch.fliplr(h) + torch.sort(h).values


def test_every_node_without_a_converter_is_named_in_one_diagnostic():
    model = Unconvertible().eval()
    with pytest.raises(TorchImportError) as refused:
        from_fx(model, [(2, 4)])
    message = str(refused.value)
    assert message.startswith("Unconvertible: error: no converter for 4 nodes")
    for line in ("node 'block_1' (module 'block.1' of torch.nn.modules.activation.PReLU)",
                 "node 'logcumsumexp' (function torch.logcumsumexp)", "node 'fliplr' (function torch.fliplr)",
                 "node 'sort' (function torch.sort)"):
        assert line in message
    [x] = _inputs((2, 4))
    with pytest.raises(TorchImportError) as refused:
        from_exported_program(torch.export.export(model, (x,)))
    message = str(refused.value)
    assert "node 'prelu' (function aten.prelu.default in module 'block.1')" in message
    assert "node 'logcumsumexp' (function aten.logcumsumexp.default)" in message


class Refused(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(2)

    def forward(self, x):
        y = self.bn(x)
        z = F.softmax(x.view(2, 5, -1), dim=7)
        return y, z, F.dropout(x, 0.5, True)


def test_converters_refusing_their_arguments_are_reported_together():
    with pytest.raises(TorchImportError) as refused:
        from_fx(Refused().train(), [(2, 2, 3, 3)])
    message = str(refused.value)
    assert message.startswith("Refused: error: cannot convert 3 nodes:")
    assert "node 'bn' (module 'bn' of torch.nn.modules.batchnorm.BatchNorm2d): batch norm " \
           "in training mode is not supported (call .eval())" in message
    assert "node 'view' (method Tensor.view): cannot view [2, 2, 3, 3] as [2, 5, -1]" in message
    # softmax depends on the failed view: not reported again
    assert "softmax" not in message
    assert "node 'dropout' (function torch.nn.functional.dropout): dropout in training mode" \
           in message


@pytest.mark.parametrize("shapes, message", [
    ([(2, 4), (1,)], "2 input shapes for 1 inputs (x)"),
    ({"y": (2, 4)}, "input_shapes must give the shape of every input (x); unknown: y"),
    ([(2, -4)], "input 'x': a shape is a sequence of non-negative integers, got (2, -4)"),
    ([(2, 5)], "node 'block_0' (module 'block.0' of torch.nn.modules.linear.Linear): "
               "'graph.dense'"),
])
def test_bad_input_shapes_are_diagnostics(shapes, message):
    class Single(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = nn.Sequential(nn.Linear(4, 4))

        def forward(self, x):
            return self.block(x)

    with pytest.raises(TorchImportError) as refused:
        from_fx(Single().eval(), shapes)
    assert message in str(refused.value)


def test_an_untraceable_module_is_a_diagnostic():
    class Branchy(nn.Module):
        def forward(self, x):
            return x if x.sum() > 0 else -x

    with pytest.raises(TorchImportError, match="^Branchy: error: torch.fx cannot trace the "
                                               "module: TraceError"):
        from_fx(Branchy(), [(2,)])


def test_the_import_is_deterministic(mixed):
    model, _ = mixed
    texts = {print_op(from_fx(model, [(2, 6), (2, 3, 6, 6)])) for _ in range(2)}
    assert len(texts) == 1


# ------------------------------------------------------------------ external functions


@pytest.fixture
def env_linear():
    """The course's env.linear with torch.mm(..., out=...), recording the data pointers
    of the tensors it receives."""
    from mlc.ir.extern import remove_func

    seen = []

    @register_torch_func("env.linear", override=True)
    def linear(x, w, b, out):
        seen.append({"x": x.data_ptr(), "w": w.data_ptr(), "out": out.data_ptr(),
                     "types": {type(t) for t in (x, w, b, out)}})
        torch.mm(x, w.T, out=out)
        out.add_(b)

    yield seen
    remove_func("env.linear")


def _linear_model():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 8)).eval()
    [x] = _inputs((2, 16))
    return model, x, _torch(model, x)[0]


EXTERN_PIPELINE = ("graph-optimize,graph-lower-to-loop{extern=fused_dense_bias_add:env.linear},"
                   "loop-plan-memory,loop-lower,canonicalize")


def test_an_external_function_gets_torch_tensors_over_the_interpreters_arrays(env_linear):
    from mlc.ir.interpreter import evaluate as evaluate_loops
    from mlc.ir.passes.context import PassContext
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.passes.registry import load_pass_plugins

    model, x, expected = _linear_model()
    module = from_fx(model, [(2, 16)], keep_params=True)
    load_pass_plugins()
    with PassContext(opt_level=3):
        result = run_pipeline(module, "graph-optimize,graph-lower-to-loop{"
                                      "extern=fused_dense_bias_add:env.linear}")
    assert result.success, result.diagnostics
    x_array = x.numpy()
    weight = model[0].weight.detach().numpy()
    out = np.zeros((2, 8), np.float32)
    evaluate_loops(module, "main", [x_array, weight, model[0].bias.detach().numpy(), out])
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    [call] = env_linear
    assert call == {"x": x_array.ctypes.data, "w": weight.ctypes.data, "out": out.ctypes.data,
                    "types": {torch.Tensor}}


def test_an_external_function_runs_inside_a_compiled_model_on_its_buffers(env_linear):
    from mlc.llvm import ArgSpec, bind_python_function
    from mlc.llvm.build import build

    model, x, expected = _linear_model()
    bind_python_function("env.linear", [
        ArgSpec("x", (2, 16), "float32"), ArgSpec("w", (8, 16), "float32", "param"),
        ArgSpec("b", (8,), "float32", "param"), ArgSpec("out", (2, 8), "float32", "output")])
    compiled = build(from_fx(model, [(2, 16)]), pipeline=EXTERN_PIPELINE)
    x_array, out = x.numpy(), np.zeros((2, 8), np.float32)
    compiled.entry(x_array, out)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    [call] = env_linear
    # The model's input and output buffers reach torch as they are: no copies.
    assert call["x"] == x_array.ctypes.data and call["out"] == out.ctypes.data
    assert call["w"] == compiled.params["0.weight"].ctypes.data


# ------------------------------------------------------------------ mlc-import model.pt2


def test_mlc_import_prints_a_saved_exported_programs_module(tmp_path, capsys):
    from mlc.ir import parse_module
    from mlc.tools.import_model import main

    model, x, expected = _linear_model()
    path = tmp_path / "linear.pt2"
    torch.export.save(torch.export.export(model, (x,)), str(path))
    assert main([str(path), "--print-debuginfo"]) == 0
    text = capsys.readouterr().out
    assert "func.func @main(%input: tensor<2x16xf32>" in text
    assert "%_0.weight = graph.constant" in text  # the state-dict key, as a value name
    assert 'loc("linear")' in text
    [y] = evaluate(parse_module(text), [x.numpy()])
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
    assert main([str(path), "--keep-params", "--elide-elementsattrs-if-larger", "4"]) == 0
    assert "%_0.weight: tensor<8x16xf32>" in capsys.readouterr().out


@pytest.mark.parametrize("content, message", [
    (None, "missing.pt2: error: cannot read the program: no such file"),
    (b"not a zip", "bad.pt2: error: not a saved torch.export program (torch.export.load: "),
])
def test_mlc_import_refuses_what_is_not_a_saved_program(tmp_path, capsys, content, message):
    from mlc.tools.import_model import main

    name = "missing.pt2" if content is None else "bad.pt2"
    if content is not None:
        (tmp_path / name).write_bytes(content)
    assert main([str(tmp_path / name)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(str(tmp_path / message.split(":")[0]))
    assert message.split(": ", 1)[1] in captured.err and "Traceback" not in captured.err


def test_mlc_import_of_a_program_takes_no_input_shapes(tmp_path, capsys):
    from mlc.tools.import_model import main

    assert main([str(tmp_path / "m.pt2"), "--input-shape", "x=1,2"]) == 1
    assert "--input-shape and --constant-input are for ONNX models" in capsys.readouterr().err


class SliceAssignments(nn.Module):
    """In-place slice assignments (aten.slice_scatter, as Swin's attention mask is
    built) with and without a step, and slices read with a step."""

    def __init__(self, start: int, end: int, step: int):
        super().__init__()
        self.start, self.end, self.step = start, end, step

    def forward(self, x, y):
        x = x.clone()
        x[:, self.start:self.end:self.step] = y
        x[-1:, :, 1:] = 0.5
        return x[:, ::2, 1::3] + x[:, 1::2].sum()


@pytest.mark.parametrize("start, end, step", [(0, 7, 1), (2, 5, 1), (1, 7, 2), (0, 3, 3), (5, 7, 1)])
def test_slice_assignments_and_strided_slices_compute_what_torch_does(start, end, step):
    x = torch.randn(3, 7, 5)
    y = torch.randn(3, len(range(start, end, step)), 5)
    model = SliceAssignments(start, end, step)
    expected = _torch(model, x, y)
    module = from_exported_program(torch.export.export(model, (x, y)))
    _assert_close(evaluate(module, [x.numpy(), y.numpy()]), expected)
    from mlc.llvm.build import build

    _assert_close([build(module)(x.numpy(), y.numpy())], expected)


class Einsums(nn.Module):
    """torch.einsum as attention layers write it (maxvit's relative attention),
    with swapaxes."""

    def forward(self, q, k):
        scores = torch.einsum("bhid,bhjd->bhij", q, k)
        mixed = torch.einsum("bhij,bhjd->bhid", scores.softmax(-1), k)
        return torch.swapaxes(mixed, 1, 2) + torch.einsum("...ii->...i", scores).sum()


def test_einsum_and_swapaxes_compute_what_torch_does():
    q, k = torch.randn(2, 3, 5, 4), torch.randn(2, 3, 5, 4)
    expected = _torch(Einsums(), q, k)
    module = from_exported_program(torch.export.export(Einsums(), (q, k)))
    _assert_close(evaluate(module, [q.numpy(), k.numpy()]), expected)
