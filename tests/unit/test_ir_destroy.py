"""Operation.destroy and the drivers that use it: an erased op is freed by reference
counting as soon as nothing holds it, never left for Python's cyclic collector."""

import gc
import weakref
from contextlib import contextmanager

import pytest

from mlc.ir import Context, parse_module, verify
from mlc.ir.core.ir import IRError
from mlc.ir.passes.generic.canonicalize import canonicalization_patterns
from mlc.ir.rewrite.conversion import apply_full_conversion
from mlc.ir.rewrite.greedy import apply_patterns_greedily
from mlc.ir.testing.passes import legalize_test_setup

NESTED = """
func.func @f(%x: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i32) {
    %w = scf.execute_region -> i32 {
      %y = arith.addi %acc, %x : i32
      cf.br ^next(%y : i32)
    ^next(%z: i32):
      scf.yield %z : i32
    }
    scf.yield %w : i32
  }
  return %r : i32
}
"""


@contextmanager
def _no_cyclic_collection():
    """What reference counting frees inside the block is all that is freed."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _parse(text: str, dialects=None):
    module = parse_module(text, Context(dialects, allow_unregistered=True)
                          if dialects else Context())
    verify(module)
    return module


def _function(module):
    return module.regions[0].blocks[0].first_op


def test_a_destroyed_op_and_everything_in_it_are_freed_by_reference_counting():
    module = _parse(NESTED)
    function = _function(module)
    with _no_cyclic_collection():
        everything = [weakref.ref(op) for op in function.walk()]
        function.detach()
        function.destroy()
        del function
        assert [ref() for ref in everything if ref() is not None] == []
    # What was around it is untouched.
    assert module.regions[0].blocks[0].first_op is None
    verify(module)


def test_an_erased_op_is_a_cycle_until_destroyed():
    module = _parse(NESTED)
    with _no_cyclic_collection():
        function = _function(module)
        held = weakref.ref(function)
        function.erase()
        del function
        assert held() is not None  # erase alone leaves results and regions pointing back
        held().destroy()
        assert held() is None


def test_destroying_an_op_still_in_a_block_is_refused():
    module = _parse(NESTED)
    with pytest.raises(IRError, match="still in a block"):
        _function(module).destroy()


def test_the_greedy_driver_frees_what_it_erases():
    module = _parse("""
    func.func @f() -> i32 {
      %a = arith.constant 1 : i32
      %b = arith.constant 2 : i32
      %c = arith.addi %a, %b : i32
      %d = arith.muli %c, %b : i32
      return %d : i32
    }""")
    body = _function(module).regions[0].blocks[0]
    with _no_cyclic_collection():
        folded = [weakref.ref(op) for op in body.ops() if op.name in ("arith.addi", "arith.muli")]
        apply_patterns_greedily(module, canonicalization_patterns(Context(["arith"])))
        assert [op.name for op in body.ops()] == ["arith.constant", "func.return"]
        assert all(ref() is None for ref in folded)


def test_a_dialect_conversion_frees_what_it_replaced():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      %b = test.middle %a : i32 -> i32
      return %b : i32
    }""", ["test"])
    body = _function(module).regions[0].blocks[0]
    target, patterns, converter = legalize_test_setup()
    with _no_cyclic_collection():
        replaced = [weakref.ref(op) for op in body.ops() if op.name != "func.return"]
        assert apply_full_conversion(module, target, patterns, converter).success
        assert [op.name for op in body.ops()] == ["test.sink", "test.sink", "func.return"]
        assert all(ref() is None for ref in replaced)
    verify(module)
