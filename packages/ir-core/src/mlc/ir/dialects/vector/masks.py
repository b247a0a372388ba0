"""Masks, with MLIR 22's syntax and verifier messages: `vector.constant_mask` and
`vector.create_mask` (the `i1` vector that is true in a leading box of each dim),
and `vector.mask` (a region holding one maskable op, run with a mask; its terminator
is `vector.yield`).

A maskable op is one of :data:`MASKABLE_OPS` (MLIR's MaskableOpInterface); the mask
it expects has one `i1` per element of :func:`expected_mask_type`.
"""

from __future__ import annotations

from mlc.ir.core.attributes import IntegerType, Type, VectorType, i64
from mlc.ir.core.ir import Block, Region
from mlc.ir.dialects.arith.constants import constant_value_of, dense_of
from mlc.ir.dialects.memref.ops import Index
from mlc.ir.dialects.vector.memory import mask_type
from mlc.ir.dialects.vector.ops import vector
from mlc.ir.opdef.constraints import DenseArrayOf, TypeMatches
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef, RegionDef, ResultDef, VerificationError
from mlc.ir.opdef.traits import IsTerminator, Pure, RecursiveMemoryEffects, SingleBlock
from mlc.ir.rewrite.pattern import RewritePattern
from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.printer import Printer

i1 = IntegerType(1)
MaskVector = TypeMatches(lambda t: isinstance(t, VectorType) and t.element_type == i1 and
                         t.rank > 0, "vector of 1-bit signless integer values")
AnyMaskVector = TypeMatches(lambda t: isinstance(t, VectorType) and t.element_type == i1,
                            "vector of 1-bit signless integer values")


def box_mask(sizes: list[int], type_: VectorType) -> list[int]:
    """The elements (row-major, 0/1) of the mask true where every index is below its
    dim's size (a 0-D mask: true if the one size is positive)."""
    shape = type_.shape
    if not shape:
        return [int(sizes[0] > 0)]
    values = []
    for flat in range(_count(shape)):
        on, rest = 1, flat
        for dim in reversed(range(len(shape))):
            on &= rest % shape[dim] < sizes[dim]
            rest //= shape[dim]
        values.append(int(on))
    return values


def _count(shape) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


@vector.op
class ConstantMaskOp(Op):
    """A mask true in a leading box

    Element `(i, j, ...)` is true when `i < sizes[0]`, `j < sizes[1]`, ...:

        %m = vector.constant_mask [3, 2] : vector<4x3xi1>
    """

    name = "vector.constant_mask"
    result = ResultDef(AnyMaskVector, doc="the mask")
    mask_dim_sizes = AttrDef(DenseArrayOf(i64), doc="how many leading elements of each "
                                                    "dim are true")
    traits = (Pure,)
    assembly_format = "$mask_dim_sizes attr-dict `:` type(results)"

    def verify_custom(self) -> None:
        type_ = self.result.type
        sizes = list(self.mask_dim_sizes.values)
        if type_.rank == 0:
            if len(sizes) != 1:
                raise VerificationError("array attr must have length 1 for 0-D vectors")
            if sizes[0] not in (0, 1):
                raise VerificationError("mask dim size must be either 0 or 1 for 0-D vectors")
            return
        if len(sizes) != type_.rank:
            raise VerificationError("must specify array attr of size equal vector result rank")
        scalable = type_.scalable or (False,) * type_.rank
        for size, dim, is_scalable in zip(sizes, type_.shape, scalable):
            if not 0 <= size <= dim:
                raise VerificationError("array attr of size out of bounds of vector result "
                                        "dimension size")
            if is_scalable and size not in (0, dim):
                raise VerificationError("only supports 'none set' or 'all set' scalable "
                                        "dimensions")
        if 0 in sizes and any(sizes):
            raise VerificationError("expected all mask dim sizes to be zeros, as a result of "
                                    "conjunction with zero mask dim")

    def fold(self, operands):
        type_ = self.result.type
        if any(type_.scalable):
            return None
        sizes = list(self.mask_dim_sizes.values)
        if type_.rank and sizes != list(type_.shape) and any(sizes):
            return None  # a partial mask stays an op, as in MLIR
        return dense_of(box_mask(sizes, type_), type_)


