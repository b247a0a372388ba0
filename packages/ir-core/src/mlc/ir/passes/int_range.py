"""Passes on the integer range analysis (MLIR's arith IntRangeOptimizations and
UnsignedWhenEquivalent):

- `int-range-optimizations`: values the analysis proves constant become constants (so a
  `cmpi` the ranges decide becomes `true` or `false`), and a remainder whose dividend
  already lies in `[0, modulus)` is its dividend;
- `arith-int-range-narrowing`: elementwise integer ops and `cmpi`s computed in a
  narrower type when the ranges of their operands and results fit it, with casts
  around them (and cast chains through `index` folded);
- `arith-unsigned-when-equivalent`: signed divisions, remainders, min/max, `extsi` and
  signed comparisons become their unsigned forms when every operand and result is
  known non-negative.

Each computes the analysis once, then rewrites with the greedy driver (folding
included, as in MLIR); a value a rewrite creates in place of another inherits its range.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mlc.ir.analysis.int_range import signed, truncation_kinds
from mlc.ir.analysis.int_range_analysis import IntegerRangeAnalysis
from mlc.ir.core.attributes import (
    DenseElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    Type,
)
from mlc.ir.core.ir import Operation, Value
from mlc.ir.dialects.arith import (
    AddIOp,
    AndIOp,
    CeilDivSIOp,
    CeilDivUIOp,
    CmpIOp,
    CmpIPredicate,
    DivSIOp,
    DivUIOp,
    FloorDivSIOp,
    IntegerOverflowFlags,
    MaxSIOp,
    MaxUIOp,
    MinSIOp,
    MinUIOp,
    MulIOp,
    OrIOp,
    Overflow,
    RemSIOp,
    RemUIOp,
    ShLIOp,
    ShRSIOp,
    ShRUIOp,
    SubIOp,
    XOrIOp,
    arith,
)
from mlc.ir.dialects.arith.casts import ExtSIOp, ExtUIOp, IndexCastOp, IndexCastUIOp, TruncIOp
from mlc.ir.dialects.arith.constants import constant_scalars, constant_value_of
from mlc.ir.interfaces.side_effects import is_trivially_dead
from mlc.ir.opdef.traits import ConstantLike
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, register_pass
from mlc.ir.rewrite.greedy import GreedyConfig, apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.rewrite.rewriter import PatternRewriter


class RangeRewritePass(Pass):
    """A pass that computes the range analysis of its op once, then rewrites the op
    greedily (folding included, as MLIR's) with the patterns `patterns` gives."""

    top_down: bool = True

    def patterns(self, analysis: IntegerRangeAnalysis, options) -> PatternSet:
        raise NotImplementedError  # pragma: no cover - abstract

    def run(self, op: Operation, run) -> None:
        patterns = self.patterns(IntegerRangeAnalysis(op), run.options)
        result = apply_patterns_greedily(op, patterns, GreedyConfig(top_down=self.top_down))
        self.statistics["num-patterns"] += result.patterns_applied
        for diagnostic in result.diagnostics:
            run.emit(diagnostic)


class OpPattern(RewritePattern):
    """A pattern made for one op class, named `Pattern<op name>`."""

    def __init__(self, op_class: type):
        self.root = op_class.op_def.name
        self.op_class = op_class

    @property
    def name(self) -> str:
        return f"{type(self).__name__}<{self.root}>"


# ============================================================================ int-range-optimizations


def _constant_attr(type_: Type, bits: int):
    """The integer constant `bits` of `type_` (a splat for a shaped type), or None for
    a shaped type without a static shape."""
    element = type_.element_type if isinstance(type_, ShapedType) else type_
    width = 64 if isinstance(element, IndexType) else element.width
    value = bits if width == 1 else signed(bits, width)
    if isinstance(type_, ShapedType):
        if not type_.has_static_shape():
            return None
        return DenseElementsAttr.from_array(bool(value) if width == 1 else value, type_)
    return IntegerAttr(value, type_)


def replace_with_constant(analysis: IntegerRangeAnalysis, rewriter: PatternRewriter,
                          value: Value) -> bool:
    """Replace the uses of `value` by a constant if its range holds one value. The
    constant is made by the dialect of the op defining `value` (of the op owning its
    block, for an argument), else by arith."""
    if not value.uses:
        return False
    bits = analysis.constant_of(value)
    if bits is None:
        return False
    attr = _constant_attr(value.type, bits)
    if attr is None:
        return False
    owner = value.defining_op or value.owner.parent_op
    dialect = owner.op_def.dialect if owner is not None and owner.op_def is not None else None
    constant = dialect.materialize_constant(attr, value.type, owner.loc) \
        if dialect is not None else None
    if constant is None:
        constant = arith.materialize_constant(attr, value.type, owner.loc)
    if constant is None:
        return False
    rewriter.insert(constant)
    analysis.copy_range(value, constant.results[0])
    rewriter.replace_all_uses_with(value, constant.results[0])
    return True


class MaterializeKnownConstantValues(RewritePattern):
    """Results (and block arguments of the op's regions) the analysis proves constant
    are replaced by constants; the op goes if nothing else is left of it."""

    def __init__(self, analysis: IntegerRangeAnalysis):
        self.analysis = analysis

    def _needs_replacing(self, value: Value) -> bool:
        return bool(value.uses) and self.analysis.constant_of(value) is not None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        if op.has_trait(ConstantLike):
            return False
        constant_results = any(self._needs_replacing(r) for r in op.results)
        constant_args = any(self._needs_replacing(a) for region in op.regions
                            for block in region.blocks for a in block.args)
        if not constant_results and not constant_args:
            return False
        changed = False
        replaced_all = bool(op.results)
        for result in op.results:
            replaced = replace_with_constant(self.analysis, rewriter, result)
            changed |= replaced
            replaced_all = replaced_all and (replaced or not result.uses)
        if replaced_all and is_trivially_dead(op):
            rewriter.erase_op(op)
            return True
        for region in op.regions:
            for block in region.blocks:
                with rewriter.insertion_point():
                    rewriter.set_insertion_point_to_start(block)
                    for arg in block.args:
                        changed |= replace_with_constant(self.analysis, rewriter, arg)
        # (MLIR's says it succeeded even when no constant could be made, e.g. for a
        # tensor of dynamic shape, and so never converges on it.)
        return changed


class DeleteTrivialRem(OpPattern):
    """`x rem c` is `x` when `x` lies in `[0, c)` (c a positive constant)."""

    def __init__(self, op_class: type, analysis: IntegerRangeAnalysis):
        super().__init__(op_class)
        self.unsigned = op_class is RemUIOp
        self.analysis = analysis

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        lhs, rhs = op.operands
        scalars = constant_scalars(constant_value_of(rhs))
        if scalars is None:
            return False
        # MLIR reads the modulus as a signed 64-bit number.
        modulus = signed(scalars[1], 64)
        if modulus <= 0:
            return False
        range_ = self.analysis.range_of(lhs)
        if range_ is None:
            return False
        low, high = (range_.umin, range_.umax) if self.unsigned else (range_.smin, range_.smax)
        if not 0 <= low <= high < modulus:
            return False
        rewriter.replace_op(op, [lhs])
        return True


@register_pass("int-range-optimizations", opt_level=2,
               summary="Replace values of constant integer range by constants; drop trivial "
                       "remainders.",
               statistics=(("num-patterns", "rewrites"),))
class IntRangeOptimizations(RangeRewritePass):
    def patterns(self, analysis: IntegerRangeAnalysis, options) -> PatternSet:
        return PatternSet([MaterializeKnownConstantValues(analysis),
                           DeleteTrivialRem(RemSIOp, analysis),
                           DeleteTrivialRem(RemUIOp, analysis)])


# ============================================================================ arith-unsigned-when-equivalent

_UNSIGNED_FORM = {DivSIOp: DivUIOp, CeilDivSIOp: CeilDivUIOp, FloorDivSIOp: DivUIOp,
                  RemSIOp: RemUIOp, MinSIOp: MinUIOp, MaxSIOp: MaxUIOp, ExtSIOp: ExtUIOp}
_UNSIGNED_PREDICATE = {"sle": "ule", "slt": "ult", "sge": "uge", "sgt": "ugt"}


def _non_negative(analysis: IntegerRangeAnalysis, value: Value) -> bool:
    range_ = analysis.range_of(value)
    return range_ is not None and range_.smin >= 0


class ConvertOpToUnsigned(OpPattern):
    """A signed op whose operands and results are all non-negative is its unsigned form."""

    def __init__(self, signed_op: type, unsigned_op: type, analysis: IntegerRangeAnalysis):
        super().__init__(signed_op)
        self.unsigned_op = unsigned_op
        self.analysis = analysis

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        if not all(_non_negative(self.analysis, v) for v in (*op.operands, *op.results)):
            return False
        new = rewriter.insert(self.unsigned_op.create_from_flat(
            op.operands, dict(op.attributes), op.result_types, loc=op.loc))
        rewriter.replace_op(op, new.results)
        return True


class ConvertCmpIToUnsigned(RewritePattern):
    """A signed `cmpi` of non-negative operands is the unsigned one."""

    root = CmpIOp

    def __init__(self, analysis: IntegerRangeAnalysis):
        self.analysis = analysis

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        predicate = _UNSIGNED_PREDICATE.get(CmpIPredicate.keyword(op.predicate))
        if predicate is None or not all(_non_negative(self.analysis, v) for v in op.operands):
            return False
        rewriter.replace_op_with_new(op, CmpIOp, op.lhs, op.rhs,
                                     predicate=CmpIPredicate.attr(predicate), loc=op.loc)
        return True


@register_pass("arith-unsigned-when-equivalent", opt_level=2,
               summary="Replace signed ops by unsigned ones where every operand and result "
                       "is non-negative.",
               statistics=(("num-patterns", "rewrites"),))
class UnsignedWhenEquivalent(RangeRewritePass):
    def patterns(self, analysis: IntegerRangeAnalysis, options) -> PatternSet:
        patterns = PatternSet([ConvertOpToUnsigned(s, u, analysis)
                               for s, u in _UNSIGNED_FORM.items()])
        patterns.add(ConvertCmpIToUnsigned(analysis))
        return patterns


# ============================================================================ arith-int-range-narrowing
#
# A value whose range fits `width` bits in one reading survives truncation to `width`
# bits and the matching extension back: sign extension for the signed reading,
# zero extension for the unsigned one. An op computed on truncated operands agrees
# with the wide op when the op only looks at low bits (add, sub, mul, the bitwise
# ops) or when it reads its operands the way they were truncated (a signed division
# of signed-truncatable values). MLIR narrows any elementwise op and any cmpi whatever
# the reading, which miscomputes e.g. `cmpi slt` of 100 and 200 narrowed from i16 to
# i8 unsigned (200 reads as -56); here each op says which readings it may use.

_ANY_READING = frozenset({"signed", "unsigned"})
_SIGNED_READING = frozenset({"signed"})
_UNSIGNED_READING = frozenset({"unsigned"})

# op class -> the readings in which the narrowed op computes what the wide one does.
_NARROWABLE = {
    AddIOp: _ANY_READING, SubIOp: _ANY_READING, MulIOp: _ANY_READING,
    AndIOp: _ANY_READING, OrIOp: _ANY_READING, XOrIOp: _ANY_READING, ShLIOp: _ANY_READING,
    DivSIOp: _SIGNED_READING, RemSIOp: _SIGNED_READING, CeilDivSIOp: _SIGNED_READING,
    FloorDivSIOp: _SIGNED_READING, MinSIOp: _SIGNED_READING, MaxSIOp: _SIGNED_READING,
    ShRSIOp: _SIGNED_READING,
    DivUIOp: _UNSIGNED_READING, RemUIOp: _UNSIGNED_READING, CeilDivUIOp: _UNSIGNED_READING,
    MinUIOp: _UNSIGNED_READING, MaxUIOp: _UNSIGNED_READING, ShRUIOp: _UNSIGNED_READING,
}
_SHIFTS = (ShLIOp, ShRSIOp, ShRUIOp)


def _with_element(type_: Type, element: Type) -> Type:
    """`type_` with `element` as its (element) type."""
    return dataclasses.replace(type_, element_type=element) if isinstance(type_, ShapedType) \
        else element


def _element(type_: Type) -> Type:
    return type_.element_type if isinstance(type_, ShapedType) else type_


def _cast(rewriter: PatternRewriter, value: Value, target: Type, reading: frozenset[str],
          loc) -> Value:
    """`value` converted to `target` (narrower or wider) keeping its value in `reading`:
    index_cast(ui) to and from index, else trunci, or extsi/extui."""
    source = value.type
    if source == target:
        return value
    signed_only = reading == _SIGNED_READING
    if isinstance(_element(source), IndexType) or isinstance(_element(target), IndexType):
        cast = IndexCastOp if signed_only else IndexCastUIOp
    elif _element(target).width < _element(source).width:
        cast = TruncIOp
    else:
        cast = ExtSIOp if signed_only else ExtUIOp
    return rewriter.create(cast, value, result_types=[target], loc=loc).results[0]


def _common_readings(ranges, width: int) -> frozenset[str]:
    readings = _ANY_READING
    for range_ in ranges:
        readings = readings & truncation_kinds(range_, width)
    return readings


class NarrowElementwise(OpPattern):
    """An integer op whose operands and results all fit a narrower supported width is
    computed in it, between casts."""

    def __init__(self, op_class: type, analysis: IntegerRangeAnalysis, widths: tuple[int, ...]):
        super().__init__(op_class)
        self.readings = _NARROWABLE[op_class]
        self.is_shift = op_class in _SHIFTS
        self.analysis = analysis
        self.widths = widths

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        values = [*op.operands, *op.results]
        ranges = [self.analysis.range_of(v) for v in values]
        if any(r is None for r in ranges):
            rewriter.notify_match_failure(op, "an operand or result has no range")
            return False
        wide = op.results[0].type
        for width in self.widths:
            # The casts follow what the values fit (as MLIR's); the op must compute
            # the same in one of those readings.
            readings = _common_readings(ranges, width)
            if not readings & self.readings:
                continue
            # A shift by the narrow width or more would be poison where the wide one is not.
            if self.is_shift and ranges[1].umax >= width:
                continue
            narrow = _with_element(wide, IntegerType(width))
            operands = []
            for value, range_ in zip(op.operands, ranges):
                # A non-negative value reads the same both ways: keep it non-negative
                # through index casts, which no later rewrite could recover.
                reading = _ANY_READING if readings == _SIGNED_READING and range_.smin >= 0 \
                    else readings
                operands.append(_cast(rewriter, value, narrow, reading, op.loc))
            narrowed = rewriter.insert(type(op).create_from_flat(
                operands, self._narrowed_attributes(op, readings), [narrow] * len(op.results),
                loc=op.loc))
            results = []
            for old, new in zip(op.results, narrowed.results):
                back = _cast(rewriter, new, wide, readings, op.loc)
                self.analysis.copy_range(old, back)
                results.append(back)
            rewriter.replace_op(op, results)
            return True
        return False

    @staticmethod
    def _narrowed_attributes(op: Operation, readings: frozenset[str]) -> dict:
        """The op's attributes; a no-wrap flag holds in the narrow type only for the
        reading its values fit (nsw: signed, nuw: unsigned)."""
        attributes = dict(op.attributes)
        flags = attributes.get("overflowFlags")
        if flags is not None:
            kept = flags.flags
            if "signed" not in readings:
                kept &= ~Overflow.nsw
            if "unsigned" not in readings:
                kept &= ~Overflow.nuw
            attributes["overflowFlags"] = IntegerOverflowFlags(kept)
        return attributes


_SIGNED_PREDICATES = frozenset({"slt", "sle", "sgt", "sge"})
_UNSIGNED_PREDICATES = frozenset({"ult", "ule", "ugt", "uge"})


class NarrowCmpI(RewritePattern):
    """A comparison of operands that fit a narrower supported width, in the reading the
    predicate compares in, is done in that width."""

    root = CmpIOp

    def __init__(self, analysis: IntegerRangeAnalysis, widths: tuple[int, ...]):
        self.analysis = analysis
        self.widths = widths

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        ranges = [self.analysis.range_of(v) for v in op.operands]
        if any(r is None for r in ranges):
            return False
        predicate = CmpIPredicate.keyword(op.predicate)
        needed = _SIGNED_READING if predicate in _SIGNED_PREDICATES else \
            _UNSIGNED_READING if predicate in _UNSIGNED_PREDICATES else _ANY_READING
        wide = op.lhs.type
        for width in self.widths:
            lhs_readings = truncation_kinds(ranges[0], width)
            rhs_readings = truncation_kinds(ranges[1], width)
            if not lhs_readings & rhs_readings & needed:
                continue
            narrow = _with_element(wide, IntegerType(width))
            lhs = _cast(rewriter, op.lhs, narrow, lhs_readings, op.loc)
            rhs = _cast(rewriter, op.rhs, narrow, rhs_readings, op.loc)
            narrowed = rewriter.create(CmpIOp, lhs, rhs, predicate=op.predicate, loc=op.loc)
            self.analysis.copy_range(op.result, narrowed.result)
            rewriter.replace_op(op, narrowed.results)
            return True
        return False


class FoldIndexCastChain(OpPattern):
    """`index_cast(index_cast(x : iN to index) to iN)` is `x` (for a supported N; the
    same for index_castui)."""

    def __init__(self, cast: type, widths: tuple[int, ...]):
        super().__init__(cast)
        self.widths = widths

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = op.operands[0].defining_op
        if not isinstance(inner, self.op_class):
            return False
        source = inner.operands[0]
        result_type = op.results[0].type
        if source.type != result_type or not isinstance(inner.results[0].type, IndexType):
            return False
        if not isinstance(result_type, IntegerType) or result_type.width not in self.widths:
            return False
        rewriter.replace_op(op, [source])
        return True


@dataclass(frozen=True)
class NarrowingOptions:
    int_bitwidths_supported: tuple[int, ...] = option(
        (), min=1, doc="the integer widths ops may be narrowed to, tried in this order")


@register_pass("arith-int-range-narrowing", opt_level=2, options=NarrowingOptions,
               summary="Compute integer ops in the narrowest supported width their ranges "
                       "allow.",
               statistics=(("num-patterns", "rewrites"),))
class IntRangeNarrowing(RangeRewritePass):
    # Bottom-up, as MLIR: a comparison is narrowed while its operands still carry
    # their ranges, before the ops defining them are replaced by casts.
    top_down = False

    def patterns(self, analysis: IntegerRangeAnalysis, options) -> PatternSet:
        widths = tuple(options.int_bitwidths_supported)
        patterns = PatternSet([NarrowElementwise(cls, analysis, widths) for cls in _NARROWABLE])
        patterns.add(NarrowCmpI(analysis, widths))
        patterns.add(FoldIndexCastChain(IndexCastUIOp, widths))
        patterns.add(FoldIndexCastChain(IndexCastOp, widths))
        return patterns
