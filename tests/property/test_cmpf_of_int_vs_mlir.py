"""CmpFIntToFPConst rewrites a comparison of a converted integer with a float constant
exactly as mlir-opt-22's canonicalizer does: the same integer comparison against the
same bound, the same constant answer, or the same refusal.

Cases draw the conversion (sitofp, uitofp), the integer width (including ones wider than
the float's significand, where the rewrite must refuse near the rounding range), the
float type, every predicate, and constants that favour the edges: zeros, halves,
integers, the integer type's extremes and just past them, infinities, NaN.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.ir.core.attributes import FloatType, float_to_bits

from .test_arith_folds_vs_mlir import _check_text

# Not `false` and `true`: mlir-opt-22 crashes (SIGSEGV) on them in this pattern.
PREDICATES = ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
              "une", "uno")
WIDTHS = (1, 8, 16, 24, 32, 53, 64)


@st.composite
def cases(draw) -> tuple[str, int, str, str, str]:
    """(conversion, integer width, float type, predicate, constant literal)."""
    width = draw(st.sampled_from(WIDTHS))
    float_type = draw(st.sampled_from(("f16", "f32", "f64")))
    edges = [2.0 ** (width - 1), 2.0 ** (width - 1) - 1, -(2.0 ** (width - 1)), 2.0 ** width,
             2.0 ** width - 1, -(2.0 ** (width - 1)) - 1]
    value = draw(st.one_of(
        st.sampled_from([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 4.4, -4.4, 3.0, 65504.0,
                         float("inf"), float("-inf"), float("nan")] + edges),
        st.floats(-1e20, 1e20, allow_nan=False)))
    # As the type's bit pattern: exact, and beyond the type's range an infinity.
    digits = {"f16": 4, "f32": 8, "f64": 16}[float_type]
    literal = f"0x{float_to_bits(value, FloatType(float_type)):0{digits}X}"
    return (draw(st.sampled_from(("sitofp", "uitofp"))), width, float_type,
            draw(st.sampled_from(PREDICATES)), literal)


def _function(index: int, case) -> str:
    conversion, width, float_type, predicate, literal = case
    return (f"  func.func @case{index}(%x: i{width}) -> i1 {{\n"
            f"    %f = arith.{conversion} %x : i{width} to {float_type}\n"
            f"    %c = arith.constant {literal} : {float_type}\n"
            f"    %r = arith.cmpf {predicate}, %f, %c : {float_type}\n"
            f"    return %r : i1\n  }}\n")


@settings(max_examples=25)
@given(st.lists(cases(), min_size=30, max_size=60))
def test_cmpf_of_converted_integers_as_mlir_opt(mlir_opt, batch):
    text = "module {\n" + "".join(_function(i, c) for i, c in enumerate(batch)) + "}\n"
    _check_text(mlir_opt, text, batch)
