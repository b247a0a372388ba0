"""Splat constants of any shape cost one element: they parse, print, compare, hash
and fold without their elements being materialised, as in MLIR. The command-line
tests run mlc-opt with its address space capped far below what one expanded tensor
would need, so materialising one anywhere fails the test."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mlc.graph.passes.fold_constant import fold_constants
from mlc.ir import DenseElementsAttr, RankedTensorType, f32, i1, i8, parse_module, print_op

MLC_OPT = Path(sys.executable).parent / "mlc-opt"
HUGE = "tensor<100000x100000xf32>"  # 40 GB if expanded
ADDRESS_SPACE = 3 << 30  # bytes


def run_capped(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return subprocess.run([str(MLC_OPT), str(path), *flags], capture_output=True, text=True,
                          preexec_fn=cap, timeout=120)


PROGRAM = f"""\
func.func @f(%x: {HUGE}) -> ({HUGE}, tensor<f32>, tensor<10000000000xf32>, {HUGE}, tensor<100000x100000xi1>) {{
  %one = graph.constant dense<1.0> : {HUGE}
  %two = graph.constant dense<"0x00000040"> : {HUGE}
  %three = graph.add %one, %two : ({HUGE}, {HUGE}) -> {HUGE}
  %neg = graph.neg %three : {HUGE}
  %scaled = graph.multiply %x, %neg : ({HUGE}, {HUGE}) -> {HUGE}
  %same = graph.multiply %scaled, %one : ({HUGE}, {HUGE}) -> {HUGE}
  %total = graph.sum %one : {HUGE} -> tensor<f32>
  %flat = graph.reshape %two {{shape = array<i64: 10000000000>}} : {HUGE} -> tensor<10000000000xf32>
  %a = arith.addf %one, %one : {HUGE}
  %t = arith.constant dense<true> : tensor<100000x100000xi1>
  return %same, %total, %flat, %a, %t : {HUGE}, tensor<f32>, tensor<10000000000xf32>, {HUGE}, tensor<100000x100000xi1>
}}
"""


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "huge.mlir"
    path.write_text(PROGRAM)
    return path


def test_huge_splats_round_trip_without_materialising(program: Path) -> None:
    result = run_capped(program)
    assert result.returncode == 0, result.stderr
    assert f"graph.constant dense<1.000000e+00> : {HUGE}" in result.stdout
    assert f"graph.constant dense<2.000000e+00> : {HUGE}" in result.stdout  # hex splat read as a splat
    generic = run_capped(program, "--print-op-generic", "--print-elementsattrs-with-hex-if-larger", "1")
    assert generic.returncode == 0, generic.stderr
    assert f"dense<1.000000e+00> : {HUGE}" in generic.stdout  # a splat is never spelled in hex


def test_fold_constant_keeps_splats_splats_and_refuses_expansions(program: Path) -> None:
    result = run_capped(program, "--graph-fold-constant", "--pass-statistics")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # add then negative of splats fold to one splat; the multiply by x stays.
    assert f"graph.constant dense<-3.000000e+00> : {HUGE}" in out
    assert "graph.add" not in out and "graph.neg" not in out
    # A reshape copies elements: the same splat, at the new shape.
    assert "graph.constant dense<2.000000e+00> : tensor<10000000000xf32>" in out
    assert "graph.reshape" not in out
    # A sum of a huge splat would expand it: refused by the growth limit.
    assert "graph.sum" in out
    assert "(1) num-too-large" in result.stderr
    assert "(3) num-folded" in result.stderr


def test_graph_optimize_and_canonicalize_on_huge_splats(program: Path) -> None:
    optimized = run_capped(program, "-p", "graph-optimize")
    assert optimized.returncode == 0, optimized.stderr
    # x * 1 is gone (canonicalization reads the splat's one element), arith.addf of
    # two splats folds to a splat, and the fused kernels take the splat as a parameter.
    assert f"arith.constant dense<2.000000e+00> : {HUGE}" in optimized.stdout
    assert f"graph.constant dense<-3.000000e+00> : {HUGE}" in optimized.stdout
    assert "graph.multiply %p0, %p1" in optimized.stdout
    assert optimized.stdout.count("graph.multiply") == 1
    canonical = run_capped(program, "--canonicalize", "--cse")
    assert canonical.returncode == 0, canonical.stderr


def test_a_splat_stores_one_element() -> None:
    type_ = RankedTensorType((100000, 100000), f32)
    attr = DenseElementsAttr.from_array(1.5, type_)
    assert attr.array.shape == (100000, 100000) and attr.array.strides == (0, 0)
    assert attr.is_splat() and attr.splat_element() == np.float32(1.5)
    assert DenseElementsAttr.from_array(np.broadcast_to(np.float64(1.5), (100000, 100000)), type_) == attr
    assert DenseElementsAttr.from_array(2.5, type_) != attr


def test_splats_compare_and_hash_like_their_expanded_form() -> None:
    type_ = RankedTensorType((3, 4), i8)
    splat = DenseElementsAttr.from_array(7, type_)
    expanded = DenseElementsAttr.from_array(np.full((3, 4), 7), type_)
    assert expanded.array.strides != (0, 0)  # stored element by element
    assert splat == expanded and expanded == splat and hash(splat) == hash(expanded)
    other = DenseElementsAttr.from_array(np.arange(12).reshape(3, 4), type_)
    assert splat != other and other != splat
    assert DenseElementsAttr.from_array(7, RankedTensorType((12,), i8)) != splat  # type differs
    assert not DenseElementsAttr.from_array(np.zeros((0, 2)), RankedTensorType((0, 2), i1)).is_splat()


def test_splat_folds_equal_the_expanded_computation() -> None:
    # Broadcasting splats of different shapes: the one-element evaluation broadcast
    # to the result must be what numpy computes on the expanded operands.
    module = parse_module("""
