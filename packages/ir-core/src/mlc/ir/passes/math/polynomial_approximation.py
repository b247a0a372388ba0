"""math-polynomial-approximation: math functions on f32 rewritten as arith and
`math.fma`/`floor`/`absf`/`copysign` on the same type (MLIR's
populateMathPolynomialApproximationPatterns, `mlir-opt --test-math-polynomial-approximation`),
so that a vector of them stays a vector: LLVM has no vector `expf`, and a
`vector<16xf32>` exp lowered to the C library is sixteen calls.

Ops: exp, exp2, expm1, log, log2, log1p, tanh, erf, sin, cos (option `ops` chooses
some), on f32 scalars and vectors of f32. f64 ops, tensors and other types are left:
on f64 the C library stays exact; f16 and bf16 ops are approximated once
math-extend-to-supported-types has rebuilt them on f32 (`arith.extf`, the op,
`arith.truncf`), as the native pipeline (`mlc.llvm.build.STANDARD_TO_LLVM`) does first. How each function is computed is in
:mod:`mlc.ir.passes.math.approximations`, its coefficients and how they were fitted in
:mod:`mlc.ir.passes.math.coefficients`.

Accuracy: MAX_ULP_ERROR, the largest error in units in the last place of the f32
result (2^-149 for subnormal results), measured natively (`compile_module`) by
`benchmarks/math_accuracy.py` on every 17th f32 bit pattern of each sign (252 million
inputs per op, every exponent and low mantissa bit, subnormals, both overflow and
underflow thresholds) against numpy's double-precision functions (torch's for erf).

Special values, exact: NaN gives NaN for every op. exp(+inf) = exp2(+inf) =
expm1(+inf) = +inf, exp(-inf) = exp2(-inf) = 0, expm1(-inf) = -1; results past the
largest f32 overflow to +inf, and tiny results are subnormal, rounded once, down to
+0 (no flush to zero). log(±0) = -inf, log of a negative number or -inf NaN,
log(+inf) = +inf (log2 the same; log1p with the pole at -1); tanh(±inf) = ±1,
erf(±inf) = ±1, sin(±inf) = cos(±inf) = NaN; zeros keep their sign (erf(-0) = -0,
tanh, sin, expm1 and log1p too). sin and cos are accurate for every finite f32: past
2^20 the argument is reduced exactly (Payne and Hanek's way, in f64), in an `scf.if`
entered only when some lane of the vector needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mlc.ir.core.attributes import FloatType, VectorType, f32
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects import math as M
from mlc.ir.dialects.arith.constants import element_type_of
from mlc.ir.passes.math.approximations import APPROXIMATIONS
from mlc.ir.passes.math.kernel_builder import KernelBuilder
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.greedy import apply_patterns_once
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter

MAX_ULP_ERROR = {"exp": 1.0, "exp2": 1.0, "expm1": 1.5, "log": 1.0, "log2": 1.5, "log1p": 2.0,
                 "tanh": 1.5, "erf": 1.5, "sin": 1.0, "cos": 1.0}
"""The largest error of each approximation in units in the last place of the f32 result,
as measured over the f32 domain (benchmarks/math_accuracy.py)."""


class ApproximateMathOp(RewritePattern):
    """A math function of f32 scalars or vectors -> its polynomial approximation."""

    def __init__(self, op_class: type, approximation: Callable[[KernelBuilder, Value], Value]):
        self.root, self.root_op = op_class.op_def.name, op_class
        self.approximation = approximation

    @property
    def name(self) -> str:
        return f"Approximate{self.root_op.__name__}"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        type_ = op.results[0].type
        if not isinstance(type_, (FloatType, VectorType)):
            return rewriter.notify_match_failure(op, "only scalars and vectors are approximated")
        element = element_type_of(type_)
        if element != f32:
            return rewriter.notify_match_failure(op, f"no approximation on {element}")
        rewriter.set_insertion_point_before(op)
        result = self.approximation(KernelBuilder(rewriter, op.loc, type_), op.operands[0])
        rewriter.replace_op(op, [result])
        return True


OP_CLASSES = {op_class.op_def.name: op_class
              for op_class in (M.ExpOp, M.Exp2Op, M.Expm1Op, M.LogOp, M.Log2Op, M.Log1pOp,
                               M.TanhOp, M.ErfOp, M.SinOp, M.CosOp)}
OP_NAMES = tuple(name.removeprefix("math.") for name in APPROXIMATIONS)
"""The ops the pass knows, as its `ops` option names them."""


def approximation_patterns(ops: tuple[str, ...] = OP_NAMES) -> PatternSet:
    """The patterns approximating the math ops named in `ops` (`exp`, `tanh`...)."""
    return PatternSet(ApproximateMathOp(OP_CLASSES["math." + name], APPROXIMATIONS["math." + name])
                      for name in ops)


@dataclass(frozen=True)
class MathPolynomialApproximationOptions:
    ops: tuple[str, ...] = option(OP_NAMES, choices=OP_NAMES,
                                  doc="the math ops to approximate")


@register_pass("math-polynomial-approximation", opt_level=0,
               options=MathPolynomialApproximationOptions,
               dialects=("arith", "math", "scf", "vector"),
               summary="Approximate math functions on f32 scalars and vectors with "
                       "polynomials in arith, so that they vectorise.",
               statistics=(("num-approximated", "math ops approximated"),))
class MathPolynomialApproximation(Pass):
    def run(self, op: Operation, run) -> None:
        patterns = approximation_patterns(run.options.ops)
        self.statistics["num-approximated"] += apply_patterns_once(op, patterns)


__all__ = ["ApproximateMathOp", "MathPolynomialApproximation",
           "MathPolynomialApproximationOptions", "OP_NAMES", "approximation_patterns"]
