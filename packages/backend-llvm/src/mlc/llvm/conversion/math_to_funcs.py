"""math ops with neither an LLVM intrinsic nor a C library function → calls of a
function defined once in the module (MLIR's MathToFuncs): `math.ipowi` on iN calls
`@__mlc_math_ipowi_iN`, square-and-multiply over the exponent's bits; a vector op
calls it once per element.
"""

from __future__ import annotations

from mlc.ir.core.attributes import IntegerType, VectorType, i64
from mlc.ir.dialects import math as M
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter
from mlc.llvm.conversion.builders import LLVMBuilder
from mlc.llvm.conversion.common import LLVMTypeConverter, to_llvm_patterns
from mlc.llvm.dialect.ops_control import LLVMFuncOp
from mlc.llvm.dialect.ops_values import ExtractElementOp, InsertElementOp

# `integer_power`'s semantics (math.ipowi as MLIR folds it): wrapping products; a
# negative exponent gives 1/base^|exponent| truncated toward zero: 1 for base 1, ±1 for
# base -1 (by the exponent's parity), 0 otherwise (base 0 is undefined: 0 here).
_IPOWI = """
llvm.func internal @{name}(%base: {t}, %exponent: {t}) -> {t} {{
  %zero = llvm.mlir.constant(0 : {t}) : {t}
  %one = llvm.mlir.constant(1 : {t}) : {t}
  %negative = llvm.icmp "slt" %exponent, %zero : {t}
  llvm.cond_br %negative, ^reciprocal, ^loop(%base, %exponent, %one : {t}, {t}, {t})
^reciprocal:
  %minus_one = llvm.mlir.constant(-1 : {t}) : {t}
  %parity = llvm.and %exponent, %one : {t}
  %odd = llvm.icmp "ne" %parity, %zero : {t}
  %signed_one = llvm.select %odd, %minus_one, %one : i1, {t}
  %is_minus_one = llvm.icmp "eq" %base, %minus_one : {t}
  %of_minus_one = llvm.select %is_minus_one, %signed_one, %zero : i1, {t}
  %is_one = llvm.icmp "eq" %base, %one : {t}
  %reciprocal_power = llvm.select %is_one, %one, %of_minus_one : i1, {t}
  llvm.return %reciprocal_power : {t}
^loop(%factor: {t}, %bits: {t}, %power: {t}):
  %done = llvm.icmp "eq" %bits, %zero : {t}
  llvm.cond_br %done, ^exit, ^step
^step:
  %bit = llvm.and %bits, %one : {t}
  %set = llvm.icmp "ne" %bit, %zero : {t}
  %product = llvm.mul %power, %factor : {t}
  %next_power = llvm.select %set, %product, %power : i1, {t}
  %square = llvm.mul %factor, %factor : {t}
  %rest = llvm.lshr %bits, %one : {t}
  llvm.br ^loop(%square, %rest, %next_power : {t}, {t}, {t})
^exit:
  llvm.return %power : {t}
}}
"""


def _define_ipowi(rewriter: ConversionRewriter, anchor, type_: IntegerType) -> str:
    """Define `@__mlc_math_ipowi_iN` at the top of the module around `anchor`, once;
    its name."""
    from mlc.ir import Context, parse_module

    name = f"__mlc_math_ipowi_i{type_.width}"
    module = anchor
    while module.parent_op is not None and not isinstance(module, ModuleOp):
        module = module.parent_op
    block = module.regions[0].blocks[0]
    if any(isinstance(op, LLVMFuncOp) and op.sym_name.value == name for op in block.ops()):
        return name
    parsed = parse_module(_IPOWI.format(name=name, t=type_), Context())
    definition = next(iter(parsed.regions[0].blocks[0].ops()))
    definition.detach()
    with rewriter.insertion_point():
        rewriter.set_insertion_point_to_start(block)
        rewriter.insert(definition)
    return name


class IPowIToCall(ConversionPattern):
    """`math.ipowi` → a call of its outlined function (per element for a vector)."""

    root = M.IPowIOp

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        result = op.results[0].type
        vector = result if isinstance(result, VectorType) else None
        if vector is not None and len(vector.shape) != 1:
            return rewriter.notify_match_failure(op, "only 1-D vectors are unrolled")
        element = vector.element_type if vector is not None else result
        name = _define_ipowi(rewriter, op, element)
        build = LLVMBuilder(rewriter, op.loc)
        if vector is None:
            value = build.call(name, adaptor.operands, element).results[0]
        else:
            value = build.poison(result)
            for lane in range(vector.shape[0]):
                position = build.constant(lane, i64)
                scalars = [build.value(ExtractElementOp.build(v, position))
                           for v in adaptor.operands]
                scalar = build.call(name, scalars, element).results[0]
                value = build.value(InsertElementOp.build(value, scalar, position))
        rewriter.replace_op(op, [value])
        return True


@to_llvm_patterns("math-funcs")
def math_to_funcs_patterns(converter: LLVMTypeConverter):
    """The patterns calling functions the module defines for math ops LLVM lacks."""
    return [IPowIToCall(converter)]
