"""Random schedule primitives for hypothesis: one primitive of TVM's `tir.Schedule`
with random arguments on a random block of one kernel.

    sch = Schedule(module)
    apply_random_primitive(sch, data, func_name="main")   # data: st.data()

The arguments are drawn so that most primitives are legal (loops of the chosen block;
split factors that divide the extent, or overshoot it, which guards the blocks with a
predicate); the rest are refused with `ScheduleError`, which the caller catches: a
refused primitive must leave the IR unchanged.
"""

from __future__ import annotations

from hypothesis import strategies as st

from mlc.loop.ops import BlockOp
from mlc.loop.schedule import Schedule

PRIMITIVES = ("split", "fuse", "reorder", "parallel", "vectorize", "unroll",
              "compute_at", "reverse_compute_at", "decompose_reduction", "compute_inline",
              "reverse_compute_inline", "cache_read", "cache_write")


def block_names(sch: Schedule, func_name: str) -> list[str]:
    """The names of the blocks of the kernel `func_name`, sorted."""
    function = next(op for op in sch.mod.regions[0].ops()
                    if op.name == "func.func" and op.sym_name.value == func_name)
    return sorted(op.block_name_str for op in function.walk() if isinstance(op, BlockOp))


def apply_random_primitive(sch: Schedule, data, func_name: str = "main") -> None:
    """One primitive drawn from `PRIMITIVES`, applied to a block of `func_name` (raises
    ScheduleError when the schedule refuses it; does nothing when the block has no loop
    or partner block for it)."""
    blocks = block_names(sch, func_name)
    if not blocks:
        return
    block = sch.get_block(data.draw(st.sampled_from(blocks), label="block"), func_name)
    loops = sch.get_loops(block)
    kind = data.draw(st.sampled_from(PRIMITIVES), label="primitive")
    if kind in ("split", "parallel", "vectorize", "unroll", "decompose_reduction") and loops:
        loop = data.draw(st.sampled_from(loops), label="loop")
        if kind == "split":
            extent = sch.get(loop).extent.value
            divisors = [d for d in range(1, extent + 1) if extent % d == 0]
            inner = data.draw(st.sampled_from(divisors) | st.integers(1, extent + 1),
                              label="factor")
            # None covers the extent with the fewest outer iterations; one more
            # gives a whole tile where the predicate is false.
            outer = data.draw(st.sampled_from([None, -(-extent // inner) + 1]), label="outer")
            sch.split(loop, factors=[outer, inner])
        elif kind == "decompose_reduction":
            sch.decompose_reduction(block, loop)
        else:
            getattr(sch, kind)(loop)
    elif kind == "fuse" and len(loops) >= 2:
        start = data.draw(st.integers(0, len(loops) - 2), label="start")
        sch.fuse(loops[start], loops[start + 1])
    elif kind == "reorder" and len(loops) >= 2:
        order = data.draw(st.permutations(loops), label="order")
        sch.reorder(*order)
    elif kind in ("compute_at", "reverse_compute_at"):
        others = [b for b in blocks if b != sch.get(block).block_name_str]
        if not others:
            return
        target = sch.get_block(data.draw(st.sampled_from(others), label="other"), func_name)
        target_loops = sch.get_loops(target)
        if target_loops:
            getattr(sch, kind)(block, data.draw(st.sampled_from(target_loops), label="at"))
    elif kind in ("compute_inline", "reverse_compute_inline"):
        getattr(sch, kind)(block)
    elif kind in ("cache_read", "cache_write"):
        getattr(sch, kind)(block, data.draw(st.integers(0, 1), label="buffer"), "local")
