"""The llvm dialect against MLIR's own tools, on the lit tests' inputs, which together
use every op of the dialect:

- mlir-opt-22 reads mlc's custom and generic output as the same IR:
  `mlir-opt(mlc-opt(x)) == mlir-opt(x)`, in custom and in generic form;
- mlc prints what mlir-opt prints, byte for byte: `mlc-opt(mlir-opt(x)) == mlir-opt(x)`;
- mlir-translate-22 translates mlc's generic output to LLVM IR.

Without mlir-opt these skip (and fail in CI), as the other interop tests do.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_mlir_interop import mlc, mlir, require_mlir_opt, run_tool  # noqa: E402

from mlc.ir import Context  # noqa: E402

INPUTS = Path(__file__).parents[1] / "filecheck" / "llvm"
FILES = ("arith.mlir", "func.mlir", "memory.mlir", "intrinsics.mlir")


@pytest.fixture(scope="module")
def mlir_opt() -> str:
    return require_mlir_opt()


def _same(a: str, b: str) -> bool:
    # mlir-opt ends its output with an empty line, mlc with the last one.
    return a.rstrip("\n") == b.rstrip("\n")


@pytest.mark.parametrize("name", FILES)
def test_mlir_reads_our_custom_and_generic(mlir_opt, name):
    path = INPUTS / name
    theirs = mlir(mlir_opt, path)
    assert _same(mlir(mlir_opt, mlc(path)), theirs)
    assert _same(mlir(mlir_opt, mlc(path, "--print-op-generic")), theirs)
    assert _same(mlir(mlir_opt, mlc(path, "--print-op-generic"), "--mlir-print-op-generic"),
                 mlir(mlir_opt, path, "--mlir-print-op-generic"))


@pytest.mark.parametrize("name", FILES)
def test_we_print_what_mlir_prints(mlir_opt, name):
    theirs = mlir(mlir_opt, INPUTS / name)
    assert _same(mlc(theirs), theirs)
    generic = mlir(mlir_opt, INPUTS / name, "--mlir-print-op-generic")
    assert _same(mlc(generic), theirs)


@pytest.mark.parametrize("name", FILES)
def test_mlir_translate_accepts_our_generic(mlir_opt, name):
    translate = shutil.which("mlir-translate-22") or shutil.which("mlir-translate")
    if translate is None:
        pytest.skip("mlir-translate-22 is not on PATH")
    llvm_ir = run_tool([translate, "--mlir-to-llvmir"],
                       stdin=mlc(INPUTS / name, "--print-op-generic"))
    assert "define " in llvm_ir


def test_the_inputs_use_every_op():
    """The files above cover the dialect: a new op needs a case there."""
    text = "".join((INPUTS / name).read_text() for name in FILES)
    ops = Context(["llvm"]).dialects["llvm"].ops
    # A name followed by anything but more of a name (`llvm.intr.exp` is no use of
    # `llvm.intr.exp2`, nor `llvm.intr.exp2` of `llvm.intr.exp`).
    unused = sorted(name for name in ops if not re.search(re.escape(name) + r"(?![\w.])", text))
    assert not unused
