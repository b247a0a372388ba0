"""The math dialect's passes: math-extend-to-supported-types and
math-polynomial-approximation. Importing this package registers them."""

from mlc.ir.passes.math import extend_to_supported_types, polynomial_approximation
