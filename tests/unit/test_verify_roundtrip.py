"""`--verify-roundtrip` (mlc.ir.verify.roundtrip): the IR printed and parsed back in
both forms must give back the same IR; a printer and parser that disagree are caught."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mlc.ir import Context, parse_module
from mlc.ir.dialects.func import FuncOp
from mlc.ir.verify.roundtrip import verify_roundtrip

MLC_OPT = Path(sys.executable).parent / "mlc-opt"

PROGRAM = """\
func.func private @decl(i32) -> i32
func.func @f(%a: i32 {my.note = 1 : i64}, %m: memref<4xf32>, %c: i1) -> i32 {
  %0 = arith.addi %a, %a overflow<nsw> : i32 loc("x.mlir":3:4)
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  %1 = scf.if %c -> i32 {
    scf.yield %0 : i32
  } else {
    %2 = call @decl(%0) : (i32) -> i32
    scf.yield %2 : i32
  }
  return %1 : i32
}
"""


def _module(text: str):
    ctx = Context()
    ctx.load_all_available()
    return parse_module(text, ctx), ctx


def test_valid_ir_round_trips():
    module, ctx = _module(PROGRAM)
    assert verify_roundtrip(module, ctx) == []


def test_a_parser_that_loses_an_attribute_is_caught(monkeypatch):
    parse = FuncOp.parse.__func__

    def lossy_parse(cls, p):
        op = parse(cls, p)
        op.attributes.pop("sym_visibility", None)
        return op

    module, ctx = _module("func.func private @helper() {\n  return\n}\n")
    monkeypatch.setattr(FuncOp, "parse", classmethod(lossy_parse))
    (diagnostic,) = verify_roundtrip(module, ctx)
    assert diagnostic.message.startswith("'builtin.module' op round-trip testing failed: its "
                                         "custom form parses back to different IR: line ")
    assert 'sym_visibility = "private"' in diagnostic.message


def test_mlc_opt_verify_roundtrip(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text("func.func @f(%a: i32) -> i32 {\n  %0 = arith.muli %a, %a : i32\n"
                      "  return %0 : i32\n}\n")
    done = subprocess.run([MLC_OPT, "--verify-roundtrip", source], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "arith.muli %a, %a : i32" in done.stdout
