"""`mlc-import` and `mlc-opt model.onnx` as a user runs them, on models built here with
onnx.helper: the module printed with its weights as blobs that mlc-opt reads back to the
same numbers (onnx.reference's), the flags, and every bad model or flag a diagnostic
`model.onnx: error: ...` with exit status 1 and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from mlc.graph import evaluate
from mlc.ir import Context, DenseResourceElementsAttr, parse_module
from mlc.onnx.registry import supported_ops
from mlc.tools import import_model, opt

FLOAT = TensorProto.FLOAT


def value(name: str, shape, elem_type: int = FLOAT) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem_type, shape)


def make_model(nodes, inputs, outputs, initializers=(), opset: int | None = 17,
               domains: dict[str, int] | None = None) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "test", inputs, outputs, list(initializers))
    opsets = [] if opset is None else [helper.make_opsetid("", opset)]
    opsets += [helper.make_opsetid(d, v) for d, v in (domains or {}).items()]
    return helper.make_model(graph, opset_imports=opsets)


def conv_model() -> onnx.ModelProto:
    """conv1 (weights of 108 elements: a blob) -> relu1 and transpose1 -> add1, with a
    dynamic batch dimension."""
    rng = np.random.default_rng(3)
    nodes = [helper.make_node("Conv", ["x", "conv1.weight", "conv1.bias"], ["c"], name="conv1",
                              pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu1"),
             helper.make_node("Transpose", ["c"], ["t"], name="transpose1", perm=[0, 1, 3, 2]),
             helper.make_node("Add", ["r", "t"], ["y"], name="add1")]
    return make_model(nodes, [value("x", ["batch", 3, 5, 5])], [value("y", ["batch", 4, 5, 5])], [
        numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "conv1.weight"),
        numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "conv1.bias")])


BIND = ["--input-shape", "x=1,3,5,5"]


@pytest.fixture()
def in_dir(tmp_path, monkeypatch) -> Path:
    """A scratch directory as the working directory, so paths print as users type them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture()
def net(in_dir) -> Path:
    onnx.save(conv_model(), in_dir / "net.onnx")
    return Path("net.onnx")


