"""mlc.ir.analysis.argument_access: which buffer arguments a function reads, writes or
both, from memory effects, through views and calls; what it cannot see counts as both."""

from __future__ import annotations

from pathlib import Path

from mlc.ir import Context, parse_module
from mlc.ir.analysis.argument_access import Access, ArgumentAccess
from mlc.ir.passes.registry import load_pass_plugins

R, W, RW, NONE = Access.READ, Access.WRITE, Access.READ_WRITE, Access.NONE

PROGRAM = """
func.func @copy_into_view(%src: memref<8xf32>, %dst: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %view = memref.subview %dst[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %v = memref.load %src[%c0] : memref<8xf32>
  memref.store %v, %view[%c0] : memref<4xf32, strided<[1], offset: 2>>
  return
}
func.func @caller(%a: memref<8xf32>, %b: memref<8xf32>, %unused: memref<8xf32>) {
  %c3 = arith.constant 3 : index
  call @copy_into_view(%a, %b, %c3) : (memref<8xf32>, memref<8xf32>, index) -> ()
  return
}
func.func private @annotated(memref<8xf32> {llvm.readonly}, memref<8xf32> {llvm.writeonly}, memref<8xf32>)
func.func @through_declarations(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  call @annotated(%a, %b, %c) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  return
}
func.func @copy(%a: memref<8xf32>, %b: memref<8xf32>) {
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  return
}
func.func @passed_into_a_region(%a: memref<8xf32>, %flag: i1) {
  %r = scf.if %flag -> memref<8xf32> {
    scf.yield %a : memref<8xf32>
  } else {
    scf.yield %a : memref<8xf32>
  }
  return
}
func.func @recursive(%a: memref<8xf32>, %flag: i1) {
  call @recursive(%a, %flag) : (memref<8xf32>, i1) -> ()
  return
}
func.func @unknown_op(%a: memref<8xf32>) {
  "test.mystery"(%a) : (memref<8xf32>) -> ()
  return
}
"""


def accesses(text: str) -> dict[str, list[Access]]:
    load_pass_plugins()
    context = Context(allow_unregistered=True)
    module = parse_module(text, context)
    analysis = ArgumentAccess(module)
    return {name: analysis.of(fn) for name, fn in analysis.functions.items()}


def test_effects_through_views_calls_and_declarations():
    found = accesses(PROGRAM)
    assert found["copy_into_view"] == [R, W, NONE]
    assert found["caller"] == [R, W, NONE]
    assert found["annotated"] == [R, W, RW]
    assert found["through_declarations"] == [R, W, RW]
    assert found["copy"] == [R, W]


def test_what_the_effects_do_not_describe_counts_as_both():
    found = accesses(PROGRAM)
    assert found["passed_into_a_region"] == [RW, NONE]
    assert found["recursive"] == [RW, NONE]
    assert found["unknown_op"] == [RW]


def test_loop_kernels():
    text = (Path(__file__).parents[2] / "examples" / "mm_relu.mlir").read_text()
    assert accesses(text)["main"] == [R, R, W]
