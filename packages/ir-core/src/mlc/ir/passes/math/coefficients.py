"""The polynomial coefficients of math-polynomial-approximation, and how they were
obtained: `python -m mlc.ir.passes.math.coefficients` fits them again and prints them.

Each polynomial is a near-minimax fit made with numpy in double precision: weighted
least squares at 4,000 Chebyshev nodes of the interval, reweighted by Lawson's
algorithm (each node's weight multiplied by its error, 300 rounds) until the largest
weighted error stops falling, then each coefficient rounded to f32. The reference
values are numpy's double-precision functions (`math.erf` for erf), which are accurate
far beyond the 2^-24 an f32 result needs. The error each fit leaves (before f32
rounding of the evaluation) is printed with it; the error measured on the whole f32
domain, with every rounding of the evaluation, is in the pass's docstring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# e^r - 1 = r + r^2 * q(r) on [-ln2/2, ln2/2], relative error 2^-32.0.
EXPM1 = (0.5, 0.16666666, 0.041666362, 0.00833339, 0.0013940617, 0.00019845877)

# log(1 + f) = f + f^2 * q(f) on [sqrt(1/2) - 1, sqrt(2) - 1], relative error 2^-27.9.
LOG1P = (-0.49999988, 0.33333325, -0.25001583, 0.20001975, -0.16609082, 0.14181814,
         -0.13242985, 0.12904494, -0.07621856)

# sin r = r + r^3 * s(r^2) (relative error 2^-28.0) and cos r = 1 - r^2/2 + r^4 * c(r^2)
# (2^-33.0) on [0, pi/4].
SIN = (-0.16666655, 0.00833216, -0.00019515284)
COS = (0.041666646, -0.0013887316, 2.4433157e-05)

# erf a = (2 / sqrt(pi)) a + a^3 p(a^2) on [0, ERF_SMALL_END] (the first coefficient
# exact, held in two f32s where it is used), relative error 2^-32.1.
ERF_SMALL_END = 0.875
ERF_SMALL = (-0.37612638, 0.11283742, -0.026861997, 0.0052076457, -0.0008220478, 8.712997e-05)

# tanh a = a + a^3 p(a^2) on [0, TANH_SMALL_END], relative error 2^-32.6.
TANH_SMALL_END = 0.625
TANH_SMALL = (-0.3333333, 0.13333206, -0.053946763, 0.021700704, -0.008177399, 0.0021429625)

# erf a on [start, end) as a polynomial in (a - (start + end) / 2), absolute errors
# 2^-28.5, 2^-28.6 and 2^-30.5; from ERF_ONE on, erf rounds to 1.
ERF_ONE = 3.9192
ERF_PIECES = (
    (0.875, 1.75, (0.93656856, 0.20151846, -0.26449317, 0.16426234, -0.019626144,
                   -0.03904366, 0.022230553, 0.001439326, -0.0047856146)),
    (1.75, 2.75, (0.9985373, 0.007142364, -0.016070202, 0.021722132, -0.019083811,
                  0.010693058, -0.0029003583, -0.0008640922, 0.000985116)),
    (2.75, ERF_ONE, (0.9999976, 1.6711789e-05, -5.575542e-05, 0.000118795884,
                     -0.00017893083, 0.00019864454, -0.00017696129, 0.00013832445,
                     -6.607379e-05)),
)


# ------------------------------------------------------------------ the fits


@dataclass(frozen=True)
class Fit:
    """One polynomial fit: `target(x) ~ sum(c_i * basis_i(x))` on [start, end],
    minimising the largest `weight(x) * error`."""

    name: str
    start: float
    end: float
    powers: Sequence[int]  # basis_i(x) = (x - center) ** powers[i]
    target: Callable[[float], float]
    weight: Callable[[float], float]
    center: float = 0.0


def lawson_fit(fit: Fit, nodes: int = 4000, rounds: int = 300) -> tuple[list[float], float]:
    """The coefficients of a near-minimax fit and its largest weighted error."""
    import numpy as np

    k = np.arange(nodes)
    xs = (fit.start + fit.end) / 2 + (fit.end - fit.start) / 2 * np.cos(np.pi * (k + 0.5) / nodes)
    xs = xs[xs != fit.center] if 0 in fit.powers or fit.center == 0.0 else xs
    xs = xs[xs != 0.0]
    basis = np.stack([(xs - fit.center) ** p for p in fit.powers], axis=1)
    target = fit.target(xs)
    weight = fit.weight(xs)
    lawson = np.full(len(xs), 1.0 / len(xs))
    best = (None, math.inf)
    for _ in range(rounds):
        root = np.sqrt(lawson)
        coefficients = np.linalg.lstsq(basis * (weight * root)[:, None], target * weight * root,
                                       rcond=None)[0]
        errors = np.abs((basis @ coefficients - target) * weight)
        if errors.max() < best[1]:
            best = ([float(c) for c in coefficients], float(errors.max()))
        lawson = lawson * errors
        lawson /= lawson.sum()
    return best


def fits() -> list[Fit]:
    """The fits whose coefficients the tables above hold."""
    import numpy as np

    half_ln2 = math.log(2) / 2
    fits = [
        Fit("EXPM1", -half_ln2, half_ln2, range(2, 8), lambda x: np.expm1(x) - x,
            lambda x: 1 / np.expm1(x)),
        Fit("LOG1P", math.sqrt(0.5) - 1, math.sqrt(2) - 1, range(2, 11),
            lambda x: np.log1p(x) - x, lambda x: 1 / np.log1p(x)),
        Fit("SIN", 0.0, math.pi / 4, (3, 5, 7), lambda x: np.sin(x) - x, lambda x: 1 / np.sin(x)),
        Fit("COS", 0.0, math.pi / 4, (4, 6, 8), lambda x: np.cos(x) - 1 + x * x / 2,
            lambda x: 1 / np.cos(x)),
    ]
    erf = np.vectorize(math.erf)
    fits.append(Fit("ERF_SMALL", 0.0, ERF_SMALL_END, range(3, 14, 2),
                    lambda x: erf(x) - 2 / math.sqrt(math.pi) * x, lambda x: 1 / erf(x)))
    fits.append(Fit("TANH_SMALL", 0.0, TANH_SMALL_END, range(3, 14, 2),
                    lambda x: np.tanh(x) - x, lambda x: 1 / np.tanh(x)))
    edges = (ERF_SMALL_END, 1.75, 2.75, ERF_ONE)
    for start, end in zip(edges, edges[1:]):
        fits.append(Fit(f"ERF [{start}, {end})", start, end, range(0, 9), erf,
                        lambda x: np.ones_like(x), center=(start + end) / 2))
    return fits


def _f32(value: float) -> str:
    import numpy as np

    return str(np.float32(value))


def main() -> None:
    for fit in fits():
        coefficients, error = lawson_fit(fit)
        print(f"{fit.name} (weighted error 2^{math.log2(error):.1f}):")
        print("    " + ", ".join(_f32(c) for c in coefficients))


if __name__ == "__main__":
    main()