def run_import(capsys, *argv: str) -> tuple[int, str, str]:
    code = import_model.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_opt(capsys, *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def constants(text: str) -> dict[str, np.ndarray]:
    """The constants of a module's text by name, read back by the parser."""
    module = parse_module(text, Context())
    found = {}
    for op in module.walk():
        if op.name == "graph.constant":
            attr = op.attributes["value"]
            found[op.results[0].name_hint] = (attr.array() if isinstance(attr, DenseResourceElementsAttr)
                                              else attr.array)
    return found


# ------------------------------------------------------------------ mlc-import


def test_import_prints_weights_as_blobs_that_read_back_to_the_same_values(capsys, net) -> None:
    code, out, err = run_import(capsys, str(net), *BIND)
    assert (code, err) == (0, "")
    assert "graph.constant dense_resource<conv1.weight> : tensor<4x3x3x3xf32>" in out
    assert "{-#\n  dialect_resources: {\n    builtin: {\n      conv1.weight: \"0x" in out
    initializers = {t.name: numpy_helper.to_array(t) for t in conv_model().graph.initializer}
    read_back = constants(out)
    assert read_back.keys() == initializers.keys()
    for name, array in initializers.items():
        assert read_back[name].dtype == array.dtype
        np.testing.assert_array_equal(read_back[name], array)
    # ... and compute what onnx.reference computes.
    x = np.random.default_rng(4).standard_normal((1, 3, 5, 5)).astype(np.float32)
    [ours] = evaluate(parse_module(out, Context()), {"x": x})
    [theirs] = ReferenceEvaluator(conv_model()).run(None, {"x": x})
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_mlc_opt_reads_the_imported_text(capsys, net) -> None:
    code, imported, _ = run_import(capsys, str(net), *BIND, "-o", "net.mlir")
    assert (code, imported) == (0, "")
    code, out, err = run_opt(capsys, "net.mlir")
    assert (code, err) == (0, "")
    assert out == Path("net.mlir").read_text()  # blobs and all, printed as read


def test_import_output_file_written_only_on_success(capsys, net) -> None:
    Path("out.mlir").write_text("old\n")
    code, _, err = run_import(capsys, str(net), "-o", "out.mlir")  # batch unbound
    assert code == 1 and err.startswith("net.onnx: error: dynamic dimensions")
    assert Path("out.mlir").read_text() == "old\n"
    assert run_import(capsys, str(net), *BIND, "-o", "out.mlir")[0] == 0
    assert "func.func @main(%x: tensor<1x3x5x5xf32>)" in Path("out.mlir").read_text()


def test_keep_params(capsys, net) -> None:
    code, out, _ = run_import(capsys, str(net), *BIND, "--keep-params")
    assert code == 0
    assert ("func.func @main(%x: tensor<1x3x5x5xf32>, %conv1.weight: tensor<4x3x3x3xf32>, "
            "%conv1.bias: tensor<4xf32>) -> tensor<1x4x5x5xf32>") in out
    assert "graph.constant" not in out and "dialect_resources" not in out


def test_print_debuginfo_locates_ops_at_their_nodes(capsys, net) -> None:
    code, out, _ = run_import(capsys, str(net), *BIND, "--print-debuginfo")
    assert code == 0
    assert 'graph.relu %1 : tensor<1x4x5x5xf32> loc("relu1")' in out
    assert out.count('loc("conv1")') == 2  # conv2d and bias_add


def test_import_with_weights_elided(capsys, net) -> None:
    code, out, _ = run_import(capsys, str(net), *BIND, "--elide-elementsattrs-if-larger", "4")
    assert code == 0
    assert "%conv1.weight = graph.constant dense_resource<__elided__> : tensor<4x3x3x3xf32>" in out
    assert "%conv1.bias = graph.constant dense<[" in out and "dialect_resources" not in out


def test_a_scalar_input_shape(capsys, in_dir) -> None:
    model = make_model([helper.make_node("Neg", ["s"], ["y"], name="neg")],
                       [value("s", ["unknown"])], [value("y", [])])
    model.graph.input[0].type.tensor_type.ClearField("shape")
    onnx.save(model, "scalar.onnx")
    code, out, err = run_import(capsys, "scalar.onnx", "--input-shape", "s=")
    assert (code, err) == (0, "")
    assert "func.func @main(%s: tensor<f32>) -> tensor<f32>" in out


def test_list_ops(capsys) -> None:
    code, out, _ = run_import(capsys, "--list-ops")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"mlc converts {len(supported_ops())} ONNX ops, in models of opsets 1 to ")
    listed = {line.split()[0]: line.split(None, 1)[1] for line in lines[2:]}
    expected = {(f"{d}.{op}" if d else op): ", ".join(map(str, since)) for d, op, since in supported_ops()}
    assert listed == expected
    assert "Conv" in listed and "Relu" in listed


def test_import_is_deterministic_across_processes(net) -> None:
    """Hash seeds differ between runs of Python: the text must not depend on them."""
    outputs = set()
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-m", "mlc.tools.import_model", str(net), *BIND],
                              capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1


# ------------------------------------------------------------------ mlc-opt model.onnx


def test_mlc_opt_imports_an_onnx_input_as_mlc_import_does(capsys, net) -> None:
    _, imported, _ = run_import(capsys, str(net), *BIND)
    code, out, err = run_opt(capsys, str(net), *BIND)
    assert (code, err) == (0, "")
    assert out == imported


def test_mlc_opt_runs_a_pipeline_on_an_onnx_model(capsys, net) -> None:
    code, out, err = run_opt(capsys, str(net), "--input-shape", "x=2,3,5,5", "-p", "graph-optimize")
    assert (code, err) == (0, "")
    assert "func.func private @fused_conv2d_bias_add_relu" in out or "@fused_conv2d" in out
    x = np.random.default_rng(5).standard_normal((2, 3, 5, 5)).astype(np.float32)
    [ours] = evaluate(parse_module(out, Context()), {"x": x})
    [theirs] = ReferenceEvaluator(conv_model()).run(None, {"x": x})
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_fusion_remarks_name_the_onnx_nodes(capsys, net) -> None:
    code, _, err = run_opt(capsys, str(net), *BIND, "--graph-fuse-ops", "--fusion-remarks",
                           "-o", os.devnull)
    assert code == 0
    assert err.startswith("loc(\"conv1\"): remark: graph-fuse-ops: phase 0: 'graph.bias_add' not "
                          "fused into its post-dominator 'graph.add'")
    assert 'loc("add1"): note: post-dominator \'graph.add\'' in err
    assert 'loc("transpose1"): note: refused by \'graph.transpose\'' in err


