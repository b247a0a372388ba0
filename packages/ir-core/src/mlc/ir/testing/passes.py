"""Test passes: `test-legalize-partial` and `test-legalize-full` drive the dialect
conversion framework with the `test` dialect:

- the chain test.source -> test.middle -> test.sink (only sink is legal);
- the 1:N type conversion tuple<a, b> -> (a, b), applied to function signatures
  (block arguments) and to test.use_tuple, which becomes test.use_parts;
- test.unknown has no legality rule: partial conversion keeps it, full fails on it.
"""

from __future__ import annotations

from mlc.ir.core.attributes import FunctionType, TupleType, TypeAttr
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionTarget,
    TypeConverter,
    apply_full_conversion,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.testing.dialect import MiddleOp, SinkOp, UsePartsOp


def tuple_converter() -> TypeConverter:
    converter = TypeConverter()
    converter.add_conversion(lambda t: list(t.types) if isinstance(t, TupleType) else None)
    return converter


class SourceToMiddle(ConversionPattern):
    """test.source -> test.middle"""

    root = "test.source"

    def match_and_rewrite_converted(self, op, adaptor, rewriter):
        new = rewriter.insert(MiddleOp.create_from_flat([op.operand(0)], {}, op.result_types, op.loc))
        rewriter.replace_op(op, new.results)
        return True


class MiddleToSink(ConversionPattern):
    """test.middle -> test.sink"""

    root = "test.middle"

    def match_and_rewrite_converted(self, op, adaptor, rewriter):
        new = rewriter.insert(SinkOp.create_from_flat([op.operand(0)], {}, op.result_types, op.loc))
        rewriter.replace_op(op, new.results)
        return True


class UseTupleToParts(ConversionPattern):
    """test.use_tuple %t -> test.use_parts %t0, %t1 (the tuple's converted parts)"""

    root = "test.use_tuple"

    def match_and_rewrite_converted(self, op, adaptor, rewriter):
        parts = adaptor.operand_groups[0]
        rewriter.insert(UsePartsOp.create_from_flat(parts, {}, [], op.loc))
        rewriter.erase_op(op)
        return True


class FunctionSignature(ConversionPattern):
    """func.func: convert the signature and the body's block arguments."""

    root = "func.func"

    def match_and_rewrite_converted(self, op, adaptor, rewriter):
        converter = self.type_converter
        fn_type = op.attributes["function_type"].value
        # Arguments only: results would need func.return converted too.
        new_type = FunctionType(tuple(converter.convert_types(fn_type.inputs)), fn_type.results)
        if new_type == fn_type:
            return False
        with rewriter.modify_op_in_place(op):
            op.attributes["function_type"] = TypeAttr(new_type)
        rewriter.convert_region_types(op.regions[0], converter)
        return True


def _setup():
    converter = tuple_converter()
    target = ConversionTarget()
    target.add_illegal_op("test.source", "test.middle", "test.use_tuple")
    target.add_legal_op("test.sink", "test.use_parts", "func.return", "builtin.module")
    target.add_dynamically_legal_op("func.func", lambda op: all(
        converter.is_legal(t) for t in op.attributes["function_type"].value.inputs))
    target.add_legal_dialect("arith")
    patterns = PatternSet([SourceToMiddle(), MiddleToSink(), UseTupleToParts(converter),
                           FunctionSignature(converter)])
    return target, patterns, converter


@register_pass("test-legalize-partial", summary="(test) partial conversion of the test dialect")
class TestLegalizePartial(Pass):
    def run(self, op, run) -> None:
        target, patterns, converter = _setup()
        result = apply_partial_conversion(op, target, patterns, converter)
        if not result.success:
            raise PassFailure(result.diagnostics)


@register_pass("test-legalize-full", summary="(test) full conversion of the test dialect")
class TestLegalizeFull(Pass):
    def run(self, op, run) -> None:
        target, patterns, converter = _setup()
        result = apply_full_conversion(op, target, patterns, converter)
        if not result.success:
            raise PassFailure(result.diagnostics)
