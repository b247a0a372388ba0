"""arith folders: constant folding and the identities MLIR folds."""

import math

import pytest

from mlc.ir import Context, FloatAttr, IntegerAttr, f16, f32, i1, i8, i32, parse_module
from mlc.ir.core.attributes import bf16, float_to_bits
from mlc.ir.dialects import arith_constants


def _fold(text: str, op_name: str):
    """Fold the op named `op_name` in a function, given its operands' constant values."""
    module = parse_module(text, Context())
    op = next(o for o in module.walk() if o.name == op_name)
    constants = [arith_constants.constant_value_of(v) for v in op.operands]
    return op, op.fold(constants)


def _binary(op: str, type_: str, lhs: str, rhs: str):
    text = (f"func.func @f(%x: {type_}) -> {type_} {{\n"
            f"  %a = arith.constant {lhs} : {type_}\n" if lhs != "%x" else
            f"func.func @f(%x: {type_}) -> {type_} {{\n")
    lhs_name = "%a" if lhs != "%x" else "%x"
    if rhs != "%x":
        text += f"  %b = arith.constant {rhs} : {type_}\n"
    rhs_name = "%b" if rhs != "%x" else "%x"
    text += (f"  %r = arith.{op} {lhs_name}, {rhs_name} : {type_}\n"
             f"  return %r : {type_}\n}}\n")
    return _fold(text, f"arith.{op}")


@pytest.mark.parametrize("op,lhs,rhs,expected", [
    ("addf", "1.5", "2.25", 3.75),
    ("subf", "1.0", "0.5", 0.5),
    ("mulf", "3.0", "-2.0", -6.0),
    ("divf", "1.0", "4.0", 0.25),
    ("divf", "1.0", "0.0", math.inf),
    ("maximumf", "1.0", "2.0", 2.0),
    ("minimumf", "-0.0", "0.0", -0.0),
])
def test_float_constant_folding(op, lhs, rhs, expected):
    _, folded = _binary(op, "f32", lhs, rhs)
    assert folded == FloatAttr(float_to_bits(expected, f32), f32)


def test_float_folding_rounds_to_the_type():
    _, folded = _binary("addf", "f16", "1.0", "0.0001")
    assert folded == FloatAttr(float_to_bits(1.0001, f16), f16)
    _, folded = _binary("mulf", "bf16", "3.0", "3.0")
    assert folded == FloatAttr(float_to_bits(9.0, bf16), bf16)


@pytest.mark.parametrize("op,rhs", [("mulf", "1.0"), ("subf", "0.0"), ("addf", "-0.0"),
                                    ("divf", "1.0")])
def test_float_identities_return_the_operand(op, rhs):
    fold_op, folded = _binary(op, "f32", "%x", rhs)
    assert folded is fold_op.lhs


@pytest.mark.parametrize("op,rhs", [("addf", "0.0"), ("subf", "-0.0")])
def test_float_identities_that_are_not_identities(op, rhs):
    # x + 0.0 is not x for x = -0.0; x - (-0.0) likewise.
    _, folded = _binary(op, "f32", "%x", rhs)
    assert folded is None


@pytest.mark.parametrize("op,lhs,rhs,expected", [
    ("addi", "127", "1", -128),
    ("subi", "-128", "1", 127),
    ("muli", "16", "16", 0),
    ("divsi", "-7", "2", -3),
    ("remsi", "-7", "2", -1),
    ("divui", "-1", "2", 127),
    ("andi", "12", "10", 8),
    ("ori", "12", "10", 14),
    ("xori", "12", "10", 6),
])
def test_integer_constant_folding_wraps(op, lhs, rhs, expected):
    _, folded = _binary(op, "i8", lhs, rhs)
    assert folded == IntegerAttr(expected, i8)


def test_integer_division_by_zero_does_not_fold():
    assert _binary("divsi", "i32", "1", "0")[1] is None
    assert _binary("remui", "i32", "1", "0")[1] is None
    assert _binary("divsi", "i8", "-128", "-1")[1] is None  # overflows


@pytest.mark.parametrize("op,rhs,result", [
    ("addi", "0", "lhs"), ("subi", "0", "lhs"), ("muli", "1", "lhs"), ("muli", "0", "rhs"),
    ("andi", "-1", "lhs"), ("andi", "0", "rhs"), ("ori", "0", "lhs"), ("xori", "0", "lhs"),
    ("divsi", "1", "lhs"),
])
def test_integer_identities(op, rhs, result):
    fold_op, folded = _binary(op, "i32", "%x", rhs)
    expected = fold_op.lhs if result == "lhs" else arith_constants.constant_value_of(fold_op.rhs)
    assert folded == expected


def test_x_minus_x_and_x_xor_x_are_zero():
    for op in ("subi", "xori"):
        _, folded = _binary(op, "i32", "%x", "%x")
        assert folded == IntegerAttr(0, i32)


def test_comparisons_fold():
    text = ("func.func @f() -> i1 {\n  %a = arith.constant -1 : i32\n  %b = arith.constant 1 : i32\n"
            "  %r = arith.cmpi ult, %a, %b : i32\n  return %r : i1\n}\n")
    assert _fold(text, "arith.cmpi")[1] == IntegerAttr(0, i1)
    text = text.replace("ult", "slt")
    assert _fold(text, "arith.cmpi")[1] == IntegerAttr(1, i1)
    text = ("func.func @f() -> i1 {\n  %a = arith.constant 0x7FC00000 : f32\n"
            "  %b = arith.constant 1.0 : f32\n  %r = arith.cmpf une, %a, %b : f32\n"
            "  return %r : i1\n}\n")
    assert _fold(text, "arith.cmpf")[1] == IntegerAttr(1, i1)


def test_select_and_casts_fold():
    text = ("func.func @f(%x: f32, %y: f32) -> f32 {\n  %t = arith.constant true\n"
            "  %r = arith.select %t, %x, %y : f32\n  return %r : f32\n}\n")
    op, folded = _fold(text, "arith.select")
    assert folded is op.true_value
    text = ("func.func @f() -> f32 {\n  %a = arith.constant -3 : i32\n"
            "  %r = arith.sitofp %a : i32 to f32\n  return %r : f32\n}\n")
    assert _fold(text, "arith.sitofp")[1] == FloatAttr.from_value(-3.0, f32)
    text = ("func.func @f() -> i8 {\n  %a = arith.constant 300 : i32\n"
            "  %r = arith.trunci %a : i32 to i8\n  return %r : i8\n}\n")
    assert _fold(text, "arith.trunci")[1] == IntegerAttr(44, i8)


def test_splat_constants_fold_elementwise():
    text = ("func.func @f() -> tensor<4xf32> {\n  %a = arith.constant dense<2.0> : tensor<4xf32>\n"
            "  %b = arith.constant dense<3.0> : tensor<4xf32>\n"
            "  %r = arith.mulf %a, %b : tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n")
    folded = _fold(text, "arith.mulf")[1]
    assert folded.is_splat() and float(folded.array[0]) == 6.0
