"""mlc folds math's ops on constants exactly as mlir-opt-22's canonicalizer does.

Each case is a function applying one op to constants; one mlir-opt process runs a
batch, and every function must return the same thing from both: the same constant bit
for bit (NaN sign and payload, -0.0), or the op left unfolded (MLIR folds the C
library's functions on f32 and f64 only, log/log2/sqrt on non-negative constants only,
and rsqrt and fma not at all).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .test_arith_folds_vs_mlir import F16_SPECIAL, F32_SPECIAL, _check_text

UNARY_OPS = ("math.absf", "math.sin", "math.cos", "math.exp", "math.exp2", "math.log",
             "math.log2", "math.tanh", "math.sqrt", "math.rsqrt", "math.erf", "math.floor",
             "math.ceil", "math.round", "math.roundeven", "math.tan", "math.asin", "math.acos",
             "math.atan", "math.sinh", "math.cosh", "math.asinh", "math.acosh", "math.atanh",
             "math.expm1", "math.log1p")
BINARY_OPS = ("math.powf", "math.copysign")

F32_ROUNDING = [0x3F000000, 0xBF000000,  # +-0.5: ties of round, floor/ceil to zeros
                0x3FC00000, 0xC0200000,  # 1.5, -2.5
                0x4B000001, 0x4EFFFFFF,  # beyond 2**23: already integral
                0x40490FDB, 0x42C80000]  # pi, 100
F64_SPECIAL = [0x0000000000000000, 0x8000000000000000, 0x3FF0000000000000, 0xBFE0000000000000,
               0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000001, 0x7FF0000000000001,
               0x0000000000000001, 0x7FEFFFFFFFFFFFFF, 0x400921FB54442D18, 0xC004000000000000]


def _literal(bits: int, type_: str) -> str:
    digits = {"f16": 4, "bf16": 4, "f32": 8, "f64": 16}[type_]
    return f"0x{bits:0{digits}X}"


def _check(mlir_opt: str, batch: list[tuple[str, str, tuple[int, ...]]]) -> None:
    """Each case: (op, type, operand bit patterns)."""
    functions = []
    for index, (op, type_, operands) in enumerate(batch):
        lines = [f"    %a{i} = arith.constant {_literal(b, type_)} : {type_}\n"
                 for i, b in enumerate(operands)]
        names = ", ".join(f"%a{i}" for i in range(len(operands)))
        functions.append(f"  func.func @case{index}() -> {type_} {{\n" + "".join(lines)
                         + f"    %r = {op} {names} : {type_}\n    return %r : {type_}\n  }}\n")
    _check_text(mlir_opt, "module {\n" + "".join(functions) + "}\n", batch)


def test_special_values_fold_as_mlir_opt(mlir_opt):
    batch = []
    for op in UNARY_OPS:
        batch += [(op, "f32", (v,)) for v in F32_SPECIAL + F32_ROUNDING]
        batch += [(op, "f64", (v,)) for v in F64_SPECIAL]
        batch += [(op, "f16", (v,)) for v in F16_SPECIAL]
        batch += [(op, "bf16", (v,)) for v in (0x3FC0, 0xBF00, 0x7FC1, 0xFF80)]
    for op in BINARY_OPS:
        values = F32_SPECIAL[:12] + F32_ROUNDING[:4]
        batch += [(op, "f32", (a, b)) for a in values for b in values]
        batch += [(op, "f16", (a, b)) for a in F16_SPECIAL[:6] for b in F16_SPECIAL[:6]]
    batch += [("math.fma", "f32", (0x3F800000, 0x40000000, 0x40400000))]
    _check(mlir_opt, batch)


@st.composite
def cases(draw) -> tuple[str, str, tuple[int, ...]]:
    op = draw(st.sampled_from(UNARY_OPS + BINARY_OPS))
    type_ = draw(st.sampled_from(("f32", "f64")))
    width = 32 if type_ == "f32" else 64
    count = 2 if op in BINARY_OPS else 1
    return op, type_, tuple(draw(st.integers(0, (1 << width) - 1)) for _ in range(count))


@settings(max_examples=20)
@given(st.lists(cases(), min_size=40, max_size=80))
def test_random_values_fold_as_mlir_opt(mlir_opt, batch):
    _check(mlir_opt, batch)


def test_integer_powers_fold_as_mlir_opt(mlir_opt):
    # math.ipowi: wrapping powers, negative exponents truncated, 0 to one left alone.
    values = {"i8": (0, 1, -1, 2, -2, 3, -128, 127, 8, -9),
              "i32": (0, 1, -1, 3, -3, 31, 32, -2147483648, 2147483647, -40),
              "index": (0, 1, -1, 5, -7, 63, 64, -65)}
    functions, batch = [], []
    for type_, operands in values.items():
        for a in operands:
            for b in operands:
                functions.append(
                    f"  func.func @case{len(batch)}() -> {type_} {{\n"
                    f"    %a = arith.constant {a} : {type_}\n    %b = arith.constant {b} : {type_}\n"
                    f"    %r = math.ipowi %a, %b : {type_}\n    return %r : {type_}\n  }}\n")
                batch.append(("math.ipowi", type_, (a, b)))
    _check_text(mlir_opt, "module {\n" + "".join(functions) + "}\n", batch)
