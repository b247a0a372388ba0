"""convert-scf-to-cf beyond its lit cases: the rewriter's block operations it rests
on, their undoing when a conversion fails, its patterns reused with another target,
and its diagnostics through mlc-opt."""

import subprocess
import sys
from pathlib import Path

from mlc.ir import Context, parse_module, print_op, verify
from mlc.ir.core.attributes import i32
from mlc.ir.core.ir import Block, IRError, Region
from mlc.ir.dialects.arith import MulIOp
from mlc.ir.dialects.scf import ForOp, IfOp, IndexSwitchOp, WhileOp
from mlc.ir.interpreter import evaluate
from mlc.ir.passes.conversion.scf_to_cf import LOWERED_OPS, scf_to_cf_patterns, scf_to_cf_target
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.rewrite.conversion import ConversionTarget, apply_partial_conversion
from mlc.ir.rewrite.rewriter import Rewriter

MLC_OPT = Path(sys.executable).parent / "mlc-opt"

EVERY_OP = """\
func.func @main(%a: i32, %c: i1, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) {
    %x = scf.if %c -> (i32) {
      %s = arith.addi %acc, %a : i32
      scf.yield %s : i32
    } else {
      scf.yield %acc : i32
    }
    scf.yield %x : i32
  }
  %w:2 = scf.while (%k = %n, %v = %r) : (index, i32) -> (index, i32) {
    %go = arith.cmpi sgt, %k, %c0 : index
    scf.condition(%go) %k, %v : index, i32
  } do {
  ^bb0(%k2: index, %v2: i32):
    %next = arith.subi %k2, %c1 : index
    %doubled = arith.addi %v2, %v2 : i32
    scf.yield %next, %doubled : index, i32
  }
  %p = scf.parallel (%j) = (%c0) to (%n) step (%c1) init (%w#1) -> i32 {
    %jj = arith.index_cast %j : index to i32
    scf.reduce(%jj : i32) {
    ^bb0(%lhs: i32, %rhs: i32):
      %sum = arith.addi %lhs, %rhs : i32
      scf.reduce.return %sum : i32
    }
  }
  %e = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %p : i32
  ^bb2:
    %m = arith.muli %p, %p : i32
    scf.yield %m : i32
  }
  %sw = scf.index_switch %n -> i32
  case 1 {
    scf.yield %e : i32
  }
  default {
    scf.yield %a : i32
  }
  return %sw : i32
}
"""


def test_split_block_moves_the_tail_into_a_block_after_it():
    module = parse_module(EVERY_OP, Context())
    func = next(op for op in module.walk() if op.name == "func.func")
    entry = func.regions[0].blocks[0]
    loop = next(op for op in entry.ops() if isinstance(op, ForOp))
    ops_before = [op for op in entry.ops()][:2]
    rewriter = Rewriter()
    rewriter.set_insertion_point_before(loop)
    tail = rewriter.split_block(entry, loop)
    assert func.regions[0].blocks == [entry, tail]
    assert list(entry.ops()) == ops_before
    assert tail.first_op is loop and tail.args == []
    # The insertion point, before the op that moved, is now the end of the block.
    assert (rewriter.block, rewriter.before) == (entry, None)


def test_split_block_checks_its_arguments():
    rewriter = Rewriter()
    block = Block()
    try:
        rewriter.split_block(block, None)
    except IRError as error:
        assert "not in a region" in str(error)
    else:
        raise AssertionError("a block outside a region was split")


def test_create_block_before_and_block_arguments():
    region = Region([Block(), Block()])
    first, last = region.blocks
    rewriter = Rewriter()
    new = rewriter.create_block_before(last, [i32, i32])
    assert region.blocks == [first, new, last]
    assert [a.type for a in new.args] == [i32, i32]
    assert (rewriter.block, rewriter.before) == (new, None)
    arg = rewriter.add_block_argument(last, i32)
    assert last.args == [arg] and arg.index == 0


def test_a_failed_conversion_undoes_every_split_and_inlined_region():
    module = parse_module(EVERY_OP, Context())
    original = print_op(module)
    target = scf_to_cf_target()
    target.add_illegal_op(MulIOp)  # nothing lowers it: the conversion must fail at the end
    result = apply_partial_conversion(module, target, scf_to_cf_patterns())
    assert not result.success
    assert [d.message for d in result.diagnostics] == [
        "failed to legalize operation 'arith.muli' that was explicitly marked illegal"]
    assert print_op(module) == original
    verify(module)
    assert evaluate(module, "main", [3, True, 2]) == evaluate(
        parse_module(EVERY_OP, Context()), "main", [3, True, 2])


def test_the_pass_lowers_every_structured_op_and_keeps_the_results():
    module = parse_module(EVERY_OP, Context())
    expected = [evaluate(module, "main", args) for args in ([3, True, 2], [-7, False, 4])]
    assert run_pipeline(module, "convert-scf-to-cf").success
    verify(module)
    names = {op.name for op in module.walk()}
    assert not names & {cls.op_def.name for cls in LOWERED_OPS}
    assert {"cf.br", "cf.cond_br", "cf.switch"} <= names
    assert [evaluate(module, "main", args) for args in ([3, True, 2], [-7, False, 4])] == expected


def test_the_patterns_lower_only_what_a_target_makes_illegal():
    module = parse_module(EVERY_OP, Context())
    target = ConversionTarget()
    target.add_illegal_op(WhileOp, IndexSwitchOp)
    assert apply_partial_conversion(module, target, scf_to_cf_patterns()).success
    verify(module)
    names = [op.name for op in module.walk()]
    assert "scf.while" not in names and "scf.index_switch" not in names
    assert "scf.for" in names and "scf.if" in names and "cf.switch" in names


def test_an_op_in_a_region_of_one_block_is_refused_and_nothing_changes():
    # The if sits in the body of an scf.for the target leaves alone.
    module = parse_module(EVERY_OP, Context())
    original = print_op(module)
    target = ConversionTarget()
    target.add_illegal_op(IfOp)
    result = apply_partial_conversion(module, target, scf_to_cf_patterns())
    assert not result.success
    assert [(d.message, d.loc.line) for d in result.diagnostics] == [
        ("failed to legalize operation 'scf.if' that was explicitly marked illegal", 5)]
    assert print_op(module) == original


def test_mlc_opt_names_an_op_it_cannot_lower_without_a_traceback(tmp_path):
    source = tmp_path / "module_level.mlir"
    source.write_text("%c = arith.constant true\nscf.if %c {\n}\n", encoding="utf-8")
    result = subprocess.run([str(MLC_OPT), str(source), "--convert-scf-to-cf"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(
        f"{source}:2:1: error: 'scf.if' cannot be lowered to cf here: its blocks would land "
        "in a region of 'builtin.module', which holds a single block")
    assert "Traceback" not in result.stderr
