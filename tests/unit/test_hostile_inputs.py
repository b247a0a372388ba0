"""Hostile input, class by class (issue 22): files, flags, arrays, shared libraries and
params files that once crashed the process by a signal, ended in a traceback or a
foreign exception, or were accepted when they should not be. Each now ends in one clear
mlc error (exit status 1 from a tool; a `mlc.*Error` from Python), with no file left
behind. What could kill the process runs in a child process, so a regression is a
failed test with the signal named, not a dead test run."""

from __future__ import annotations

import signal
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.llvm.build import build
from mlc.llvm.export import ExportError
from mlc.llvm.library_seal import SEAL_SIZE, SealError, check_elf_library, seal_library
from mlc.llvm.loader import ModuleLoadError, load_module


def run_python(program: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `program` in a fresh interpreter; fail naming the signal if one ended it."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(program)],
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode < 0:
        pytest.fail(f"the process was killed by {signal.Signals(-done.returncode).name}:\n"
                    f"{done.stderr}")
    return done


def small_model():
    b = GraphBuilder()
    x = b.param("x", (2, 3))
    w = b.const(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    return build(b.module(b.relu(b.dense(x, w))))


@pytest.fixture(scope="module")
def exported(c_compiler, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("library") / "model.so"
    small_model().export_library(path)
    return path


# ------------------------------------------------------------------ shared libraries


def test_truncated_or_modified_libraries_are_refused_before_loading(exported, tmp_path):
    """dlopen of a truncated library died by SIGBUS: now the seal is checked first."""
    data = exported.read_bytes()
    cases = {"half": data[:len(data) // 2], "without_seal": data[:-SEAL_SIZE],
             "one_byte_short": data[:-1], "empty": b"",
             "flipped": data[:100] + bytes([data[100] ^ 0xFF]) + data[101:],
             "extended": data + b"\0" * 4096}
    for name, content in cases.items():
        (tmp_path / f"{name}.so").write_bytes(content)
        (tmp_path / f"{name}.params.npz").write_bytes(
            exported.with_name("model.params.npz").read_bytes())
    done = run_python(f"""
        from mlc.llvm.loader import ModuleLoadError, load_module
        for name in {sorted(cases)!r}:
            try:
                load_module({str(tmp_path)!r} + "/" + name + ".so")
                print(name, "LOADED")
            except ModuleLoadError as error:
                print(name, str(error).split(": ", 1)[1])
    """)
    assert done.returncode == 0, done.stderr
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert said["half"] == said["one_byte_short"] == said["empty"] == said["extended"] == (
        "refused before loading: not a library exported by mlc, or truncated: it ends "
        "without the seal export_library writes")
    assert said["without_seal"].startswith("refused before loading: not a library")
    assert said["flipped"] == ("refused before loading: the library does not have the "
                               "checksum recorded at export (modified since)")


def test_a_library_for_another_machine_is_refused(exported, tmp_path):
    payload = bytearray(exported.read_bytes()[:-SEAL_SIZE])
    machine = struct.unpack_from("<H", payload, 18)[0]
    struct.pack_into("<H", payload, 18, machine ^ 0x7F)
    (tmp_path / "other.so").write_bytes(seal_library(bytes(payload)))
    with pytest.raises(ModuleLoadError, match=f"built for ELF machine {machine ^ 0x7F}, "
                                              f"this process runs on {machine}"):
        load_module(tmp_path / "other.so")


def test_elf_headers_pointing_outside_the_file_are_refused(exported):
    payload = bytearray(exported.read_bytes()[:-SEAL_SIZE])
    program_headers = struct.unpack_from("<Q", payload, 32)[0]
    struct.pack_into("<Q", payload, 32, len(payload))
    with pytest.raises(SealError, match="program headers lie outside the file"):
        check_elf_library(bytes(payload))
    struct.pack_into("<Q", payload, 32, program_headers)
    # The first loadable segment's size made to reach past the end.
    struct.pack_into("<Q", payload, program_headers + 56 + 32, len(payload))
    with pytest.raises(SealError, match=r"its segment \d+ ends at byte \d+, past the end"):
        check_elf_library(bytes(payload))
    with pytest.raises(SealError, match="not an ELF file"):
        check_elf_library(b"MZ" + bytes(100))


def test_corrupt_truncated_or_replaced_weights_are_refused(exported, tmp_path):
    """A corrupt params file was a zipfile.BadZipFile from numpy."""
    weights = exported.with_name("model.params.npz").read_bytes()
    library = tmp_path / "model.so"
    library.write_bytes(exported.read_bytes())
    params = tmp_path / "model.params.npz"
    for content, message in [
            (weights[:len(weights) // 2], r"model.params.npz is \d+ bytes, the export wrote"),
            (weights[:40] + b"\xff" + weights[41:], "does not have the checksum recorded"),
            (b"PK\x03\x04 garbage", r"is 12 bytes, the export wrote")]:
        params.write_bytes(content)
        with pytest.raises(ModuleLoadError, match=message):
            load_module(library)
    params.unlink()
    params.mkdir()
    with pytest.raises(ModuleLoadError, match="unreadable weights"):
        load_module(library)


def test_exporting_onto_a_directory_leaves_nothing_behind(c_compiler, tmp_path):
    """It was an IsADirectoryError, leaving `.NAME.NNNN.tmp` and NAME.params.npz."""
    model = small_model()
    (tmp_path / "model.so").mkdir()
    with pytest.raises(ExportError, match="it is a directory"):
        model.export_library(tmp_path / "model.so")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.so"]
    (tmp_path / "file").write_text("")
    with pytest.raises(ExportError, match="cannot write the library"):
        model.export_library(tmp_path / "file" / "model.so")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "model.so"]


def test_exporting_under_a_missing_directory_is_refused(c_compiler, tmp_path):
    """It created the missing parents (as mlir-opt's -o, a missing directory is refused:
    one clear line, nothing written anywhere)."""
    with pytest.raises(ExportError, match=r"no directory '.*missing.*nested'"):
        small_model().export_library(tmp_path / "missing" / "nested" / "model.so")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ arrays of native calls

KERNELS = """
func.func @scale(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %out[%i] : memref<4xf32>
  }
  return
}
func.func @increment(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %x[%i] : memref<4xf32>
  }
  return
}
"""


def read_only_array(tmp_path: Path, name: str, value: np.ndarray) -> np.ndarray:
    np.save(tmp_path / f"{name}.npy", value)
    return np.load(tmp_path / f"{name}.npy", mmap_mode="r")


def test_written_arguments_must_be_writeable_and_read_ones_need_not(tmp_path):
    """A read-only output was written into (SIGSEGV): every memref argument was taken
    for an input. Roles now come from the function's memory effects."""
    from mlc.ir import Context, parse_module
    from mlc.llvm.build import compile_module
    from mlc.llvm.native_call import NativeCallError

    native = compile_module(parse_module(KERNELS, Context()))
    assert [s.role for s in native["scale"].specs] == ["input", "output"]
    assert [s.role for s in native["increment"].specs] == ["inout"]
    x = read_only_array(tmp_path, "x", np.arange(4, dtype=np.float32))
    readonly_out = read_only_array(tmp_path, "out", np.zeros(4, np.float32))
    with pytest.raises(NativeCallError, match=r"argument 1 \('out'\) is written by the call "
                                              r"\(output\) but the array is read-only"):
        native["scale"](x, readonly_out)
    frozen = np.zeros(4, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(NativeCallError, match="is written by the call"):
        native["scale"](x, frozen)
    with pytest.raises(NativeCallError, match=r"\('x'\) is written by the call \(inout\)"):
        native["increment"](x)
    assert native["scale"](x).tolist() == [0, 2, 4, 6]  # a read-only input is fine
    values = np.arange(4, dtype=np.float32)
    assert native["increment"](values) is values
    assert values.tolist() == [1, 2, 3, 4]


def test_a_model_takes_read_only_inputs(exported, tmp_path):
    x = read_only_array(tmp_path, "x", np.ones((2, 3), np.float32))
    expected = np.maximum(x @ (np.arange(12, dtype=np.float32).reshape(4, 3) / 10).T, 0)
    np.testing.assert_allclose(small_model()(x), expected, rtol=1e-6)
    np.testing.assert_allclose(load_module(exported)(x), expected, rtol=1e-6)


def test_external_functions_see_read_only_inputs():
    """A Python function bound to a kernel gets its inputs read-only and its outputs
    writable, as the declaration's llvm.readonly/llvm.writeonly say."""
    from mlc.ir.extern import register_func, remove_func

    seen = {}

    @register_func("test.hostile_linear")
    def linear(x, w, out):
        seen["flags"] = (x.flags.writeable, w.flags.writeable, out.flags.writeable)
        np.matmul(x, w.T, out=out)
        x[...] = 0  # must not be possible

    b = GraphBuilder()
    x = b.param("x", (2, 3))
    module = b.module(b.dense(x, b.const(np.ones((4, 3), np.float32))))
    try:
        model = build(module, extern={"fused_dense": "test.hostile_linear"})
        inputs = np.ones((2, 3), np.float32)
        with pytest.raises(ValueError, match="read-only"):
            model(inputs)
        assert seen["flags"] == (False, False, True)
        assert inputs.tolist() == np.ones((2, 3)).tolist()
    finally:
        remove_func("test.hostile_linear")


# ------------------------------------------------------------------ indices read from data


def run_tool(tool: str, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run an mlc tool (its module, `mlc.tools.NAME`) in a child process; fail naming the
    signal if one ended it."""
    done = subprocess.run([sys.executable, "-m", f"mlc.tools.{tool}", *map(str, argv)],
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode < 0:
        pytest.fail(f"{tool} was killed by {signal.Signals(-done.returncode).name}:\n"
                    f"{done.stderr}")
    return done


def gather_model(path: Path) -> Path:
    """An ONNX Gather of 4 rows of 3, at indices given as an input."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Gather", ["data", "indices"], ["y"], name="lookup", axis=0)],
        "gather", [helper.make_tensor_value_info("data", TensorProto.FLOAT, [4, 3]),
                   helper.make_tensor_value_info("indices", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def test_an_onnx_gather_index_out_of_range_is_an_error_not_a_crash(tmp_path):
    """mlc-run --check interpreter ran native code first, which read at 10^9: SIGSEGV.
    onnxruntime says 'indices element out of data bounds'."""
    model = gather_model(tmp_path / "gather.onnx")
    np.save(tmp_path / "data.npy", np.arange(12, dtype=np.float32).reshape(4, 3))
    np.save(tmp_path / "indices.npy", np.array([1, 10**9], np.int64))
    done = run_tool("run", model, "--input", f"data={tmp_path / 'data.npy'}", "--input",
                    f"indices={tmp_path / 'indices.npy'}", "--check", "interpreter")
    assert done.returncode == 1
    assert done.stderr == (
        "mlc-run: error: main(): index 1000000000 is out of range [0, 4) in kernel "
        "@fused_gather, block 'T_take': index 0 of %p0 : memref<4x3xf32>; 3 checks failed "
        "in the call (an index read from data; the call ran on a safe index instead, its "
        "outputs are not meaningful)\n")
    done = run_tool("run", model, "--input", f"data={tmp_path / 'data.npy'}", "--input",
                    f"indices={tmp_path / 'indices.npy'}", "--interpreter")
    assert done.returncode == 1
    assert "gather index 1000000000 is out of range for an axis of extent 4" in done.stderr


GATHERS = """
func.func @main(%x: tensor<4x3xf32>, %i: tensor<2xi64>, %e: tensor<4x3xi64>, %n: tensor<2x1xi64>)
    -> (tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) {
  %0 = graph.gather %x, %i {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %1 = graph.gather_elements %x, %e {axis = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  %2 = graph.gather_nd %x, %n : (tensor<4x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>
}
"""


def test_every_gather_checks_its_indices_natively_jit_and_exported(c_compiler, tmp_path):
    """take/gather, gather_elements and gather_nd: an index outside its axis is a
    NativeIndexError naming the kernel, the index and the bound, from a model built in
    this process and from its exported library; valid calls after it are unaffected."""
    done = run_python(f"""
        import numpy as np
        from mlc.ir import Context, parse_module
        from mlc.llvm import load_module
        from mlc.llvm.build import build
        from mlc.llvm.native_call import NativeIndexError
        model = build(parse_module({GATHERS!r}, Context()))
        model.export_library({str(tmp_path / "gathers.so")!r})
        x = np.arange(12, dtype=np.float32).reshape(4, 3)
        good = [np.array([3, -4]), np.zeros((4, 3), np.int64), np.array([[1], [-1]])]
        bad = {{"gather": [np.array([0, 4]), *good[1:]],
                "gather_elements": [good[0], np.full((4, 3), -7), good[2]],
                "gather_nd": [*good[:2], np.array([[2], [2**40]])]}}
        for runner in (model, load_module({str(tmp_path / "gathers.so")!r})):
            for name, indices in bad.items():
                try:
                    runner(x, *indices)
                    print(name, "no error")
                except NativeIndexError as error:
                    print(name, str(error).split(" (an index")[0])
            y = runner(x, *good)
            print(y[0].tolist(), y[2].tolist())
    """)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == lines[4:]
    assert lines[0].startswith("gather main(): index 4 is out of range [0, 4) in kernel @fused_")
    assert lines[1].startswith("gather_elements main(): index -4 is out of range [0, 3) in "
                               "kernel @fused_gather_elements, block 'T_gather'")
    assert lines[2].startswith(f"gather_nd main(): index {2**40} is out of range [0, 4) in "
                               "kernel @fused_gather_nd, block 'T_gather_nd'")
    assert lines[3] == "[[9.0, 10.0, 11.0], [0.0, 1.0, 2.0]] [[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]]"


# ------------------------------------------------------------------ sizes


def test_a_vector_llvm_cannot_take_is_refused_before_llvm(tmp_path):
    """mlc-translate --emit-obj of a vector<16777216xf32> constant died by SIGABRT on an
    LLVM assertion, after 110 s."""
    source = tmp_path / "huge.mlir"
    source.write_text("""llvm.func @f(%p: !llvm.ptr) {
  %0 = llvm.mlir.constant(dense<1.5> : vector<16777216xf32>) : vector<16777216xf32>
  llvm.store %0, %p : vector<16777216xf32>, !llvm.ptr
  llvm.return
}
""")
    done = run_tool("translate", source, "--emit-obj", "-o", tmp_path / "huge.o")
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"{source}:2:8: error: vector<16777216xf32> has 16,777,216 elements; native code "
        "takes vectors of at most 16,384 (LLVM's instruction selection")
    assert not (tmp_path / "huge.o").exists()


@pytest.mark.parametrize("body, message", [
    ("%a = memref.alloca() : memref<1048576xf32>",
     r"'memref.alloca' brings the function's stack buffers to 4 MiB; native code allows at "
     r"most 1 MiB"),
    ("%a = memref.alloc() : memref<140737488355329xi8>",  # 2^47 + 1
     r"memref<140737488355329xi8> takes 128 TiB; native code addresses buffers of at most "
     r"128 TiB \(2\^47 bytes"),
    ("%a = memref.alloc() : memref<1000000000x1000000000xf64>",
     r"memref<1000000000x1000000000xf64> takes 7.28e\+06 TiB; native code addresses buffers "
     r"of at most 128 TiB"),
    ("%a = memref.get_global @big : memref<600000000xf32>",
     r"the initial value of 'memref.global' takes 2.24 GiB; native code embeds constants of "
     r"at most 1 GiB"),
])
def test_sizes_native_code_cannot_take_are_build_errors(body, message):
    from mlc.ir import Context, parse_module
    from mlc.llvm.build import BuildError, compile_module

    text = f"""memref.global "private" constant @big : memref<600000000xf32> = dense<1.0>
func.func @f() {{
  {body}
  return
}}"""
    with pytest.raises(BuildError, match=message):
        compile_module(parse_module(text, Context()))


def test_huge_inputs_are_errors_not_memory_errors(tmp_path):
    """An input shape of 10^11 was a MemoryError, huge dims numpy's 'array is too big'."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "relu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
              tmp_path / "relu.onnx")
    done = run_tool("run", tmp_path / "relu.onnx", "--input-shape", f"x={10**11}",
                    "--random-inputs", "0")
    assert (done.returncode, done.stderr) == (
        1, "mlc-run: error: cannot make a random value for input 'x' (float32[100000000000]): "
           "out of memory\n")
    done = run_tool("run", tmp_path / "relu.onnx", "--input-shape", f"x={10**15}",
                    "--random-inputs", "0")
    assert done.returncode == 1
    assert "tensor<1000000000000000xf32> takes 3.64e+03 TiB; native code addresses buffers " \
           "of at most 128 TiB" in done.stderr


def test_the_limits_hold_at_their_bounds():
    from mlc.ir import IntegerType, MemRefType, VectorType, f32
    from mlc.llvm.limits import MAX_BUFFER_BYTES, MAX_VECTOR_ELEMENTS, buffer_size_problem

    assert buffer_size_problem(VectorType((MAX_VECTOR_ELEMENTS,), f32)) is None
    assert buffer_size_problem(VectorType((MAX_VECTOR_ELEMENTS + 1,), f32)) is not None
    assert buffer_size_problem(VectorType((128, 129), f32)) is not None  # elements, not rows
    i8 = IntegerType(8)
    assert buffer_size_problem(MemRefType((MAX_BUFFER_BYTES,), i8)) is None
    assert buffer_size_problem(MemRefType((MAX_BUFFER_BYTES + 1,), i8)) is not None


# ------------------------------------------------------------------ flags and files


DENSE = """func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %0 = graph.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
"""


@pytest.mark.parametrize("flags, message", [
    # A ValueError from numpy was an internal error.
    (["--random-inputs", "-1"], "argument --random-inputs: a seed is an integer >= 0, got '-1'"),
    # These were accepted: a negative tolerance, NaN (a numpy warning, then a verdict),
    # and a run count that ran until killed.
    (["--check", "interpreter", "--rtol", "-1"],
     "argument --rtol: a tolerance is a finite number >= 0, got '-1'"),
    (["--check", "interpreter", "--atol", "nan"],
     "argument --atol: a tolerance is a finite number >= 0, got 'nan'"),
    (["--benchmark", str(10**12)], "argument --benchmark: takes 1 to 1,000,000 runs, got "
                                   "'1000000000000'"),
])
def test_bad_flags_are_refused(tmp_path, flags, message):
    (tmp_path / "dense.mlir").write_text(DENSE)
    done = run_tool("run", tmp_path / "dense.mlir", "--random-inputs", "0", *flags)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == f"mlc-run: error: {message}"
    assert "Traceback" not in done.stderr and "Warning" not in done.stderr


def test_inputs_that_name_an_output_or_repeat_are_refused(tmp_path):
    (tmp_path / "kernels.mlir").write_text(KERNELS)
    np.save(tmp_path / "x.npy", np.ones(4, np.float32))
    x = f"x={tmp_path / 'x.npy'}"
    done = run_tool("run", tmp_path / "kernels.mlir", "--entry", "scale", "--input", x,
                    "--input", f"out={tmp_path / 'x.npy'}")
    assert (done.returncode, done.stderr) == (
        1, "mlc-run: error: 'out' is an output (the function only writes it): it takes no "
           "--input\n")
    done = run_tool("run", tmp_path / "kernels.mlir", "--entry", "scale", "--input", x,
                    "--input", x)
    assert (done.returncode, done.stderr) == (1, "mlc-run: error: --input x=... is given twice\n")


def test_binary_garbage_is_a_located_error_with_visible_characters(tmp_path):
    (tmp_path / "nul.mlir").write_bytes(b"func.func @f() {\x00}\n")
    (tmp_path / "bytes.mlir").write_bytes(bytes(range(200, 256)) * 20)
    done = run_tool("opt", tmp_path / "nul.mlir")
    assert (done.returncode, done.stderr) == (
        1, f"{tmp_path / 'nul.mlir'}:1:17: error: unexpected character U+0000\n"
           "func.func @f() {\ufffd}\n                ^\n")
    done = run_tool("run", tmp_path / "bytes.mlir", "--random-inputs", "0")
    assert done.returncode == 1
    assert done.stderr.startswith(f"{tmp_path / 'bytes.mlir'}:1:1: error: invalid UTF-8 byte 0xC8")


def test_a_garbage_torch_program_is_one_line(tmp_path):
    """mlc-import garbage.pt2 gave the right message after 15 lines of torch's logged
    traceback."""
    pytest.importorskip("torch")
    (tmp_path / "garbage.pt2").write_bytes(bytes(range(256)) * 8)
    done = run_tool("import_model", tmp_path / "garbage.pt2")
    assert (done.returncode, done.stderr) == (
        1, f"{tmp_path / 'garbage.pt2'}: error: not a saved torch.export program "
           "(torch.export.load: File is not a zip file)\n")


# ------------------------------------------------------------------ the Python API


def test_executor_and_library_misuse_are_mlc_errors(exported):
    """These were a bare KeyError, IndexError and ValueError."""
    from mlc.ir import Context, parse_module
    from mlc.llvm.build import compile_module
    from mlc.llvm.native_call import IndexRangeError, NativeCallError, UnknownNameError

    for model in (small_model(), load_module(exported)):
        with pytest.raises(UnknownNameError, match=r"^no input named 'nope' \(the inputs are x\)$"):
            model.set_input("nope", np.ones((2, 3), np.float32))
        with pytest.raises(IndexRangeError, match=r"output index 5 out of range \(the model has "
                                                  r"1 outputs\)"):
            model.get_output(5)
        with pytest.raises(NativeCallError, match=r"inputs not set: x \(set_input"):
            model.run()
    with pytest.raises(UnknownNameError, match=r"^model.so exports no function 'nope' \(it "
                                               r"exports: main\)$"):
        load_module(exported)["nope"]
    with pytest.raises(UnknownNameError, match=r"no function @nope in the compiled module"):
        compile_module(parse_module(KERNELS, Context()))["nope"]
    assert issubclass(UnknownNameError, KeyError) and issubclass(IndexRangeError, IndexError)


def test_the_onnx_backend_refuses_other_devices_and_inputs_of_another_type():
    """An int64 array fed to a float input was converted; device 'CUDA:7' was taken."""
    from onnx import TensorProto, helper

    import mlc.onnx.backend as backend

    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "relu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(backend.BackendDeviceError, match="runs models on device 'CPU', not "
                                                         "'CUDA:7'"):
        backend.prepare(model, device="CUDA:7")
    for native in (False, True):
        rep = backend.prepare(model, native=native)
        with pytest.raises(backend.BackendInputError, match="input 'x' must be float32 "
                                                            r"\(the model's float\), got int64"):
            rep.run([np.ones((2, 3), np.int64)])
        with pytest.raises(backend.BackendInputError, match=r"must have shape \[2, 3\], got "
                                                            r"\[3, 2\]"):
            rep.run([np.ones((3, 2), np.float32)])
        assert rep.run([-np.ones((2, 3), np.float32)])[0].tolist() == [[0.0] * 3] * 2


def test_compiling_after_the_compile_cache_is_cleared(tmp_path):
    """MCJIT frees the target machine it is given with its engine; the shared one was
    given, so compiling after a compiled module went (clear_compile_cache, then the
    module dropped) used a freed target machine: SIGSEGV."""
    done = run_python("""
        import gc
        import numpy as np
        from mlc.graph import GraphBuilder
        from mlc.llvm.build import build
        from mlc.llvm.jit import clear_compile_cache

        def model(width):
            b = GraphBuilder()
            return build(b.module(b.relu(b.param("x", (width,)))))

        for width in (3, 4, 5):
            assert model(width)(-np.ones(width, np.float32)).tolist() == [0.0] * width
            clear_compile_cache()
            gc.collect()
        print("ok")
    """)
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr
