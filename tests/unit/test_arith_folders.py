"""arith folders: constant folding and the identities MLIR folds."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.ir import Context, FloatAttr, IntegerAttr, f16, f32, i1, i8, i32, parse_module
from mlc.ir.core.attributes import bf16, float_to_bits
from mlc.ir.dialects.arith import constants as arith_constants


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


# ---------------------------------------------------------------------- chains and dense comparisons


def _function_body(signature: str, body: str) -> str:
    """`func.func @f(<signature> {<body>}`: the signature closes the argument list."""
    return f"func.func @f({signature} {{\n  {body}\n}}\n"


def test_trunci_of_extension_folds_to_the_original_or_in_place():
    text = _function_body("%x: i8) -> i8", "%e = arith.extsi %x : i8 to i32\n"
                          "  %r = arith.trunci %e : i32 to i8\n  return %r : i8")
    op, folded = _fold(text, "arith.trunci")
    assert folded is op.operand(0).defining_op.input
    text = _function_body("%x: i32) -> i8", "%e = arith.extui %x : i32 to i64\n"
                          "  %r = arith.trunci %e : i64 to i8\n  return %r : i8")
    op, folded = _fold(text, "arith.trunci")
    # In place: the op's own result, now truncating %x itself.
    assert folded is op.out and op.input.defining_op is None
    text = _function_body("%x: i8) -> i16", "%e = arith.extsi %x : i8 to i32\n"
                          "  %r = arith.trunci %e : i32 to i16\n  return %r : i16")
    assert _fold(text, "arith.trunci")[1] is None  # a pattern's case (TruncIExtSIToExtSI)


@pytest.mark.parametrize("cast,types", [("extsi", ("i8", "i16", "i64")),
                                        ("extui", ("i8", "i16", "i64")),
                                        ("trunci", ("i64", "i16", "i8"))])
def test_a_chain_of_two_like_casts_folds_in_place(cast, types):
    a, b, c = types
    text = _function_body(f"%x: {a}) -> {c}", f"%e = arith.{cast} %x : {a} to {b}\n"
                          f"  %r = arith.{cast} %e : {b} to {c}\n  return %r : {c}")
    module = parse_module(text, Context())
    first, second = [o for o in module.walk() if o.name == f"arith.{cast}"]
    assert second.fold([None]) is second.out
    assert second.input is first.input


def test_a_chain_of_different_extensions_does_not_fold():
    text = _function_body("%x: i8) -> i64", "%e = arith.extui %x : i8 to i16\n"
                          "  %r = arith.extsi %e : i16 to i64\n  return %r : i64")
    assert _fold(text, "arith.extsi")[1] is None  # a pattern's case (ExtSIOfExtUI)


@pytest.mark.parametrize("inner,outer", [("%x, %a", "%t, %a"), ("%a, %x", "%t, %a"),
                                         ("%x, %a", "%a, %t"), ("%a, %x", "%a, %t")])
def test_xori_of_xori_with_a_shared_operand_is_the_other(inner, outer):
    text = _function_body("%x: i32, %a: i32) -> i32",
                          f"%t = arith.xori {inner} : i32\n  %r = arith.xori {outer} : i32\n"
                          "  return %r : i32")
    module = parse_module(text, Context())
    _, op = [o for o in module.walk() if o.name == "arith.xori"]
    assert op.fold([None, None]) is op.parent.args[0]


def test_select_of_true_and_false_is_the_condition_for_i1_only():
    text = _function_body("%c: i1) -> i1", "%t = arith.constant true\n  %f = arith.constant false\n"
                          "  %r = arith.select %c, %t, %f : i1\n  return %r : i1")
    op, folded = _fold(text, "arith.select")
    assert folded is op.condition
    text = _function_body("%c: i1) -> i1", "%t = arith.constant true\n  %f = arith.constant false\n"
                          "  %r = arith.select %c, %f, %t : i1\n  return %r : i1")
    assert _fold(text, "arith.select")[1] is None  # a pattern's case (SelectI1ToNot)


def _fold_comparison(op: str, predicate: str, lhs: str, rhs: str, count: int,
                     element: str) -> np.ndarray:
    """The folded value of `op predicate` on two dense vector constants, as an array."""
    vector = f"vector<{count}x{element}>"
    text = _function_body(
        f") -> vector<{count}xi1>",
        f"%a = arith.constant dense<{lhs}> : {vector}\n"
        f"  %b = arith.constant dense<{rhs}> : {vector}\n"
        f"  %r = arith.{op} {predicate}, %a, %b : {vector}\n  return %r : vector<{count}xi1>")
    folded = _fold(text, f"arith.{op}")[1]
    assert folded is not None
    return np.broadcast_to(folded.array, (count,))


_NUMPY_CMPI = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
               "sgt": np.greater, "sge": np.greater_equal}


@settings(max_examples=60)
@given(st.data(), st.sampled_from(sorted(_NUMPY_CMPI) + ["ult", "ule", "ugt", "uge"]))
def test_cmpi_folds_dense_constants_element_by_element(data, predicate):
    lhs = data.draw(st.lists(st.integers(-128, 127), min_size=1, max_size=8))
    rhs = data.draw(st.lists(st.integers(-128, 127), min_size=len(lhs), max_size=len(lhs)))
    folded = _fold_comparison("cmpi", predicate, str(lhs), str(rhs), len(lhs), "i8")
    a, b = np.array(lhs, np.int8), np.array(rhs, np.int8)
    if predicate[0] == "u":
        a, b = a.view(np.uint8), b.view(np.uint8)
        predicate = "s" + predicate[1:]
    np.testing.assert_array_equal(folded, _NUMPY_CMPI[predicate](a, b))


_NUMPY_CMPF = {"oeq": np.equal, "ogt": np.greater, "oge": np.greater_equal, "olt": np.less,
               "ole": np.less_equal, "one": np.not_equal}


def _dense_f32(values) -> str:
    """A dense literal; non-finite values as bit patterns, as MLIR writes them."""
    return "[" + ", ".join(repr(x) if math.isfinite(x) else
                           f"0x{int(np.float32(x).view(np.uint32)):08X}" for x in values) + "]"


@settings(max_examples=60)
@given(st.data(), st.sampled_from(sorted(_NUMPY_CMPF)), st.booleans())
def test_cmpf_folds_dense_constants_element_by_element(data, predicate, unordered):
    values = st.sampled_from([0.0, -0.0, 1.5, -2.0, math.inf, -math.inf, math.nan, 3.0])
    lhs = data.draw(st.lists(values, min_size=2, max_size=6))
    rhs = data.draw(st.lists(values, min_size=len(lhs), max_size=len(lhs)))
    name = ("u" + predicate[1:]) if unordered else predicate
    folded = _fold_comparison("cmpf", name, _dense_f32(lhs), _dense_f32(rhs), len(lhs), "f32")
    a, b = np.array(lhs, np.float32), np.array(rhs, np.float32)
    either_nan = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        ordered = _NUMPY_CMPF[predicate](a, b) & ~either_nan
    # An unordered predicate also holds where either side is NaN.
    np.testing.assert_array_equal(folded, (ordered | either_nan) if unordered else ordered)