def test_mlc_opt_keep_params_and_elided_weights(capsys, net) -> None:
    code, out, _ = run_opt(capsys, str(net), *BIND, "--keep-params")
    assert code == 0 and "%conv1.weight: tensor<4x3x3x3xf32>" in out
    code, out, _ = run_opt(capsys, str(net), *BIND, "--elide-elementsattrs-if-larger", "16")
    assert code == 0 and "dense_resource<__elided__> : tensor<4x3x3x3xf32>" in out
    assert "dialect_resources" not in out


def test_mlc_opt_crash_reproducer_of_an_onnx_model_holds_the_imported_module(capsys, in_dir) -> None:
    """`x * 1 + 0` takes canonicalize more than the one sweep it is allowed, so the
    pipeline fails; the reproducer holds the module as imported (the scale as a blob)
    and fails the same way on its own."""
    initializers = [numpy_helper.from_array(np.full(20, 1, np.float32), "one"),
                    numpy_helper.from_array(np.zeros(20, np.float32), "zero"),
                    numpy_helper.from_array(np.arange(20, dtype=np.float32), "scale")]
    nodes = [helper.make_node("Mul", ["x", "one"], ["a"], name="times_one"),
             helper.make_node("Add", ["a", "zero"], ["b"], name="plus_zero"),
             helper.make_node("Mul", ["b", "scale"], ["y"], name="scaled")]
    write("simplify.onnx", make_model(nodes, [value("x", [20])], [value("y", [20])], initializers))
    code, out, err = run_opt(capsys, "simplify.onnx", "-p",
                             "canonicalize{max-iterations=1 test-convergence=true}",
                             "--crash-reproducer", "repro.mlir")
    assert (code, out) == (1, "")
    assert err == "simplify.onnx: error: greedy rewriting did not converge after 1 iterations\n"
    reproducer = Path("repro.mlir").read_text()
    assert "%scale = graph.constant dense_resource<scale> : tensor<20xf32>" in reproducer
    assert "%0 = graph.multiply %x, %one" in reproducer and "mlir_reproducer" in reproducer
    code, _, again = run_opt(capsys, "repro.mlir", "--run-reproducer")
    assert code == 1
    assert again.startswith("repro.mlir:1:1: error: greedy rewriting did not converge after 1 iterations\n")


@pytest.mark.parametrize("flag", ["--split-input-file", "--verify-diagnostics", "--run-reproducer"])
def test_mlc_opt_flags_for_text_refuse_an_onnx_model(capsys, net, flag: str) -> None:
    code, out, err = run_opt(capsys, str(net), *BIND, flag)
    assert (code, out) == (1, "")
    assert err == f"mlc-opt: error: {flag} reads MLIR text, not an ONNX model ('net.onnx')\n"


def test_mlc_opt_onnx_flags_refuse_a_text_input(capsys, in_dir) -> None:
    Path("a.mlir").write_text("module {\n}\n")
    code, _, err = run_opt(capsys, "a.mlir", "--input-shape", "x=1")
    assert code == 1
    assert err == ("mlc-opt: error: --input-shape, --constant-input and --keep-params apply to ONNX "
                   "models (.onnx "
                   "files), not to 'a.mlir'\n")


# ------------------------------------------------------------------ errors


def relu_model(opset: int | None = 17) -> onnx.ModelProto:
    return make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [value("x", [2])],
                      [value("y", [2])], opset=opset, domains=None if opset else {"com.acme": 1})


def write(name: str, data: bytes | onnx.ModelProto) -> None:
    Path(name).write_bytes(data if isinstance(data, bytes) else data.SerializeToString())


