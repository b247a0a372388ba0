"""Translation of the llvm dialect to LLVM IR, checked against MLIR's own translation:
kernels are lowered to the llvm dialect by mlir-opt-22 or by mlc (whose generic output
mlir-translate-22 must read), then translated twice — by mlc (`mlc.llvm.dialect.translation`) and by
mlir-translate-22 — and both LLVM IR modules are compiled with llvmlite and run on the
same numpy arrays: each must equal numpy's answer, computed independently.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from mlc.ir import Context, parse_module
from mlc.llvm.dialect.translation import TranslationError, translate_to_llvm_ir
from mlc.llvm.jit import compile_llvm_ir
from mlc.llvm.native_call import ArgSpec

MLIR_LOWERING = ["--expand-strided-metadata", "--lower-affine", "--convert-scf-to-cf",
                 "--convert-vector-to-llvm", "--convert-math-to-llvm",
                 "--finalize-memref-to-llvm",
                 "--convert-func-to-llvm=use-bare-ptr-memref-call-conv=1",
                 "--convert-arith-to-llvm", "--convert-cf-to-llvm",
                 "--reconcile-unrealized-casts"]


def _tool(name: str) -> str:
    path = shutil.which(f"{name}-22") or shutil.which(name)
    if path is None:
        message = f"{name}-22 is not installed (apt-get install mlir-22-tools)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def _run(argv: list[str], text: str) -> str:
    done = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def lowered_by_mlir(source: str) -> str:
    """`source` (standard dialects) lowered to the llvm dialect by mlir-opt-22."""
    return _run([_tool("mlir-opt"), *MLIR_LOWERING], source)


def both_translations(llvm_dialect: str) -> dict[str, str]:
    """LLVM IR of `llvm_dialect` from mlc's translation and from mlir-translate-22."""
    ours = translate_to_llvm_ir(parse_module(llvm_dialect, Context()))
    theirs = _run([_tool("mlir-translate"), "--mlir-to-llvmir"], llvm_dialect)
    return {"mlc": ours, "mlir-translate": theirs}


SAXPY = """
func.func @saxpy(%a: f32, %x: memref<16xf32>, %y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %xv = memref.load %x[%i] : memref<16xf32>
    %yv = memref.load %y[%i] : memref<16xf32>
    %p = arith.mulf %a, %xv : f32
    %s = arith.addf %p, %yv : f32
    memref.store %s, %y[%i] : memref<16xf32>
  }
  return
}
"""

MATMUL = """
func.func @matmul(%a: memref<6x5xf32>, %b: memref<5x7xf32>, %c: memref<6x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c7 step %c1 {
      %sum = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f32) {
        %av = memref.load %a[%i, %k] : memref<6x5xf32>
        %bv = memref.load %b[%k, %j] : memref<5x7xf32>
        %p = arith.mulf %av, %bv : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<6x7xf32>
    }
  }
  return
}
"""

VECTOR_MATH = """
func.func @vexp(%x: memref<32xf32>, %y: memref<32xf32>, %total: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c32 step %c16 iter_args(%acc = %init) -> (f32) {
    %v = vector.load %x[%i] : memref<32xf32>, vector<16xf32>
    %e = math.exp %v : vector<16xf32>
    %r = math.sqrt %e : vector<16xf32>
    %f = vector.fma %r, %r, %v : vector<16xf32>
    vector.store %f, %y[%i] : memref<32xf32>, vector<16xf32>
    %part = vector.reduction <add>, %f : vector<16xf32> into f32
    %next = arith.addf %acc, %part : f32
    scf.yield %next : f32
  }
  memref.store %sum, %total[%c0] : memref<1xf32>
  return
}
"""

BRANCHES = """
func.func @clamp_sum(%x: memref<10xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i32
  %limit = arith.constant 5 : i32
  %sum = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %x[%i] : memref<10xi32>
    %big = arith.cmpi sgt, %v, %limit : i32
    %w = scf.if %big -> (i32) {
      scf.yield %limit : i32
    } else {
      %neg = arith.subi %zero, %v : i32
      %isneg = arith.cmpi slt, %v, %zero : i32
      %a = arith.select %isneg, %neg, %v : i32
      scf.yield %a : i32
    }
    %next = arith.addi %acc, %w : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[%c0] : memref<1xi32>
  return
}
"""

GLOBALS = """
memref.global "private" constant @table : memref<4xf32> = dense<[1.5, -2.0, 0.25, 8.0]>
func.func @scale(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<4xf32>
    %b = memref.load %t[%i] : memref<4xf32>
    %p = arith.mulf %a, %b : f32
    memref.store %p, %x[%i] : memref<4xf32>
  }
  return
}
"""

rng = np.random.default_rng(7)


def _f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def _saxpy():
    x, y = _f32(16), _f32(16)
    specs = [ArgSpec("a", None, "float32"), ArgSpec("x", (16,), "float32"),
             ArgSpec("y", (16,), "float32", "output")]
    return "saxpy", specs, (np.float32(1.5), x, y), lambda: {"y": 1.5 * x + y}


def _matmul():
    a, b = _f32(6, 5), _f32(5, 7)
    specs = [ArgSpec("a", (6, 5), "float32"), ArgSpec("b", (5, 7), "float32"),
             ArgSpec("c", (6, 7), "float32", "output")]
    return "matmul", specs, (a, b, np.zeros((6, 7), np.float32)), lambda: {"c": a @ b}


