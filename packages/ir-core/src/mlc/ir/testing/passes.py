"""Test passes and patterns: `test-legalize-partial` and `test-legalize-full` drive
the dialect conversion framework with the `test` dialect:

- the chain test.source -> test.middle -> test.sink (only sink is legal);
- the 1:N type conversion tuple<a, b> -> (a, b), applied to function signatures
  (arguments, results, calls and returns, by the library's function-signature
  conversion) and to test.use_tuple, which becomes test.use_parts;
- test.unknown has no legality rule: partial conversion keeps it, full fails on it.

The patterns on test.wrapper move ops and blocks (for the tests of rollback).
"""

from __future__ import annotations

from mlc.ir.core.attributes import TupleType, UnitAttr
from mlc.ir.core.ir import Block, Operation, Region
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func.conversion import (
    add_function_signature_legality,
    populate_function_signature_conversion,
)
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.ir.rewrite.conversion import (
    ConversionPattern,
    ConversionTarget,
    TypeConverter,
    apply_full_conversion,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.testing.dialect import (
    MiddleOp,
    SinkOp,
    SourceOp,
    UsePartsOp,
    UseTupleOp,
    WrapperOp,
)


def tuple_converter() -> TypeConverter:
    """tuple<a, tuple<b, c>> -> (a, b, c), tuple<> -> nothing: tuples decomposed
    recursively, as MLIR's --test-decompose-call-graph-types does."""
    converter = TypeConverter()
    converter.add_conversion(lambda t: [x for e in t.types for x in converter.convert_type(e)]
                             if isinstance(t, TupleType) else None)
    return converter


class SourceToMiddle(ConversionPattern):
    """test.source -> test.middle"""

    root = SourceOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        rewriter.replace_op_with_new(op, MiddleOp, adaptor.input, result_types=op.result_types,
                                     loc=op.loc)
        return True


class MiddleToSink(ConversionPattern):
    """test.middle -> test.sink"""

    root = MiddleOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        rewriter.replace_op_with_new(op, SinkOp, adaptor.input, result_types=op.result_types,
                                     loc=op.loc)
        return True


class UseTupleToParts(ConversionPattern):
    """test.use_tuple %t -> test.use_parts %t0, %t1 (the tuple's converted parts)"""

    root = UseTupleOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        parts = adaptor.input
        rewriter.create(UsePartsOp, parts if isinstance(parts, list) else [parts], loc=op.loc)
        rewriter.erase_op(op)
        return True


class InlineWrapper(ConversionPattern):
    """test.wrapper: its ops move before it (inline_block_before), then it goes."""

    root = WrapperOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        for block in op.body.blocks:
            rewriter.inline_block_before(block, op)
        rewriter.erase_op(op)
        return True


REWRAPPED = "test.rewrapped"


def is_rewrapped(op: Operation) -> bool:
    """The legality of test.wrapper under the Rewrap patterns: marked as rewrapped."""
    return REWRAPPED in op.attributes


class RewrapByRegion(ConversionPattern):
    """test.wrapper -> a marked test.wrapper that takes its blocks (inline_region_before)."""

    root = WrapperOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        new = rewriter.insert(WrapperOp.create([], [], {REWRAPPED: UnitAttr()},
                                               regions=[Region()], loc=op.loc))
        rewriter.inline_region_before(op.body, new.body)
        rewriter.erase_op(op)
        return True


class RewrapByMerge(ConversionPattern):
    """test.wrapper -> a marked test.wrapper whose block takes its ops (merge_blocks)."""

    root = WrapperOp

    def match_and_rewrite(self, op, adaptor, rewriter):
        new = rewriter.insert(WrapperOp.create([], [], {REWRAPPED: UnitAttr()},
                                               regions=[Region([Block()])], loc=op.loc))
        for block in list(op.body.blocks):
            rewriter.merge_blocks(block, new.body.blocks[0])
        rewriter.erase_op(op)
        return True


def signature_conversion_setup(converter: TypeConverter):
    """(target, patterns) converting function signatures, calls and returns alone."""
    target = ConversionTarget()
    target.add_legal_op(ModuleOp)
    add_function_signature_legality(target, converter)
    patterns = PatternSet()
    populate_function_signature_conversion(patterns, converter)
    return target, patterns


def legalize_test_setup(converter: TypeConverter | None = None):
    """The target and patterns of the test-legalize passes: (target, patterns,
    converter)."""
    converter = converter or tuple_converter()
    target = ConversionTarget()
    target.add_illegal_op(SourceOp, MiddleOp, UseTupleOp)
    target.add_legal_op(SinkOp, UsePartsOp, ModuleOp)
    add_function_signature_legality(target, converter)
    target.add_legal_dialect("arith")
    patterns = PatternSet([SourceToMiddle(), MiddleToSink(), UseTupleToParts(converter)])
    populate_function_signature_conversion(patterns, converter)
    return target, patterns, converter


@register_pass("test-legalize-partial", summary="(test) partial conversion of the test dialect")
class TestLegalizePartial(Pass):
    def run(self, op, run) -> None:
        target, patterns, converter = legalize_test_setup()
        result = apply_partial_conversion(op, target, patterns, converter)
        if not result.success:
            raise PassFailure(result.diagnostics)


@register_pass("test-legalize-full", summary="(test) full conversion of the test dialect")
class TestLegalizeFull(Pass):
    def run(self, op, run) -> None:
        target, patterns, converter = legalize_test_setup()
        result = apply_full_conversion(op, target, patterns, converter)
        if not result.success:
            raise PassFailure(result.diagnostics)


@register_pass("test-miscompile-addi", dialects=("arith",),
               summary="(test) a deliberately wrong pass: every arith.addi becomes subi, so "
                       "--check-semantics has a miscompilation to find")
class TestMiscompileAddi(Pass):
    def run(self, op, run) -> None:
        from mlc.ir.dialects.arith import AddIOp, SubIOp
        from mlc.ir.rewrite.rewriter import Rewriter

        rewriter = Rewriter()
        for add in [o for o in op.walk() if isinstance(o, AddIOp)]:
            rewriter.replace_op_with_new(add, SubIOp, *add.operands)