ERROR_CASES = {
    "missing": (None, [], "cannot read the model: No such file or directory"),
    "empty": (b"", [], "not an ONNX model: the file is empty"),
    "not-protobuf": (b"\xff\xff\xff not a model", [], "not an ONNX model: the file (15 bytes) is "
                     "not a valid ModelProto (truncated or not protobuf)"),
    "truncated": (conv_model().SerializeToString()[:150], [], "not an ONNX model: the file (150 "
                  "bytes) is not a valid ModelProto (truncated or not protobuf)"),
    "opset-0": (relu_model(0), [], "opset 0 of the default ONNX domain is not supported"),
    "opset-99": (relu_model(99), [], "opset 99 of the default ONNX domain is not supported"),
    "no-default-opset": (relu_model(None), [], "the model imports no opset of the default ONNX domain"),
    "unbound": (conv_model(), [], "dynamic dimensions must be bound with --input-shape "
                "NAME=D0,D1,... (input_shapes=): unbound: 'x' dimension 0 ('batch')"),
    "unknown-input": (conv_model(), ["--input-shape", "image=1,3,5,5"],
                      "--input-shape names 'image', which is not among the model's inputs ('x')"),
    "wrong-rank": (conv_model(), ["--input-shape", "x=1,3,5"],
                   "input 'x' has rank 4, but 3 dimensions are given for it"),
    "negative": (conv_model(), ["--input-shape", "x=-1,3,5,5"],
                 "--input-shape x: dimensions must be >= 0, got [-1, 3, 5, 5]"),
    "unsupported": (make_model(
        [helper.make_node("Frobnicate", ["x"], ["a"], name="frob", domain="com.acme"),
         helper.make_node("MaxPool", ["x"], ["p"], name="pool", kernel_shape=[2], auto_pad="DIAGONAL")],
        [value("x", [1, 1, 4])], [value("a", [1, 1, 4]), value("p", [1, 1, 3])],
        domains={"com.acme": 1}), [],
        "cannot convert 2 nodes of the model (opset 17):\n"
        "  node 'frob': com.acme.Frobnicate (opset 1): mlc has no converter for this op\n"
        "  node 'pool': MaxPool (opset 17): auto_pad 'DIAGONAL' is not supported"),
    "checker": (make_model([helper.make_node("Relu", ["nowhere"], ["y"], name="relu")],
                           [value("x", [2])], [value("y", [2])]), [],
                "the model is not valid ONNX (onnx.checker): node 'relu' (Relu) reads 'nowhere', "
                "which is not a graph input, an initializer or an output of an earlier node"),
    "shape-inference": (make_model([helper.make_node("Add", ["a", "b"], ["y"], name="add")],
                                   [value("a", [2]), value("b", [3])], [value("y", [2])]), [],
                        "ONNX shape inference fails on the model:\n"
                        "  node 'add' (Add): Incompatible dimensions"),
    "bf16-initializer": (make_model(
        [helper.make_node("Cast", ["w"], ["y"], name="cast", to=FLOAT)], [], [value("y", [2])],
        [helper.make_tensor("w", TensorProto.BFLOAT16, [2], [1.0, 2.0])]), [],
        "initializer 'w': element type BFLOAT16 is not supported"),
    "output-not-computed": (make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                       [value("x", [2])], [value("y", [2]), value("z", [2])]), [],
                            "the model is not valid ONNX (onnx.checker): Graph output 'z' is not "
                            "an output of any node in graph."),
}


@pytest.mark.parametrize("tool", ["mlc-import", "mlc-opt"])
@pytest.mark.parametrize("case", ERROR_CASES)
def test_bad_models_are_diagnostics(capsys, in_dir, tool: str, case: str) -> None:
    data, flags, message = ERROR_CASES[case]
    if data is not None:
        write("model.onnx", data)
    Path("out.mlir").write_text("old\n")
    run = run_import if tool == "mlc-import" else run_opt
    code, out, err = run(capsys, "model.onnx", *flags, "-o", "out.mlir")
    assert (code, out) == (1, "")
    assert err.startswith(f"model.onnx: error: {message}"), err
    assert err.count("error:") == 1
    assert Path("out.mlir").read_text() == "old\n"


@pytest.mark.parametrize(("flags", "message"), [
    (["--input-shape", "x"], "--input-shape takes NAME=D0,D1,... (NAME= for a scalar), got 'x'"),
    (["--input-shape", "=1,2"], "--input-shape takes NAME=D0,D1,... (NAME= for a scalar), got '=1,2'"),
    (["--input-shape", "x=1,two"], "--input-shape x: dimensions are integers separated by commas, "
                                   "got '1,two'"),
    (["--input-shape", "x=1,3,5,5", "--input-shape", "x=2,3,5,5"], "--input-shape x is given twice"),
])
@pytest.mark.parametrize("tool", ["mlc-import", "mlc-opt"])
def test_malformed_input_shape_flags(capsys, net, tool: str, flags: list[str], message: str) -> None:
    run = run_import if tool == "mlc-import" else run_opt
    code, out, err = run(capsys, str(net), *flags)
    assert (code, out, err) == (1, "", f"{tool}: error: {message}\n")