func.func @f() -> tensor<4x3xf32> {
  %a = graph.constant dense<1.5> : tensor<1x3xf32>
  %b = graph.constant dense<-4.0> : tensor<4x1xf32>
  %c = graph.subtract %a, %b : (tensor<1x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %d = graph.sigmoid %c : tensor<4x3xf32>
  return %d : tensor<4x3xf32>
}
""")
    report = fold_constants(module)
    assert report.folded == 2
    text = print_op(module)
    expected = np.float32(1 / (1 + np.exp(-5.5)))
    [constant] = [op for op in module.walk() if op.name == "graph.constant"]
    assert constant.value.is_splat() and constant.value.array.strides == (0, 0)
    assert constant.value.splat_element() == expected
    assert "tensor<4x3xf32>" in text


def test_ops_that_copy_elements_keep_one_splat_and_compute_the_rest() -> None:
    # transpose, tile, concat and split of one splat fold to that splat without
    # computing; pad (a new value) and concat of two different splats are computed.
    # Every result equals the interpreter's on the unfolded program.
    from mlc.graph import evaluate

    text = """
func.func @main() -> (tensor<3x2xi32>, tensor<4x6xi32>, tensor<6x2xi32>, tensor<1x2xi32>, tensor<4x3xi32>, tensor<4x2xi32>) {
  %a = graph.constant dense<7> : tensor<2x3xi32>
  %b = graph.constant dense<-1> : tensor<2x2xi32>
  %t = graph.transpose %a {axes = array<i64: 1, 0>} : tensor<2x3xi32> -> tensor<3x2xi32>
  %r = graph.tile %a {repeats = array<i64: 2, 2>} : tensor<2x3xi32> -> tensor<4x6xi32>
  %c = graph.concat %t, %t {axis = 0 : i64} : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<6x2xi32>
  %s:2 = graph.split %b {axis = 0 : i64, sections = array<i64: 1, 1>} : (tensor<2x2xi32>) -> (tensor<1x2xi32>, tensor<1x2xi32>)
  %p = graph.pad %a {pads = array<i64: 1, 0, 1, 0>, value = 0.0 : f64} : tensor<2x3xi32> -> tensor<4x3xi32>
  %d = graph.constant dense<3> : tensor<2x2xi32>
  %m = graph.concat %b, %d {axis = 0 : i64} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  return %t, %r, %c, %s#0, %p, %m : tensor<3x2xi32>, tensor<4x6xi32>, tensor<6x2xi32>, tensor<1x2xi32>, tensor<4x3xi32>, tensor<4x2xi32>
}
"""
    module = parse_module(text)
    expected = evaluate(module, [])
    report = fold_constants(module)
    assert report.folded == 6 and report.too_large == 0
    constants = {op.results[0].name_hint: op.value for op in module.walk() if op.name == "graph.constant"}
    assert all(constants[name].array.strides == (0, 0) for name in ("t", "r", "c", "s"))
    assert not constants["p"].is_splat() and not constants["m"].is_splat()
    for got, want in zip(evaluate(module, []), expected, strict=True):
        np.testing.assert_array_equal(got, want)
