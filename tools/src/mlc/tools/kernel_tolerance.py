"""The default tolerance of `mlc-run --check`: from what the kernels compute.

The interpreter is the reference: it computes each graph op in float64 and rounds once
to the result type. Native code rounds every step in the accumulation type (float32 for
float32 and the 16-bit floats, as TVM's kernels): a sum of K terms carries up to K
roundings of unit roundoff u (2^-24 for float32), relative to the sum of the terms'
magnitudes, and the errors of the reductions one after another add up. So the default
is

    rtol = u_acc * (sum of the reduction lengths) + u_out * 4
    atol = rtol * max |reference|

where the sum runs over the reductions of the program (each loop block's reduce
iterations; for a kernel on memrefs, each scf.for that carries a float and each
scf.parallel that reduces one, whose threads combine partial sums), u_acc is the
accumulation type's unit roundoff, u_out the outputs' (the 4 leaves room for the last
rounding and a few ulps of libm's functions against numpy's),
and atol scales with the outputs because a sum's error scales with its terms, not its
(possibly cancelled) result. The tutorial's 3x3 convolution over 64 channels (576
terms) gets rtol 3.5e-5; a kernel that drops or repeats one term is off by about a
term, orders of magnitude beyond.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor, log10, prod

from mlc.ir.core.attributes import FLOAT_FORMATS, FloatType, Type
from mlc.ir.core.ir import Operation
from mlc.ir.dialects import arith, scf
from mlc.loop import ops as loop

__all__ = ["KernelTolerance", "kernel_tolerance"]

_LIBM_ULPS = 4


@dataclass(frozen=True)
class KernelTolerance:
    """What a program's reductions are and the tolerance they call for."""

    accumulation: str            # the least precise accumulation type, e.g. "f32"
    longest: int                 # terms of the longest reduction
    total: int                   # terms of all the reductions, added up
    rtol: float                  # u_acc * total + u_out * _LIBM_ULPS

    def atol(self, scale: float) -> float:
        """The absolute tolerance for outputs of magnitude up to `scale` (two
        significant digits, rounded up)."""
        return _two_digits_up(self.rtol * max(scale, 1.0))

    def describe(self) -> str:
        if not self.total:
            return f"no reduction; {self.accumulation} arithmetic"
        return (f"{self.accumulation} accumulation, reductions of up to {self.longest:,} "
                f"terms ({self.total:,} in all)")


def _unit_roundoff(type_: Type) -> float:
    if isinstance(type_, FloatType) and type_.name in FLOAT_FORMATS:
        return 2.0 ** -FLOAT_FORMATS[type_.name].precision
    return 0.0


def _reductions(module: Operation) -> list[tuple[int, Type]]:
    """(terms, accumulation type) of each float reduction in `module`: loop blocks'
    reduce iterations, scf.for loops carrying floats (nested ones multiplied),
    scf.parallel loops reducing floats."""
    found = []
    for op in module.walk():
        if isinstance(op, loop.BlockOp):
            extents = [e for e, kind in zip(op.attributes["iter_extents"].values, op.kinds)
                       if kind == "R"]
            stored = [s.operands[0].type for s in op.walk_nested() if isinstance(s, loop.StoreOp)]
            if extents and stored and isinstance(stored[0], FloatType):
                found.append((prod(extents), stored[0]))
        elif isinstance(op, scf.ForOp):
            floats = [r.type for r in op.results if isinstance(r.type, FloatType)]
            trips = _trip_count(op)
            if floats and trips:
                outer = op.parent_op
                while isinstance(outer, scf.ForOp) and \
                        any(isinstance(r.type, FloatType) for r in outer.results):
                    trips *= _trip_count(outer) or 1
                    outer = outer.parent_op
                found.append((trips, floats[0]))
        elif isinstance(op, scf.ParallelOp):
            floats = [r.type for r in op.results if isinstance(r.type, FloatType)]
            rank = len(op.regions[0].blocks[0].args)
            trips = [_trip_count_of(op.operands[d], op.operands[rank + d],
                                    op.operands[2 * rank + d]) for d in range(rank)]
            if floats and all(trips):
                found.append((prod(trips), floats[0]))
    return found


def _trip_count(loop: Operation) -> int | None:
    return _trip_count_of(*loop.operands[:3])


def _trip_count_of(*values) -> int | None:
    """The trip count of a loop from `lower, upper, step`, when they are constants."""
    bounds = []
    for value in values:
        defining = value.defining_op
        attr = defining.attributes.get("value") if defining is not None else None
        if not isinstance(defining, arith.ConstantOp) or not hasattr(attr, "value"):
            return None
        bounds.append(attr.value)
    lower, upper, step = bounds
    return max(0, -(-(upper - lower) // step)) if step > 0 else None


def kernel_tolerance(module: Operation, outputs: list[Type]) -> KernelTolerance:
    """The tolerance of the program `module` (graph ops lowered to loops, or kernels on
    memrefs) whose outputs have element types `outputs`."""
    reductions = _reductions(module)
    accumulation = max((t for _, t in reductions), key=_unit_roundoff, default=None)
    output = max((t for t in outputs if isinstance(t, FloatType)), key=_unit_roundoff,
                 default=accumulation)
    total = sum(terms for terms, _ in reductions)
    longest = max((terms for terms, _ in reductions), default=0)
    rtol = (_unit_roundoff(accumulation) * total if accumulation is not None else 0.0) \
        + (_unit_roundoff(output) * _LIBM_ULPS if output is not None else 0.0)
    named = accumulation or output
    return KernelTolerance(str(named) if named is not None else "integer", longest, total,
                           _two_digits_up(rtol))


def _two_digits_up(value: float) -> float:
    """`value` rounded up to two significant digits (a tolerance as people write it)."""
    if value <= 0:
        return 0.0
    rounded = float(f"{value:.1e}")
    return rounded if rounded >= value else float(f"{rounded + 10 ** (floor(log10(value)) - 1):.1e}")
