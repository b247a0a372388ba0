"""Annotations: the loop kinds (`parallel`, `vectorize`, `unroll`) and `annotate`, key =
value pairs on loops and blocks for later passes (TVM's annotate.cc and for_kind.cc).
"""

from __future__ import annotations

from typing import Any

from mlc.ir.core.attributes import Attribute, FloatAttr, IntegerAttr, StringAttr, f64, i1, i64
from mlc.loop.schedule.errors import AnnotationError, LoopKindError
from mlc.loop.schedule.scope import blocks_in, positions_bound_to
from mlc.loop.schedule.state import ScheduleState
from mlc.loop.schedule.trace import BlockRV, LoopRV, primitive

__all__ = ["Annotations"]


class Annotations(ScheduleState):
    """parallel, vectorize, unroll, annotate."""

    @primitive
    def parallel(self, loop: LoopRV) -> None:
        """Run the loop's iterations on threads."""
        self._set_kind(loop, "parallel")

    @primitive
    def vectorize(self, loop: LoopRV) -> None:
        """Run the loop's iterations as SIMD lanes."""
        self._set_kind(loop, "vectorized")

    @primitive
    def unroll(self, loop: LoopRV) -> None:
        """Unroll the loop."""
        self._set_kind(loop, "unrolled")

    def _set_kind(self, loop: LoopRV, kind: str) -> None:
        loop_op = self._loop(loop)
        if kind in ("parallel", "vectorized"):
            for block in blocks_in(loop_op):
                for position in positions_bound_to(block, loop_op.induction_variable):
                    if block.kinds[position] == "R":
                        raise LoopKindError(
                            f'cannot make the loop {kind}: it is bound to reduce iteration '
                            f'variable #{position} of block "{block.block_name_str}"', loop_op)
        with self._rewriter.modify_op_in_place(loop_op):
            if kind == "serial":
                loop_op.attributes.pop("kind", None)
            else:
                loop_op.attributes["kind"] = StringAttr(kind)

    @primitive
    def annotate(self, target: BlockRV | LoopRV, key: str, value: Any) -> None:
        """Attach `key = value` to a loop or block (ints, floats, strings, bools)."""
        op = self.get(target)
        if key in op.op_def.attributes:
            raise AnnotationError(f"'{key}' is not an annotation but the op's own attribute", op)
        with self._rewriter.modify_op_in_place(op):
            op.attributes[key] = _attribute(value)



def _attribute(value: Any) -> Attribute:
    if isinstance(value, bool):
        return IntegerAttr(int(value), i1)
    if isinstance(value, int):
        return IntegerAttr(value, i64)
    if isinstance(value, float):
        return FloatAttr.from_value(value, f64)
    if isinstance(value, str):
        return StringAttr(value)
    raise AnnotationError(f"annotations are ints, floats, strings or bools, not {value!r}")