def test_import_needs_a_model(capsys) -> None:
    code, _, err = run_import(capsys)
    assert code == 1
    assert err == "mlc-import: error: name the ONNX model to import (mlc-import model.onnx)\n"


def test_the_console_scripts_report_bad_models_without_a_traceback(in_dir) -> None:
    """Through `python -m` (the console scripts' entry): stderr is the diagnostic alone."""
    write("cut.onnx", conv_model().SerializeToString()[:99])
    for module in ("mlc.tools.import_model", "mlc.tools.opt"):
        done = subprocess.run([sys.executable, "-m", module, "cut.onnx"], capture_output=True,
                              text=True, env={k: v for k, v in os.environ.items() if k != "MLC_DEBUG"})
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr == ("cut.onnx: error: not an ONNX model: the file (99 bytes) is not a "
                               "valid ModelProto (truncated or not protobuf)\n")


# ------------------------------------------------------------------ the frontend is optional


def test_the_tools_start_without_importing_onnx() -> None:
    code = ("import sys, mlc.tools.opt, mlc.tools.import_model\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'onnx' or m == 'mlc.onnx'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_a_missing_frontend_is_said_plainly(in_dir) -> None:
    """With mlc.onnx not importable (as when mlc-frontend-onnx is not installed)."""
    write("m.onnx", relu_model())
    code = ("import sys; sys.modules['mlc.onnx'] = None\n"
            "from mlc.tools import import_model, opt\n"
            "print(import_model.main(['m.onnx']), import_model.main(['--list-ops']), opt.main(['m.onnx']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout == "1 1 1\n"
    missing = ("error: reading ONNX models needs the ONNX frontend (mlc-frontend-onnx: pip install "
               "-e packages/frontend-onnx), which is not installed: no module named 'mlc.onnx'\n")
    assert done.stderr == f"mlc-import: {missing}" * 2 + f"mlc-opt: {missing}"


def reshape_by_input_model() -> onnx.ModelProto:
    """Reshape whose target shape is a graph input: the import needs its value."""
    return make_model([helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
                      [value("x", [2, 6]), value("shape", [2], TensorProto.INT64)],
                      [value("y", [3, 4])])


def test_constant_input_binds_a_graph_input_the_shapes_depend_on(capsys, in_dir) -> None:
    onnx.save(reshape_by_input_model(), "reshape.onnx")
    np.save("shape.npy", np.array([3, 4], np.int64))
    code, _, err = run_import(capsys, "reshape.onnx")
    assert code == 1 and "--constant-input NAME=FILE.npy" in err
    code, out, err = run_import(capsys, "reshape.onnx", "--constant-input", "shape=shape.npy")
    assert code == 0, err
    module = parse_module(out, Context())
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    (y,) = evaluate(module, [x])
    np.testing.assert_array_equal(y, x.reshape(3, 4))
    code, out, err = run_opt(capsys, "reshape.onnx", "--constant-input", "shape=shape.npy",
                             "-p", "graph-optimize")
    assert code == 0, err


@pytest.mark.parametrize("argv, message", [
    (["--constant-input", "shape"], "--constant-input takes NAME=FILE.npy, got 'shape'"),
    (["--constant-input", "shape=missing.npy"],
     "--constant-input shape: cannot read 'missing.npy'"),
    (["--constant-input", "shape=bad.npy"], "--constant-input shape: 'bad.npy' is not a .npy"),
    (["--constant-input", "shape=shape.npy", "--constant-input", "shape=shape.npy"],
     "--constant-input shape is given twice"),
    (["--constant-input", "size=shape.npy"], "--constant-input names 'size', not an input"),
])
def test_bad_constant_inputs_are_diagnostics(capsys, in_dir, argv, message) -> None:
    onnx.save(reshape_by_input_model(), "reshape.onnx")
    np.save("shape.npy", np.array([3, 4], np.int64))
    Path("bad.npy").write_text("not numpy")
    code, _, err = run_import(capsys, "reshape.onnx", *argv)
    assert code == 1 and message in err and "Traceback" not in err