@vector.op
class CreateMaskOp(Op):
    """A mask true in a leading box of run-time sizes

    As `vector.constant_mask`, each size an `index` value (negative: none, beyond
    the dim: all):

        %m = vector.create_mask %n, %c2 : vector<4x3xi1>
    """

    name = "vector.create_mask"
    sizes = OperandDef(Index, variadic=True, doc="how many leading elements of each dim "
                                                 "are true")
    result = ResultDef(AnyMaskVector, doc="the mask")
    traits = (Pure,)
    assembly_format = "$sizes attr-dict `:` type(results)"

    def verify_custom(self) -> None:
        type_ = self.result.type
        count = len(self.sizes)
        if type_.rank == 0:
            if count != 1:
                raise VerificationError("must specify exactly one operand for 0-D create_mask")
        elif count != type_.rank:
            raise VerificationError("must specify an operand for each result vector dimension")


class CreateMaskOfConstants(RewritePattern):
    """create_mask of constant sizes -> constant_mask, each clamped to [0, dim]
    (all zeros when one is not positive), as MLIR's canonicalization."""

    root = CreateMaskOp

    def match_and_rewrite(self, op, rewriter) -> bool:
        type_ = op.result.type
        if any(type_.scalable):
            return rewriter.notify_match_failure(op, "a scalable mask")
        sizes = []
        for value in op.operands:
            constant = constant_value_of(value)
            if constant is None or not hasattr(constant, "value"):
                return rewriter.notify_match_failure(op, "a size that is not a constant")
            sizes.append(constant.value)
        dims = type_.shape or (1,)
        clamped = [min(max(size, 0), dim) for size, dim in zip(sizes, dims)]
        if 0 in clamped:
            clamped = [0] * len(clamped)
        new = rewriter.insert(ConstantMaskOp.build(
            result_types=[type_], mask_dim_sizes=_i64_array(clamped), loc=op.loc))
        rewriter.replace_op(op, new.results)
        return True


def _i64_array(values):
    from mlc.ir.dialects.index_lists import static_array

    return static_array(values)


@vector.op
class YieldOp(Op):
    """Ends a `vector.mask` region

    Hands the masked op's results to the `vector.mask`:

        vector.yield %r : vector<8xf32>
    """

    name = "vector.yield"
    values = OperandDef(variadic=True, doc="the values handed back")
    traits = (Pure, IsTerminator)
    assembly_format = "attr-dict ($values^ `:` type($values))?"


def _mask_type_of(type_: Type) -> VectorType | None:
    if not isinstance(type_, VectorType):
        return None
    return VectorType(type_.shape, i1, type_.scalable) if any(type_.scalable) \
        else VectorType(type_.shape, i1)


MASKABLE_OPS = frozenset({"vector.transfer_read", "vector.transfer_write",
                          "vector.reduction", "vector.multi_reduction", "vector.contract",
                          "vector.gather", "vector.scatter", "vector.load", "vector.store",
                          "vector.maskedload", "vector.maskedstore", "vector.expandload",
                          "vector.compressstore"})
"""The ops a `vector.mask` may hold (MLIR's MaskableOpInterface)."""


def expected_mask_type(op) -> Type | None:
    """The mask type a maskable op expects: one `i1` per element of the vector it
    works on (for a transfer, per vector element the permutation map places)."""
    if op.name == "vector.transfer_read":
        return _transfer_mask_type(op, op.results[0].type)
    if op.name == "vector.transfer_write":
        return _transfer_mask_type(op, op.operands[0].type)
    if op.name in ("vector.reduction", "vector.multi_reduction"):
        return _mask_type_of(op.operands[0].type)
    if op.name == "vector.contract":
        return op.iteration_mask_type()
    if op.name in ("vector.store", "vector.maskedstore", "vector.compressstore",
                   "vector.scatter"):
        value = op.operands[-1].type if op.name == "vector.scatter" else op.operands[0].type
        return _mask_type_of(value)
    return _mask_type_of(op.results[0].type) if op.results else None


def _transfer_mask_type(op, vector_type: VectorType) -> VectorType:
    return mask_type(vector_type, op.attributes["permutation_map"].value)


