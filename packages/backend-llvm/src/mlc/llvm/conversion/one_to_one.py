"""What the arith and math lowerings share: a pattern rewriting an op into one llvm op
on the converted operands, its attributes translated (`fastmath` to `fastmathFlags`,
`overflowFlags` to its bits, ...), and the per-dialect conversion passes
(`convert-arith-to-llvm`, ...), which apply one dialect's patterns only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mlc.ir.core.attributes import Attribute, IntegerAttr, Type, i32
from mlc.ir.core.ir import Operation
from mlc.ir.passes.registry import PassFailure
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionRewriter,
    ConversionTarget,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.llvm.conversion.common import LLVMTypeConverter
from mlc.llvm.dialect.types import LLVMFastMathFlags

AttrTranslation = Callable[[Operation], dict[str, Attribute]]


def converted_type(converter: LLVMTypeConverter, type_: Type) -> Type | None:
    """The one type `type_` becomes, if the llvm dialect computes on it
    (LLVMTypeConverter.computable_type)."""
    return converter.computable_type(type_)


def fastmath_flags(op: Operation) -> dict[str, Attribute]:
    """arith's and math's `fastmath` as llvm's `fastmathFlags` (the same flags)."""
    fastmath = op.attributes.get("fastmath")
    if fastmath is None or not fastmath.flags:
        return {}
    return {"fastmathFlags": LLVMFastMathFlags(fastmath.flags)}


def overflow_flags(op: Operation) -> dict[str, Attribute]:
    """`#arith.overflow<nsw, nuw>` as the bits llvm stores (nsw = 1, nuw = 2)."""
    overflow = op.attributes.get("overflowFlags")
    if overflow is None or not overflow.flags:
        return {}
    return {"overflowFlags": IntegerAttr(overflow.flags.value, i32)}


def exact_flag(op: Operation) -> dict[str, Attribute]:
    exact = op.attributes.get("isExact")
    return {} if exact is None else {"isExact": exact}


def same_attribute(name: str) -> AttrTranslation:
    """The attribute `name`, kept as it is (a predicate is numbered alike in both)."""
    return lambda op: {name: op.attributes[name]}


def no_attributes(op: Operation) -> dict[str, Attribute]:
    return {}


class OneToOneLowering(ConversionPattern):
    """Rewrites `root` into `target`, one llvm op on the converted operands whose
    result type is the converted result type and whose attributes `translate` gives.
    Refuses what the llvm dialect cannot compute on (a tensor, an n-D vector)."""

    target: type
    translate: Callable[[Operation], dict[str, Attribute]] = staticmethod(no_attributes)

    def match_and_rewrite(self, op, adaptor, rewriter: ConversionRewriter) -> bool:
        converter = self.type_converter
        result_types = [converted_type(converter, t) for t in op.result_types]
        operands = adaptor.operands
        if None in result_types or not all(converted_type(converter, v.type) == v.type
                                           for v in operands):
            return rewriter.notify_match_failure(op, "a type the llvm dialect has no "
                                                     "instruction on")
        new = rewriter.insert(self.target.create_from_flat(
            operands, type(self).translate(op), result_types, op.loc))
        rewriter.replace_op(op, new)
        return True


def one_to_one(root: type, target: type,
               translate: AttrTranslation | None = None) -> type[OneToOneLowering]:
    """A :class:`OneToOneLowering` of `root` into `target` (no attributes carried
    over unless `translate` says which)."""
    return type(f"Lower{root.__name__}", (OneToOneLowering,),
                {"root": root, "target": target,
                 "translate": staticmethod(translate or no_attributes),
                 "__doc__": f"{root.op_def.name} -> {target.op_def.name}",
                 "__module__": __name__})


def convert_dialect_to_llvm(module: Operation, patterns: Iterable[RewritePattern],
                            converter: LLVMTypeConverter) -> None:
    """Apply one dialect's lowering patterns as MLIR's `convert-<dialect>-to-llvm`
    passes do: a partial conversion, llvm legal, the ops the patterns rewrite illegal
    (one that cannot be lowered fails the pass and leaves the IR as it was); other
    ops stay, with unrealized casts where values cross between the two."""
    pattern_set = PatternSet()
    roots = []
    for pattern in patterns:
        pattern_set.add(pattern)
        if pattern.root is not None:
            roots.append(pattern.root)
    target = ConversionTarget()
    target.add_legal_dialect("llvm")
    target.add_illegal_op(*roots)
    result = apply_partial_conversion(module, target, pattern_set, converter,
                                      first_failure_only=True)
    if not result.success:
        raise PassFailure(result.diagnostics)
