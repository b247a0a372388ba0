"""math's two implementations agree: the interpreter (Python's math module in double
precision, rounded once) and the folders (the C library, as MLIR folds; checked bit for
bit against mlir-opt-22 by tests/property/test_math_folds_vs_mlir.py). The exact
functions agree exactly; the C library's f32 functions within one unit in the last
place. Poison is undefined as soon as it is made."""

import math

import pytest

from mlc.ir import Context, parse_module
from mlc.ir.core.attributes import FloatAttr, FloatType, bits_to_float, float_to_bits
from mlc.ir.interpreter import UndefinedBehavior, evaluate
from mlc.ir.passes.manager import run_pipeline

VALUES = [0.0, -0.0, 0.5, -0.5, 1.0, -2.5, 2.5, 3.75, -7.0, 100.0, 1e-3, math.inf, -math.inf,
          math.nan, 1e30]
EXACT = ("absf", "floor", "ceil", "round", "roundeven", "sqrt")
LIBM = ("sin", "cos", "exp", "exp2", "log", "log2", "tanh", "erf", "tan", "asin", "acos",
        "atan", "sinh", "cosh", "asinh", "acosh", "atanh")


def _folded(op: str, type_: str, values: list[float]):
    """What canonicalize makes of `op` on constants: a float, or None if it stays."""
    constants = "".join(f"  %a{i} = arith.constant {float_to_bits(v, FloatType(type_)):#x} : "
                        f"{type_}\n" for i, v in enumerate(values))
    names = ", ".join(f"%a{i}" for i in range(len(values)))
    module = parse_module(f"func.func @f() -> {type_} {{\n{constants}"
                          f"  %r = math.{op} {names} : {type_}\n  return %r : {type_}\n}}\n",
                          Context())
    assert run_pipeline(module, "canonicalize").success
    func = next(op for op in module.walk() if op.name == "func.func")
    returned = list(func.regions[0].blocks[0].ops())[-1].operand(0).defining_op
    if returned.name != "arith.constant":
        return None
    attr = returned.attributes["value"]
    assert isinstance(attr, FloatAttr)
    return bits_to_float(attr.bits, attr.type)


def _interpreted(op: str, type_: str, values: list[float]) -> float:
    args = ", ".join(f"%a{i}: {type_}" for i in range(len(values)))
    names = ", ".join(f"%a{i}" for i in range(len(values)))
    module = parse_module(f"func.func @f({args}) -> {type_} {{\n"
                          f"  %r = math.{op} {names} : {type_}\n  return %r : {type_}\n}}\n",
                          Context())
    return evaluate(module, "f", values)[0]


def _ulps_apart(a: float, b: float, type_: str) -> int:
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else 1 << 40
    if a == b:
        return 0
    key = FloatType(type_)
    bits_a, bits_b = float_to_bits(a, key), float_to_bits(b, key)
    width = key.width
    sign = 1 << (width - 1)

    def ordered(bits: int) -> int:
        return -(bits & (sign - 1)) if bits & sign else bits

    return abs(ordered(bits_a) - ordered(bits_b))


@pytest.mark.parametrize("type_", ["f32", "f64"])
@pytest.mark.parametrize("op", EXACT + LIBM)
def test_interpreter_agrees_with_the_folder(op, type_):
    tolerance = 0 if op in EXACT or type_ == "f64" and op in ("exp2",) else 1
    for value in VALUES:
        folded = _folded(op, type_, [value])
        if folded is None:  # log/sqrt of a negative constant: MLIR does not fold
            assert value < 0 or math.copysign(1.0, value) < 0 or math.isnan(value), (op, value)
            continue
        interpreted = _interpreted(op, type_, [value])
        assert _ulps_apart(folded, interpreted, type_) <= tolerance, (op, value, folded,
                                                                      interpreted)
        if folded == 0.0:  # the sign of a zero
            assert math.copysign(1.0, folded) == math.copysign(1.0, interpreted), (op, value)


@pytest.mark.parametrize("op", ["powf", "copysign"])
def test_binary_ops_agree(op):
    for a in VALUES:
        for b in VALUES:
            folded = _folded(op, "f64", [a, b])
            assert folded is not None
            interpreted = _interpreted(op, "f64", [a, b])
            assert _ulps_apart(folded, interpreted, "f64") <= (1 if op == "powf" else 0), \
                (op, a, b, folded, interpreted)


def test_fma_rounds_once():
    # 1 + 2**-30 squared is 1 + 2**-29 + 2**-60: the last term is lost by a rounded
    # product, kept by a fused one, so the result differs from -(1 + 2**-29) by 2**-60.
    x = 1.0 + 2.0 ** -30
    assert _interpreted("fma", "f64", [x, x, -(1.0 + 2.0 ** -29)]) == 2.0 ** -60
    assert _folded("fma", "f64", [x, x, 1.0]) is None  # MLIR does not fold fma


def test_fastmath_nnan_makes_a_nan_undefined():
    module = parse_module("func.func @f(%x: f32) -> f32 {\n"
                          "  %r = math.sqrt %x fastmath<nnan> : f32\n  return %r : f32\n}\n",
                          Context())
    assert evaluate(module, "f", [4.0]) == [2.0]
    with pytest.raises(UndefinedBehavior):
        evaluate(module, "f", [-1.0])


def test_poison_is_undefined_when_made():
    module = parse_module("func.func @f() -> i32 {\n  %p = ub.poison : i32\n"
                          "  return %p : i32\n}\n", Context())
    with pytest.raises(UndefinedBehavior):
        evaluate(module, "f", [])


def _integer_case(op: str, type_: str, base: int, exponent: int) -> tuple:
    text = (f"func.func @f(%a: {type_}, %b: {type_}) -> {type_} {{\n"
            f"  %r = math.{op} %a, %b : {type_}\n  return %r : {type_}\n}}\n")
    folded_text = (f"func.func @f() -> {type_} {{\n  %a = arith.constant {base} : {type_}\n"
                   f"  %b = arith.constant {exponent} : {type_}\n"
                   f"  %r = math.{op} %a, %b : {type_}\n  return %r : {type_}\n}}\n")
    module = parse_module(folded_text, Context())
    assert run_pipeline(module, "canonicalize").success
    func = next(op for op in module.walk() if op.name == "func.func")
    returned = list(func.regions[0].blocks[0].ops())[-1].operand(0).defining_op
    folded = returned.attributes["value"].value if returned.name == "arith.constant" else None
    return parse_module(text, Context()), folded


@pytest.mark.parametrize("type_, width", [("i8", 8), ("i32", 32), ("index", 64)])
def test_ipowi_interpreter_agrees_with_the_folder_and_python(type_, width):
    for base in (0, 1, -1, 2, -2, 3, 7, -128, 127):
        for exponent in (0, 1, 2, 3, 7, 8, 9, 63, -1, -2, -3):
            module, folded = _integer_case("ipowi", type_, base, exponent)
            if exponent < 0 and base == 0:
                assert folded is None  # a division by zero: MLIR does not fold it
                with pytest.raises(UndefinedBehavior, match="negative power"):
                    evaluate(module, "f", [base, exponent])
                continue
            if exponent >= 0:
                exact = base ** exponent
            else:
                exact = 1 if base == 1 else (-1) ** (-exponent) if base == -1 else 0
            wrapped = (exact + (1 << (width - 1))) % (1 << width) - (1 << (width - 1))
            assert folded == wrapped, (base, exponent)
            assert evaluate(module, "f", [base, exponent]) == [wrapped], (base, exponent)