@vector.op
class MaskOp(Op):
    """Runs one maskable op under a mask

    The op in the region works only on the elements the mask enables; a masked-off
    element of its result is `passthru`'s if given (else undefined):

        %r = vector.mask %m { vector.reduction <add>, %v : vector<8xi32> into i32 }
               : vector<8xi1> -> i32
    """

    name = "vector.mask"
    mask = OperandDef(MaskVector, doc="the elements enabled")
    passthru = OperandDef(optional=True, doc="the masked-off elements of the result")
    masked_results = ResultDef(variadic=True, doc="the masked op's results")
    maskRegion = RegionDef(single_block=True, doc="the masked op and vector.yield")  # noqa: N815
    traits = (SingleBlock, RecursiveMemoryEffects)

    @property
    def masked_op(self):
        """The op the mask applies to; None in an empty `vector.mask`."""
        block = self.maskRegion.entry
        first = block.first_op if block is not None else None
        return None if first is None or isinstance(first, YieldOp) else first

    @classmethod
    def parse(cls, p: AsmParser) -> MaskOp:
        """`%mask [, %passthru] { op } attr-dict : mask-type [-> result-types]`."""
        mask = p.parse_operand()
        passthru = p.parse_operand() if p.parse_optional_comma() else None
        region = p.parse_region((), cls)
        attributes = p.parse_optional_attr_dict()
        p.parse_punctuation(":")
        mask_type = p.parse_type()
        result_types = _parse_arrow_types(p)
        if passthru is not None and not result_types:
            raise p.error("expects a result if passthru operand is provided")
        operands = [p.resolve_operand(mask, mask_type)]
        if passthru is not None:
            operands.append(p.resolve_operand(passthru, result_types[0]))
        _ensure_terminator(region)
        return cls.create(operands, result_types, attributes, [region])  # type: ignore[return-value]

    def print(self, p: Printer) -> None:
        p.write(" ")
        p.value(self.mask)
        if self.passthru is not None:
            p.write(", ")
            p.value(self.passthru)
        p.write(" { ")
        block = self.maskRegion.entry
        if block is not None and block.first_op is not None:
            p.inline_op(block.first_op)
        p.write(" }")
        p.attr_dict(self, set())
        p.write(" : ")
        p.type(self.mask.type)
        if self.results:
            p.write(" -> ")
            p.type_list([r.type for r in self.results])

    def verify_custom(self) -> None:
        block = self.maskRegion.entry
        ops = list(block.ops()) if block is not None else []
        if not ops:
            raise VerificationError("expects a terminator within the mask region")
        if len(ops) > 2:
            raise VerificationError("expects only one operation to mask")
        terminator = ops[-1]
        if not isinstance(terminator, YieldOp):
            raise VerificationError("expects a terminator within the mask region")
        if len(terminator.operands) != len(self.results):
            raise VerificationError("expects number of results to match mask region yielded "
                                    "values")
        if len(ops) == 1:
            return
        masked = ops[0]
        if masked.name not in MASKABLE_OPS:
            raise VerificationError("expects a MaskableOpInterface within the mask region")
        if len(masked.results) != len(self.results):
            raise VerificationError("expects number of results to match maskable operation "
                                    "number of results")
        if list(masked.results) != list(terminator.operands):
            raise VerificationError("expects all the results from the MaskableOpInterface to "
                                    "match all the values returned by the terminator")
        if [r.type for r in masked.results] != [r.type for r in self.results]:
            raise VerificationError("expects result type to match maskable operation result "
                                    "type")
        expected = expected_mask_type(masked)
        if expected is not None and self.mask.type != expected:
            raise VerificationError(f"expects a '{expected}' mask for the maskable operation")
        if self.passthru is not None:
            if masked.name not in ("vector.transfer_read", "vector.gather",
                                   "vector.maskedload", "vector.expandload"):
                raise VerificationError("doesn't expect a passthru argument for this maskable "
                                        "operation")
            if self.passthru.type != masked.results[0].type:
                raise VerificationError("expects passthru type to match result type")


def _parse_arrow_types(p: AsmParser) -> list[Type]:
    if not p.parse_optional_punctuation("->"):
        return []
    if p.parse_optional_punctuation("("):
        types = [] if p.parse_optional_punctuation(")") else None
        if types is None:
            types = [p.parse_type()]
            while p.parse_optional_comma():
                types.append(p.parse_type())
            p.parse_punctuation(")")
        return types
    types = [p.parse_type()]
    while p.parse_optional_comma():
        types.append(p.parse_type())
    return types


def _ensure_terminator(region: Region) -> None:
    """A mask region written without its `vector.yield` gets one yielding the masked
    op's results (MLIR's MaskOp::ensureTerminator)."""
    if not region.blocks:
        region.append(Block())
    block = region.blocks[0]
    last = block.last_op
    if last is not None and isinstance(last, YieldOp):
        return
    values = list(last.results) if last is not None else []
    block.append(YieldOp.build(values))


vector.add_canonicalization_patterns([CreateMaskOfConstants()])

__all__ = ["MASKABLE_OPS", "ConstantMaskOp", "CreateMaskOp", "MaskOp", "YieldOp", "box_mask",
           "expected_mask_type"]
