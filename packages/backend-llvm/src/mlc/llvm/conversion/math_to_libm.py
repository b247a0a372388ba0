"""math ops with no LLVM intrinsic → calls of the C math library (MLIR's
MathToLibm): `math.erf` on f32 calls `erff`, on f64 `erf`; a vector op calls the
function once per element. These patterns run inside convert-to-llvm, after the
intrinsic patterns had their chance (they have a lower benefit).
"""

from __future__ import annotations

from mlc.ir.core.attributes import FloatType, Type, VectorType, i64
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.llvm.conversion.builders import LLVMBuilder
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.conversion.memref_to_llvm import declare_c_function
from mlc.llvm.dialect.ops_values import ExtractElementOp, InsertElementOp

# math op → the C function (double precision name; `f` appended for float).
LIBM_FUNCTIONS = {
    "math.erf": "erf", "math.erfc": "erfc", "math.tan": "tan", "math.atan": "atan",
    "math.atan2": "atan2", "math.sinh": "sinh", "math.cosh": "cosh", "math.asin": "asin",
    "math.acos": "acos", "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh",
    "math.expm1": "expm1", "math.log1p": "log1p", "math.cbrt": "cbrt", "math.tanh": "tanh",
    "math.log10": "log10", "math.trunc": "trunc", "math.roundeven": "roundeven",
}


def _libm_name(base: str, element: Type) -> str | None:
    if isinstance(element, FloatType) and element.name == "f32":
        return base + "f"
    if isinstance(element, FloatType) and element.name == "f64":
        return base
    return None


class MathToLibmCall(ConversionPattern):
    """A math op → a call of its C library function (per element for a vector)."""

    root = None
    benefit = 0

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        base = LIBM_FUNCTIONS.get(op.name)
        if base is None or len(op.results) != 1:
            return False
        result = op.results[0].type
        vector = result if isinstance(result, VectorType) else None
        if vector is not None and len(vector.shape) != 1:
            return rewriter.notify_match_failure(op, "only 1-D vectors are unrolled")
        element = vector.element_type if vector is not None else result
        name = _libm_name(base, element)
        if name is None:
            return rewriter.notify_match_failure(op, f"the C library has no {base} on {element}")
        operands = adaptor.operands
        if not declare_c_function(rewriter, op, name, element, (element,) * len(operands)):
            return rewriter.notify_match_failure(
                op, f"the module defines its own @{name}, which the C library's would be")
        build = LLVMBuilder(rewriter, op.loc)
        if vector is None:
            value = build.call(name, operands, element).results[0]
        else:
            value = build.poison(result)
            for lane in range(vector.shape[0]):
                position = build.constant(lane, i64)
                scalars = [build.value(ExtractElementOp.build(v, position)) for v in operands]
                scalar = build.call(name, scalars, element).results[0]
                value = build.value(InsertElementOp.build(value, scalar, position))
        rewriter.replace_op(op, [value])
        return True


@to_llvm_patterns("math-libm")
def math_to_libm_patterns(converter: LLVMTypeConverter):
    """The patterns calling the C math library for math ops LLVM has no intrinsic for."""
    return [MathToLibmCall(converter)]


