"""The --check-semantics instrument from Python: a pass that changes a result fails
the pipeline there, naming it; what cannot be checked is said, not hidden."""

import numpy as np
import pytest

import mlc.ir.testing.passes  # noqa: F401  (test-miscompile-addi)
from mlc.ir import parse_module
from mlc.ir.passes.check_semantics import CheckSemantics
from mlc.ir.passes.context import PassContext
from mlc.ir.passes.manager import run_pipeline


def run_checked(text: str, pipeline: str, seed: int = 0):
    warnings: list[str] = []
    instrument = CheckSemantics(seed=seed, warn=warnings.append)
    with PassContext(instruments=[instrument]):
        result = run_pipeline(parse_module(text), pipeline)
    return result, warnings, instrument


OFFSET = """
func.func @offset(%x: i32, %v: vector<2xi32>) -> (i32, vector<2xi32>) {
  %c5 = arith.constant 5 : i32
  %y = arith.addi %x, %c5 : i32
  %w = arith.muli %v, %v : vector<2xi32>
  return %y, %w : i32, vector<2xi32>
}
"""


def test_a_changed_result_fails_at_the_pass_that_changed_it():
    result, warnings, _ = run_checked(OFFSET, "canonicalize,cse,test-miscompile-addi,cse")
    assert not result.success and not warnings
    (error,) = [d for d in result.diagnostics if d.severity == "error"]
    assert error.message.startswith("--check-semantics: pass 'test-miscompile-addi' changed "
                                    "what @offset computes on seeded random arguments (seed 0): "
                                    "output #0 was ")


def test_passes_that_keep_results_pass_and_memref_outputs_are_compared():
    kernel = """
    func.func @scale(%X: memref<3xf32>, %Y: memref<3xf32>) {
      loop.for %i = 0 to 3 {
        loop.block "Y"(%vi = spatial(3, %i)) {
          %x = loop.load %X[%vi] : memref<3xf32>
          %y = arith.addf %x, %x : f32
          loop.store %y, %Y[%vi] : memref<3xf32>
        }
      }
      return
    }"""
    result, warnings, instrument = run_checked(kernel, "canonicalize,cse", seed=4)
    assert result.success and not warnings
    (checked,) = instrument.checked.values()
    x = checked.arguments[0]
    np.testing.assert_array_equal(checked.reference[1], x + x)


def test_what_cannot_be_checked_is_said():
    text = """
    func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
      return %x : tensor<?xf32>
    }
    func.func @divide(%x: i32) -> i32 {
      %z = arith.constant 0 : i32
      %q = arith.divsi %x, %z : i32
      return %q : i32
    }"""
    result, warnings, instrument = run_checked(text, "canonicalize")
    assert result.success and not instrument.checked
    assert warnings[0] == ("--check-semantics does not check @dynamic: arguments of type "
                           "tensor<?xf32> are not supported")
    assert warnings[1].startswith("--check-semantics does not check @divide: on its random "
                                  "arguments, ")
    assert "division by zero" in warnings[1]


def test_a_negative_seed_is_a_usage_error(capsys):
    from mlc.tools import opt

    with pytest.raises(SystemExit) as exit_:
        opt.main(["examples/simplify.mlir", "--check-semantics=-3", "-p", "canonicalize"])
    err = capsys.readouterr().err
    assert exit_.value.code == 1 and "argument --check-semantics: invalid seed value: '-3'" in err
    assert "internal error" not in err
