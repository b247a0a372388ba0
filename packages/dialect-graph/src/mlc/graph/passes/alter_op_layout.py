"""graph-alter-op-layout: TVM's AlterOpLayout with its conv2d hook, as a dialect
conversion from NCHW to the channel-blocked layout NCHW{n}c.

- The type converter maps a 4-D NCHW tensor whose channels divide by n to its
  NCHW{n}c type; its materialisations are `graph.layout_transform` ops (a constant is
  re-laid with numpy instead), so transforms appear only where the layouts meet.
- Every conv2d in NCHW/OIHW with groups 1 and channels that divide by n is illegal
  and becomes a conv2d on NCHW{n}c data and an OIHW{n}i{n}o kernel; a first
  convolution on an image of fewer than n channels c takes its data in NCHW{c}c
  (one block of all channels) and an OIHW{c}i{n}o kernel; a depthwise one keeps its
  data in NCHW{n}c with an OIHW1i{n}o kernel (TOPI's conv2d_NCHWc and
  depthwise_conv2d_NCHWc).
- A pool (max, average, global) of a value with a blocked form pools the blocked
  data (its `layout` attribute), and a constant channel bias (`bias_add` on axis 1)
  becomes an add of the re-laid bias, so the layout flows through them.
- A layout-agnostic op (elementwise unary, cast, broadcast binary, where) is illegal
  when one of its operands has a blocked form (the result of a converted op, or of
  a transform out of NCHW{n}c) and every other operand can take the blocked layout
  too: a same-channel NCHW value (transformed), a constant broadcasting along the
  channels or not at all (re-laid), a scalar (kept). It becomes the same op on
  blocked types, so the blocked layout flows downstream of each converted conv2d.
- Every other op keeps NCHW; the conversion's source materialisation puts one
  transform back to NCHW after the blocked value such ops use.
- A dense of a constant (N, K) weight, and a matmul of a constant 2-D right-hand side
  (a dense of its transpose), take the weight packed in panels of b output features,
  (N/b, K, b) (layout NK{b}n, TVM's dense_pack), or transposed (KN) when no b >= 4
  divides N: consecutive output features read consecutive weights, and each panel
  walks K in one stream.

Afterwards the layout canonicalization patterns cancel inverse transform pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mlc.graph import layout
from mlc.graph.canonicalization.layout import PATTERNS as LAYOUT_PATTERNS
from mlc.graph.dialect import graph
from mlc.graph.names import unique_name
from mlc.graph.op_base import ShapeError
from mlc.graph.ops.constant import ConstantOp, value_array
from mlc.graph.ops.elementwise import AddOp, Binary, CastOp, Unary, WhereOp
from mlc.graph.ops.nn import BiasAddOp, Conv2DOp, DenseOp, GlobalPool2D, MatmulOp, Pool2D
from mlc.graph.ops.transform import LayoutTransformOp
from mlc.graph.types import tensor
from mlc.ir import (
    DenseElementsAttr,
    DenseResourceElementsAttr,
    Location,
    Operation,
    RankedTensorType,
    StringAttr,
    Type,
    Value,
)
from mlc.ir.passes import Pass, PassFailure, option, register_pass
from mlc.ir.rewrite import (
    ConversionPattern,
    ConversionRewriter,
    ConversionTarget,
    GreedyConfig,
    PatternRewriter,
    PatternSet,
    TypeConverter,
    apply_partial_conversion,
    apply_patterns_greedily,
)

LAYOUT_AGNOSTIC = (Unary, CastOp, Binary, WhereOp)
"""Ops computing each output element from the elements at the same (broadcast)
position only, with no attribute naming an axis: they work on any layout."""


def is_layout_agnostic(op: Operation) -> bool:
    """Whether `op` computes the same thing on blocked operands (see LAYOUT_AGNOSTIC)."""
    return isinstance(op, LAYOUT_AGNOSTIC)


def broadcast_operand_shape(shape: tuple[int, ...], channels: int, block: int) -> tuple[int, ...] | None:
    """The NCHW{block}c shape for an operand of `shape` broadcast against an NCHW
    tensor of `channels` channels: (a, C/n, h, w, n) when it has the C channels,
    (a, 1, h, w, 1) when it broadcasts along them; None for anything else."""
    if len(shape) > 4:
        return None
    a, c, h, w = (1,) * (4 - len(shape)) + tuple(shape)
    if c == channels and c % block == 0:
        return (a, c // block, h, w, block)
    if c == 1:
        return (a, 1, h, w, 1)
    return None


def broadcast_operand_array(array: np.ndarray, channels: int, block: int) -> np.ndarray:
    """`array` re-laid to broadcast_operand_shape."""
    shape = broadcast_operand_shape(array.shape, channels, block)
    four = array.reshape((1,) * (4 - array.ndim) + array.shape)
    if shape[-1] == block and four.shape[1] == channels:
        return layout.to_blocked(four, block)
    return four.reshape(shape)


@dataclass(frozen=True)
class AlterOpLayoutOptions:
    """Options of graph-alter-op-layout."""

    block: int = option(16, min=1, doc="the channel block n of NCHW{n}c")


class BlockedLayout:
    """The NCHW -> NCHW{n}c change of one run: its type converter and
    materialisations, which values already have a blocked form, and the legality
    rule of graph ops."""

    def __init__(self, block: int):
        self.block = block
        # Results of converted ops -> the blocked values that replace them.
        self.blocked: dict[Value, Value] = {}
        # (value, layout) -> its re-laid form, so a value used by several converted
        # ops is transformed once.
        self.relaid: dict[tuple[Value, str], Value] = {}
        self.transforms: list[Operation] = []
        self.constants_relaid = 0
        self.converter = TypeConverter()
        self.converter.add_conversion(self.blocked_type)
        self.converter.add_target_materialization(self.to_blocked)
        self.converter.add_source_materialization(self.to_nchw)

    # ---------------------------------------------------------------- types

    def block_of(self, channels: int) -> int | None:
        """The channel block of a tensor of `channels` channels: the pass's block n,
        else the largest of n/2, n/4... (at least 4) that divides them (24 channels
        take NCHW8c beside NCHW16c, as TVM picks each convolution's blocks); None when
        none does."""
        block = self.block
        while block >= min(4, self.block):
            if channels % block == 0:
                return block
            block //= 2
        return None

    def blocked_type(self, type_: Type) -> Type | None:
        """NCHW tensor type -> NCHW{b}c tensor type, b the block of its channels."""
        if not isinstance(type_, RankedTensorType) or len(type_.shape) != 4 \
                or any(d < 0 for d in type_.shape):
            return None
        block = self.block_of(type_.shape[1])
        if block is None:
            return None
        return tensor(layout.blocked_shape(type_.shape, block), type_.element_type)

    # ---------------------------------------------------------------- materialisations

    def to_blocked(self, rewriter: PatternRewriter, types: Sequence[Type], inputs: Sequence[Value],
                   loc: Location) -> list[Value] | None:
        """Target materialisation: NCHW value -> NCHW{n}c (a constant of any
        broadcastable shape is re-laid with numpy)."""
        if len(inputs) != 1 or len(types) != 1:
            return None
        [value], [wanted] = inputs, types
        if not isinstance(value.type, RankedTensorType) or not isinstance(wanted, RankedTensorType):
            return None
        channels = wanted.shape[1] * wanted.shape[4] if len(wanted.shape) == 5 else 0
        array = value_array(value)
        if array is not None:
            block = wanted.shape[4] if len(wanted.shape) == 5 else 0
            if not block or broadcast_operand_shape(array.shape, channels, block) != wanted.shape:
                return None
            dst = f"NCHW{block}c"
            return [self._relaid(value, dst, rewriter, lambda: self._new_constant(
                value, broadcast_operand_array(array, channels, block), wanted, dst,
                rewriter, loc))]
        if self.blocked_type(value.type) != wanted:
            return None
        dst = f"NCHW{wanted.shape[4]}c"
        return [self._relaid(value, dst, rewriter, lambda: self._transform(
            value, "NCHW", dst, rewriter, loc))]

    def to_nchw(self, rewriter: PatternRewriter, types: Sequence[Type], inputs: Sequence[Value],
                loc: Location) -> list[Value] | None:
        """Source materialisation: NCHW{n}c value -> NCHW, for the users that stay."""
        if len(inputs) != 1 or len(types) != 1 or self.blocked_type(types[0]) != inputs[0].type:
            return None
        return [self._transform(inputs[0], f"NCHW{inputs[0].type.shape[4]}c", "NCHW", rewriter,
                                loc)]

    def kernel_to_blocked(self, weight: Value, rewriter: PatternRewriter, loc: Location,
                          in_block: int, out_block: int) -> Value:
        """An OIHW weight in OIHW{i}i{o}o: a constant re-laid with numpy, else
        transformed."""
        kernel_layout = f"OIHW{in_block}i{out_block}o"
        array = value_array(weight)
        if array is not None:
            blocked = layout.kernel_to_blocked(array, in_block, out_block)
            type_ = tensor(blocked.shape, weight.type.element_type)
            return self._relaid(weight, kernel_layout, rewriter,
                                lambda: self._new_constant(weight, blocked, type_, kernel_layout,
                                                           rewriter, loc))
        return self._relaid(weight, kernel_layout, rewriter, lambda: self._transform(
            weight, "OIHW", kernel_layout, rewriter, loc))

    def relaid_data(self, value: Value, block: int, rewriter: PatternRewriter,
                    loc: Location) -> Value:
        """An NCHW value in NCHW{block}c for another block than the pass's (a first
        convolution's image): a constant re-laid with numpy, else transformed."""
        dst = f"NCHW{block}c"
        array = value_array(value)
        if array is not None:
            relaid = layout.to_blocked(array, block)
            type_ = tensor(relaid.shape, value.type.element_type)
            return self._relaid(value, dst, rewriter, lambda: self._new_constant(
                value, relaid, type_, dst, rewriter, loc))
        return self._relaid(value, dst, rewriter,
                            lambda: self._transform(value, "NCHW", dst, rewriter, loc))

    def _relaid(self, value: Value, dst: str, rewriter: PatternRewriter, make) -> Value:
        cached = self.relaid.get((value, dst))
        # Reused only in the block being rewritten, where it was defined earlier.
        if cached is not None and cached.defining_op.parent is rewriter.block:
            return cached
        result = make()
        self.relaid[(value, dst)] = result
        return result

    def _transform(self, value: Value, src: str, dst: str, rewriter: PatternRewriter,
                   loc: Location) -> Value:
        op = rewriter.insert(LayoutTransformOp.build(
            value, src_layout=StringAttr(src), dst_layout=StringAttr(dst), loc=loc))
        self.transforms.append(op)
        return op.results[0]

    def _new_constant(self, old: Value, array: np.ndarray, type_: RankedTensorType, dst: str,
                      rewriter: PatternRewriter, loc: Location) -> Value:
        attr = old.defining_op.value
        if isinstance(attr, DenseResourceElementsAttr) and attr.blobs is not None:
            # A weight that came as a blob stays a blob, next to the original.
            handle = unique_name(f"{attr.handle}_{dst}", attr.blobs)
            attr.blobs[handle] = (attr.blobs[attr.handle][0], np.ascontiguousarray(array).tobytes())
            value = DenseResourceElementsAttr(type_, handle, attr.blobs)
        else:
            value = DenseElementsAttr.from_array(array, type_)
        op = rewriter.insert(ConstantOp.build(value=value, loc=loc))
        op.results[0].name_hint = old.name_hint
        self.constants_relaid += 1
        return op.results[0]

    # ---------------------------------------------------------------- legality

    def blocked_source(self, value: Value) -> Value | None:
        """The NCHW{n}c value that `value` (NCHW) is a view of: the replacement of a
        converted op's result, or the operand of a transform out of NCHW{n}c."""
        replacement = self.blocked.get(value)
        if replacement is not None:
            return replacement
        op = value.defining_op
        if isinstance(op, LayoutTransformOp) and op.values["dst_layout"] == "NCHW" \
                and self.blocked_type(value.type) == op.operands[0].type \
                and op.values["src_layout"] == f"NCHW{op.operands[0].type.shape[4]}c":
            return op.operands[0]
        return None

    def conv2d_blocks(self, op: Conv2DOp) -> tuple[int, int] | None:
        """The (input, output) channel blocks an NCHW/OIHW conv2d is converted with, or
        None when it stays: output channels must divide by the block; the input
        channels too (groups 1), or be few (a network's first convolution on its
        image: the input block is all of them, NCHW3c), or the convolution is
        depthwise (one input channel per group: kernel OIHW1i{n}o)."""
        attrs = op.values
        if attrs["data_layout"] != "NCHW" or attrs["kernel_layout"] != "OIHW":
            return None
        data, weight = op.operand_types
        if len(weight.shape) != 4 or self.blocked_type(op.result_types[0]) is None:
            return None
        channels, groups = data.shape[1], attrs["groups"]
        out_block = self.block_of(op.result_types[0].shape[1])
        if groups == 1:
            in_block = self.block_of(channels)
            if in_block is not None:
                return in_block, out_block
            return (channels, out_block) if channels < self.block else None
        if groups == channels == op.result_types[0].shape[1] and weight.shape[1] == 1:
            return 1, out_block
        return None

    def converts_conv2d(self, op: Conv2DOp) -> bool:
        """Whether conv2d_blocks converts `op`."""
        return self.conv2d_blocks(op) is not None

    def operand_forms(self, op: Operation) -> list[tuple[str, Value, Type]] | None:
        """How each operand of a layout-agnostic op takes the blocked layout, as
        (how, value, new type) with how one of "blocked" (its blocked form), "keep"
        (a scalar), "relay" (target materialisation); None when the op stays NCHW."""
        if not is_layout_agnostic(op) or len(op.results) != 1:
            return None
        result_type = self.blocked_type(op.result_types[0])
        if result_type is None:
            return None
        channels = op.result_types[0].shape[1]
        forms = []
        for value in op.operands:
            source = self.blocked_source(value)
            type_ = value.type
            if source is not None:
                forms.append(("blocked", source, source.type))
            elif not isinstance(type_, RankedTensorType):
                return None
            elif type_.shape == ():
                forms.append(("keep", value, type_))
            elif value_array(value) is not None:
                shape = broadcast_operand_shape(type_.shape, channels, result_type.shape[4])
                if shape is None:
                    return None
                forms.append(("relay", value, tensor(shape, type_.element_type)))
            elif len(type_.shape) == 4 and type_.shape[1] == channels:
                forms.append(("relay", value, self.blocked_type(type_)))
            else:
                return None
        if not any(how == "blocked" for how, _, _ in forms):
            return None
        try:
            inferred = type(op).infer([t for _, _, t in forms], op.values)
        except ShapeError:
            return None
        return forms if list(inferred) == [result_type] else None

    def is_legal(self, op: Operation) -> bool:
        """The dynamic legality of graph ops: illegal when the pass converts them."""
        if isinstance(op, Conv2DOp):
            return not self.converts_conv2d(op)
        if isinstance(op, (DenseOp, MatmulOp)):
            return not converts_dense(op)
        if isinstance(op, (Pool2D, GlobalPool2D)):
            return not self.converts_pool(op)
        if isinstance(op, BiasAddOp):
            return not self.converts_bias_add(op)
        return self.operand_forms(op) is None

    def converts_bias_add(self, op: BiasAddOp) -> bool:
        """A channel bias (a constant) added to NCHW data with a blocked form: it
        becomes an add of the re-laid bias to the blocked data."""
        data = op.operands[0]
        return data.type.rank == 4 and op.values["axis"] in (1, -3) \
            and self.blocked_source(data) is not None and value_array(op.operands[1]) is not None

    def converts_pool(self, op: Operation) -> bool:
        """A pool of NCHW data that has a blocked form: it pools the blocked data."""
        return op.values["layout"] == "NCHW" and self.blocked_source(op.operands[0]) is not None

    def packed_weight(self, weight: Value, transposed: bool, rewriter: PatternRewriter,
                      loc: Location) -> tuple[Value, str]:
        """A constant weight, (N, K) or with `transposed` (K, N), packed in panels of b
        output features, (N/b, K, b) for the largest b of the block, half of it...
        dividing N, else (K, N); the new constant and its layout."""
        array = value_array(weight)
        kn = array if transposed else array.T
        outputs = kn.shape[1]
        panel = self.block
        while panel >= 4 and outputs % panel:
            panel //= 2
        if panel >= 4:
            packed = np.ascontiguousarray(kn.reshape(kn.shape[0], outputs // panel, panel)
                                          .transpose(1, 0, 2))
            layout_name = f"NK{panel}n"
        else:
            packed, layout_name = np.ascontiguousarray(kn), "KN"
        type_ = tensor(packed.shape, weight.type.element_type)
        return self._relaid(weight, layout_name, rewriter, lambda: self._new_constant(
            weight, packed, type_, layout_name, rewriter, loc)), layout_name


def converts_dense(op: Operation) -> bool:
    """A dense of a constant (N, K) weight, or a matmul of a constant 2-D right-hand
    side (a dense of its transpose): the pass packs the weight (TVM's dense_pack), so
    consecutive output features read consecutive weights, each panel one stream."""
    if isinstance(op, DenseOp):
        return op.values["weight_layout"] == "NK" and value_array(op.weight) is not None
    rhs = op.operands[1]
    return isinstance(op, MatmulOp) and rhs.type.rank == 2 and op.operands[0].type.rank >= 2 \
        and value_array(rhs) is not None


class Conv2DToBlocked(ConversionPattern):
    """conv2d NCHW x OIHW -> conv2d NCHW{n}c x OIHW{n}i{n}o."""

    root = Conv2DOp

    def __init__(self, blocked: BlockedLayout):
        # No type converter: the adaptor holds the blocked replacement of a converted
        # producer, and the rest is re-laid here (the weight is no NCHW tensor).
        super().__init__(None)
        self.blocked = blocked
        self.converted = 0

    def match_and_rewrite(self, op: Conv2DOp, adaptor, rewriter: ConversionRewriter) -> bool:
        blocked = self.blocked
        blocks = blocked.conv2d_blocks(op)
        if blocks is None:
            return rewriter.notify_match_failure(op, "not an NCHW/OIHW conv2d of whole blocks")
        in_block, out_block = blocks
        depthwise = op.values["groups"] > 1
        data_block = out_block if depthwise else in_block  # depthwise: the data's own
        if data_block == blocked.block_of(op.data.type.shape[1]):
            wanted = blocked.blocked_type(op.data.type)
            new_data = adaptor.data
            if new_data.type != wanted:
                new_data = blocked.blocked_source(new_data)
                if new_data is None:
                    [new_data] = blocked.converter.materialize_target(
                        rewriter, [wanted], [adaptor.data], op.loc)
        else:  # the few channels of an image, all in one block
            new_data = blocked.relaid_data(adaptor.data, data_block, rewriter, op.loc)
        new_weight = blocked.kernel_to_blocked(adaptor.weight, rewriter, op.loc, in_block,
                                               out_block)
        attrs = dict(op.attributes)
        attrs["data_layout"] = StringAttr(f"NCHW{data_block}c")
        attrs["kernel_layout"] = StringAttr(f"OIHW{in_block}i{out_block}o")
        new = rewriter.insert(Conv2DOp.create_from_flat([new_data, new_weight], attrs, loc=op.loc))
        _replace(op, new, blocked, rewriter)
        self.converted += 1
        return True


class PoolToBlocked(ConversionPattern):
    """A pool of NCHW data with a blocked form -> the same pool on NCHW{n}c."""

    root = None  # every pool class: max, average, global

    def __init__(self, blocked: BlockedLayout):
        super().__init__(None)
        self.blocked = blocked
        self.converted = 0

    def match_and_rewrite(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        blocked = self.blocked
        if not isinstance(op, (Pool2D, GlobalPool2D)) or not blocked.converts_pool(op):
            return rewriter.notify_match_failure(op, "its operand has no blocked form")
        attrs = dict(op.attributes)
        source = blocked.blocked_source(op.operands[0])
        attrs["layout"] = StringAttr(f"NCHW{source.type.shape[4]}c")
        new = rewriter.insert(type(op).create_from_flat([source], attrs, loc=op.loc))
        _replace(op, new, blocked, rewriter)
        self.converted += 1
        return True


class BiasAddToBlocked(ConversionPattern):
    """bias_add(NCHW x, constant b, axis 1) of an x with a blocked form ->
    add(blocked x, b re-laid to (1, C/n, 1, 1, n))."""

    root = BiasAddOp

    def __init__(self, blocked: BlockedLayout):
        super().__init__(None)
        self.blocked = blocked
        self.converted = 0

    def match_and_rewrite(self, op: BiasAddOp, adaptor, rewriter: ConversionRewriter) -> bool:
        blocked = self.blocked
        if not blocked.converts_bias_add(op):
            return rewriter.notify_match_failure(op, "not a constant channel bias of data "
                                                     "with a blocked form")
        data = blocked.blocked_source(op.operands[0])
        bias = op.operands[1]
        channels = op.operands[0].type.shape[1]
        array = value_array(bias).reshape(1, channels, 1, 1)
        block = data.type.shape[4]
        relaid = broadcast_operand_array(array, channels, block)
        type_ = tensor(relaid.shape, bias.type.element_type)
        dst = f"NCHW{block}c"
        constant = blocked._relaid(bias, dst, rewriter, lambda: blocked._new_constant(
            bias, relaid, type_, dst, rewriter, op.loc))
        new = rewriter.insert(AddOp.create_from_flat([data, constant], {}, [data.type], op.loc))
        _replace(op, new, blocked, rewriter)
        self.converted += 1
        return True


class PackDenseWeight(ConversionPattern):
    """dense(x, W) with a constant (N, K) weight, or matmul(x, B) with a constant
    (K, N) B -> dense(x, W packed as (N/b, K, b)) (see converts_dense)."""

    root = None  # dense and matmul

    def __init__(self, blocked: BlockedLayout):
        super().__init__(None)
        self.blocked = blocked
        self.converted = 0

    def match_and_rewrite(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        if not isinstance(op, (DenseOp, MatmulOp)) or not converts_dense(op):
            return rewriter.notify_match_failure(op, "not a dense or matmul of a constant weight")
        weight, layout_name = self.blocked.packed_weight(
            op.operands[1], isinstance(op, MatmulOp), rewriter, op.loc)
        attrs = dict(op.attributes) if isinstance(op, DenseOp) else {}
        attrs["weight_layout"] = StringAttr(layout_name)
        new = rewriter.insert(DenseOp.create_from_flat([adaptor.operands[0], weight], attrs,
                                                       loc=op.loc))
        new.results[0].name_hint = op.results[0].name_hint
        rewriter.replace_op(op, new.results)
        self.converted += 1
        return True


class FollowBlockedOperands(ConversionPattern):
    """A layout-agnostic op with a blocked operand -> the same op on blocked types."""

    root = None

    def __init__(self, blocked: BlockedLayout):
        super().__init__(None)
        self.blocked = blocked
        self.converted = 0

    def match_and_rewrite(self, op: Operation, adaptor, rewriter: ConversionRewriter) -> bool:
        blocked = self.blocked
        forms = blocked.operand_forms(op)
        if forms is None:
            return rewriter.notify_match_failure(op, "no operand has a blocked form")
        operands = []
        for how, value, type_ in forms:
            if how == "relay":
                [value] = blocked.converter.materialize_target(rewriter, [type_], [value], op.loc)
            operands.append(value)
        result_type = blocked.blocked_type(op.result_types[0])
        new = rewriter.insert(type(op).create_from_flat(operands, dict(op.attributes), [result_type],
                                                        op.loc))
        _replace(op, new, blocked, rewriter)
        self.converted += 1
        return True


def _replace(op: Operation, new: Operation, blocked: BlockedLayout,
             rewriter: ConversionRewriter) -> None:
    new.results[0].name_hint = op.results[0].name_hint
    blocked.blocked[op.results[0]] = new.results[0]
    rewriter.on_rollback(blocked.blocked.pop, op.results[0])
    rewriter.replace_op(op, new.results)


@register_pass("graph-alter-op-layout", opt_level=3, options=AlterOpLayoutOptions,
               summary="Convert conv2d to the channel-blocked layout NCHW{n}c (TVM's "
                       "AlterOpLayout), carrying the layout through elementwise and "
                       "broadcast ops, with layout_transform ops at the boundaries.",
               statistics=(("num-conv2d", "conv2d ops converted to NCHW{n}c"),
                           ("num-dense", "dense and matmul ops given a packed constant weight"),
                           ("num-followers", "layout-agnostic ops converted along"),
                           ("num-transforms", "layout_transform ops inserted"),
                           ("num-constants", "constants re-laid")))
class AlterOpLayout(Pass):
    """See the module docstring: one partial conversion, then the layout patterns."""

    def run(self, op: Operation, run) -> None:
        blocked = BlockedLayout(run.options.block)
        target = ConversionTarget()
        target.add_dynamically_legal_dialect(graph, blocked.is_legal)
        conv2d, followers = Conv2DToBlocked(blocked), FollowBlockedOperands(blocked)
        dense = PackDenseWeight(blocked)
        pools, bias_add = PoolToBlocked(blocked), BiasAddToBlocked(blocked)
        result = apply_partial_conversion(op, target,
                                          PatternSet([conv2d, dense, pools, bias_add, followers]),
                                          blocked.converter)
        if not result.success:
            raise PassFailure(result.diagnostics)
        followers.converted += pools.converted + bias_add.converted
        if conv2d.converted or followers.converted or dense.converted:
            # Cancel the transforms that now meet their inverse (and drop what the
            # conversion left dead: OIHW weights, transforms read through).
            apply_patterns_greedily(op, PatternSet(LAYOUT_PATTERNS), GreedyConfig(fold=False))
        self.statistics["num-conv2d"] += conv2d.converted
        self.statistics["num-dense"] += dense.converted
        self.statistics["num-followers"] += followers.converted
        self.statistics["num-transforms"] += sum(t.parent is not None for t in blocked.transforms)
        self.statistics["num-constants"] += blocked.constants_relaid