def _vexp():
    x = _f32(32)
    specs = [ArgSpec("x", (32,), "float32"), ArgSpec("y", (32,), "float32", "output"),
             ArgSpec("total", (1,), "float32", "output")]

    def expected():
        y = np.sqrt(np.exp(x)) ** 2 + x
        return {"y": y, "total": np.array([y.sum()], np.float32)}
    return "vexp", specs, (x, np.zeros(32, np.float32), np.zeros(1, np.float32)), expected


def _clamp_sum():
    x = rng.integers(-9, 10, 10).astype(np.int32)
    specs = [ArgSpec("x", (10,), "int32"), ArgSpec("out", (1,), "int32", "output")]
    return "clamp_sum", specs, (x, np.zeros(1, np.int32)), \
        lambda: {"out": np.array([np.where(x > 5, 5, np.abs(x)).sum()], np.int32)}


def _scale():
    x = _f32(4)
    specs = [ArgSpec("x", (4,), "float32", "output")]
    return "scale", specs, (x.copy(),), \
        lambda: {"x": x * np.array([1.5, -2.0, 0.25, 8.0], np.float32)}


CASES = {"saxpy": (SAXPY, _saxpy), "matmul": (MATMUL, _matmul),
         "vector_math": (VECTOR_MATH, _vexp), "branches": (BRANCHES, _clamp_sum),
         "globals": (GLOBALS, _scale)}


def lowered_by_mlc(source: str) -> str:
    """`source` lowered to the llvm dialect by mlc, printed in generic form."""
    from mlc.ir import print_op
    from mlc.ir.passes.manager import run_pipeline
    from mlc.ir.text.printer import PrintOptions

    module = parse_module(source, Context())
    result = run_pipeline(module, "convert-scf-to-cf,convert-to-llvm")
    assert result.success, result.diagnostics
    return print_op(module, PrintOptions(generic=True))


@pytest.mark.parametrize("lowering", ["mlir-opt", "mlc"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_translation_runs_like_mlir_translate(case, lowering):
    source, make = CASES[case]
    llvm_dialect = lowered_by_mlir(source) if lowering == "mlir-opt" else lowered_by_mlc(source)
    for translator, text in both_translations(llvm_dialect).items():
        name, specs, args, expected = make()
        function = compile_llvm_ir(text).function(name, specs)
        arrays = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        function(*arrays)
        values = {s.name: a for s, a in zip(specs, arrays)}
        for output, want in expected().items():
            np.testing.assert_allclose(values[output], want, rtol=1e-5, atol=1e-5,
                                       err_msg=f"{case} through {translator}")


def test_branch_to_one_block_twice_with_different_arguments():
    # LLVM allows one phi entry per predecessor: the second edge needs its own block.
    text = """
    llvm.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
      llvm.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
    ^bb1(%v: i32):
      llvm.return %v : i32
    }
    """
    ir_text = translate_to_llvm_ir(parse_module(text, Context()))
    pick = compile_llvm_ir(ir_text).function(
        "pick", [ArgSpec("c", None, "bool"), ArgSpec("a", None, "int32"),
                 ArgSpec("b", None, "int32")], result="int32")
    assert pick(True, 3, 4) == 3
    assert pick(False, 3, 4) == 4


def test_an_op_without_llvm_form_is_a_located_error():
    module = parse_module('func.func @f() {\n  return\n}\n', Context())
    with pytest.raises(TranslationError) as info:
        translate_to_llvm_ir(module)
    assert "'func.func' cannot be converted to LLVM IR" in str(info.value)
    assert info.value.diagnostics[0].loc is not None


def _cli(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mlc.tools.translate", *argv], input=stdin,
                          capture_output=True, timeout=120)


def test_cli_emits_llvm_ir_assembly_and_objects(tmp_path):
    source = tmp_path / "k.mlir"
    source.write_text(lowered_by_mlir(SAXPY))
    ir = _cli(str(source))
    assert ir.returncode == 0, ir.stderr
    assert b'define void @saxpy(' in ir.stdout
    optimised = _cli(str(source), "-O3")
    assert optimised.returncode == 0, optimised.stderr
    assert b"fmul" in optimised.stdout and b"phi" not in optimised.stdout  # fully unrolled
    asm = _cli(str(source), "--emit-asm", "--target-cpu", "x86-64")
    assert asm.returncode == 0, asm.stderr
    assert b"saxpy:" in asm.stdout
    obj = tmp_path / "k.o"
    done = _cli(str(source), "--emit-obj", "-o", str(obj))
    assert done.returncode == 0, done.stderr
    assert obj.read_bytes()[:4] == b"\x7fELF"


def test_cli_errors_are_diagnostics_and_write_nothing(tmp_path):
    source = tmp_path / "f.mlir"
    source.write_text("func.func @f() {\n  return\n}\n")
    out = tmp_path / "out.ll"
    done = _cli(str(source), "-o", str(out))
    assert done.returncode == 1
    assert f"{source}:1:1: error: 'func.func' cannot be converted".encode() in done.stderr
    assert b"convert-to-llvm" in done.stderr  # the note says how to lower it
    assert not out.exists()
    bad_cpu = _cli(str(source), "--target-cpu", "no-such-cpu")
    assert bad_cpu.returncode == 1 and b"Traceback" not in bad_cpu.stderr
    syntax = _cli("-", stdin=b"llvm.func @f( {")
    assert syntax.returncode == 1 and b"<stdin>:1:" in syntax.stderr
