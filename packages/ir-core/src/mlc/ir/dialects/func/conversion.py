"""Function signatures under a dialect conversion: the patterns that carry a type
conversion through `func.func`, `func.call` and `func.return`.

    populate_function_signature_conversion(patterns, converter)
    add_function_signature_legality(target, converter)

- `func.func`: the argument and result types of its signature are converted (1:N:
  an argument may become several, or none); the entry block's arguments follow the
  argument types, the other blocks' arguments their own conversion; `arg_attrs` and
  `res_attrs` are repeated for each type an argument or result becomes. Uses of an
  old argument that stay unconverted get a source materialisation.
- `func.call`: the converted operands (target materialisations where a value still
  has an old type) and the converted result types; each old result is replaced by
  the new results it became.
- `func.return`: the converted operands.

Legality: each of the three is legal when its types are (a function: signature and
block arguments).
"""

from __future__ import annotations

from mlc.ir.core.attributes import ArrayAttr, FunctionType, TypeAttr
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.func.ops import CallOp, FuncOp, ReturnOp
from mlc.ir.rewrite.conversion import ConversionPattern, ConversionRewriter, ConversionTarget
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.rewrite.type_converter import TypeConverter


class FuncSignatureConversion(ConversionPattern):
    """func.func: convert the argument and result types and the body's block arguments."""

    root = FuncOp

    def match_and_rewrite(self, op: FuncOp, adaptor, rewriter: ConversionRewriter) -> bool:
        converter = self.type_converter
        fn_type = op.type
        inputs = [converter.convert_type(t) for t in fn_type.inputs]
        results = [converter.convert_type(t) for t in fn_type.results]
        new_type = FunctionType(tuple(t for ts in inputs for t in ts),
                                tuple(t for ts in results for t in ts))
        if new_type == fn_type and converter.is_region_legal(op.body):
            return rewriter.notify_match_failure(op, "the signature and the body are legal")
        with rewriter.modify_op_in_place(op):
            op.function_type = TypeAttr(new_type)
            if op.arg_attrs is not None:
                op.arg_attrs = _repeat_per_type(op.arg_attrs, inputs)
            if op.res_attrs is not None:
                op.res_attrs = _repeat_per_type(op.res_attrs, results)
        if not op.is_declaration:
            blocks = op.body.blocks
            rewriter.apply_signature_conversion(blocks[0], inputs)
            for block in blocks[1:]:
                rewriter.convert_block_signature(block, converter)
        return True


def _repeat_per_type(attrs: ArrayAttr, conversion: list[tuple]) -> ArrayAttr:
    """An argument's (or result's) attribute dictionary, once per type it became."""
    return ArrayAttr(tuple(d for d, types in zip(attrs, conversion) for _ in types))


class CallSignatureConversion(ConversionPattern):
    """func.call: call with the converted operands and result types."""

    root = CallOp

    def match_and_rewrite(self, op: CallOp, adaptor, rewriter: ConversionRewriter) -> bool:
        converter = self.type_converter
        results = [converter.convert_type(t) for t in op.result_types]
        new = rewriter.insert(CallOp.create_from_flat(
            adaptor.operands, dict(op.attributes), [t for ts in results for t in ts], op.loc))
        values, start = [], 0
        for old, types in zip(op.results, results):
            group = new.results[start:start + len(types)]
            for value in group:
                value.name_hint = old.name_hint
            values.append(group)
            start += len(types)
        rewriter.replace_op(op, values)
        return True


class ReturnTypeConversion(ConversionPattern):
    """func.return: return the converted operands."""

    root = ReturnOp

    def match_and_rewrite(self, op: ReturnOp, adaptor, rewriter: ConversionRewriter) -> bool:
        rewriter.insert(ReturnOp.create_from_flat(adaptor.operands, dict(op.attributes), [],
                                                  op.loc))
        rewriter.erase_op(op)
        return True


def populate_function_signature_conversion(patterns: PatternSet,
                                           type_converter: TypeConverter) -> None:
    """Add the patterns converting func.func signatures, func.call and func.return
    with `type_converter` to `patterns`."""
    for pattern in (FuncSignatureConversion, CallSignatureConversion, ReturnTypeConversion):
        patterns.add(pattern(type_converter))


def add_function_signature_legality(target: ConversionTarget,
                                    type_converter: TypeConverter) -> None:
    """Make func.func, func.call and func.return legal when `type_converter` leaves
    their types as they are."""
    def function_is_legal(op: Operation) -> bool:
        return type_converter.is_signature_legal(op.type) and \
            type_converter.is_region_legal(op.body)

    target.add_dynamically_legal_op(FuncOp, function_is_legal)
    target.add_dynamically_legal_op((CallOp, ReturnOp), type_converter.is_op_legal)
