"""The loop level's passes; importing this module registers them (the `mlc.passes`
entry point of mlc-dialect-loop).

`loop-apply-trace{file=t.json}` applies a schedule's saved trace (`Trace.dumps()`) to
the module, as a tuning log's best trace is applied at build time.
`graph-lower-to-loop` (in :mod:`mlc.loop.lower_graph`) lowers graph functions to loop
kernels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.passes.options import option
from mlc.ir.passes.registry import Pass, PassFailure, register_pass
from mlc.loop import compact as _compact  # noqa: F401  (registers loop-compact-buffers)
from mlc.loop import hoist_buffers as _hoist  # noqa: F401  (registers loop-hoist-buffers)
from mlc.loop import lower as _lower  # noqa: F401  (registers loop-lower)
from mlc.loop import lower_graph  # noqa: F401 - registers graph-lower-to-loop
from mlc.loop import peel as _peel  # noqa: F401  (registers loop-peel-tails)
from mlc.loop import plan_memory as _plan_memory  # noqa: F401  (registers loop-plan-memory)
from mlc.loop import rules as _rules  # noqa: F401  (registers loop-default-schedule)
from mlc.loop.schedule import Schedule, ScheduleError, Trace


@dataclass(frozen=True)
class ApplyTraceOptions:
    file: str = option("", doc="the trace to apply: JSON as Trace.dumps() writes it")


@register_pass("loop-apply-trace", opt_level=0, options=ApplyTraceOptions, dialects=("loop",),
               summary="Apply a saved schedule trace (a JSON file) to the module's kernels.")
class LoopApplyTrace(Pass):
    def run(self, op: Operation, run) -> None:
        path = run.options.file
        if not path:
            raise PassFailure([Diagnostic("error", "loop-apply-trace needs file=<trace.json>",
                                          op.loc)])
        try:
            with open(path, encoding="utf-8") as stream:
                trace = Trace.from_json(json.load(stream))
        except OSError as exc:
            raise PassFailure([Diagnostic("error", f"cannot read the trace {path}: "
                                          f"{exc.strerror}", op.loc)]) from None
        except ValueError as exc:  # JSONDecodeError included
            raise PassFailure([Diagnostic("error", f"{path} is not a schedule trace: {exc}",
                                          op.loc)]) from None
        try:
            trace.apply(Schedule(op, seed=0, copy=False))
        except ScheduleError as exc:
            raise PassFailure(exc.diagnostics) from None
        except (TypeError, ValueError) as exc:
            raise PassFailure([Diagnostic("error", f"{path}: {exc}", op.loc)]) from None
