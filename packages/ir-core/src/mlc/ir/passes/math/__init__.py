"""The math dialect's passes: math-polynomial-approximation. Importing this package
registers them."""

from mlc.ir.passes.math import polynomial_approximation
