"""Applying a tuning database to a build (TVM's MetaScheduleApplyDatabase): each
kernel whose structural key has a successful record for the build's target gets the
fastest record's trace, renamed to the kernel's function; the others get the default
rules. `mlc.llvm.build(..., tuning_db=DIR)` and `mlc-run --tuning-db DIR` use it.
"""

from __future__ import annotations

import hashlib
import json
import os

from mlc.ir.core.ir import Operation
from mlc.loop.schedule import Instruction, Trace
from mlc.tune.database import Database
from mlc.tune.workload import function_name, kernel_key

__all__ = ["TunedSchedules", "for_function"]


def for_function(trace: Trace, name: str) -> Trace:
    """`trace` with every block it gets looked up in function `name` (the kernel it
    was tuned on may have had another name in another model)."""
    instructions = []
    for inst in trace.instructions:
        inputs, attrs = list(inst.inputs), dict(inst.attrs)
        if inst.kind == "get_block":
            if len(inputs) > 1:
                inputs[1] = name
            else:
                attrs["func_name"] = name
        instructions.append(Instruction(inst.kind, inputs, attrs, list(inst.outputs)))
    return Trace(instructions)


class TunedSchedules:
    """The best trace of each workload in the database at `work_dir` for `target`."""

    def __init__(self, work_dir: str | os.PathLike, target):
        if not os.path.isdir(work_dir):
            raise FileNotFoundError(f"no tuning database at {work_dir} (a directory "
                                    "mlc-tune or mlc.tune wrote)")
        self.best = Database(work_dir).best_by_workload(target.key)
        chosen = sorted((key, record.trace_key) for key, record in self.best.items())
        self.digest = hashlib.sha256(json.dumps(chosen).encode()).hexdigest()
        self.applied: list[str] = []
        """The kernels given a tuned trace, by name, as the build went."""

    def trace_for(self, fn: Operation) -> Trace | None:
        """The tuned trace of kernel `fn`, or None (the default rules then)."""
        record = self.best.get(kernel_key(fn))
        if record is None:
            return None
        name = function_name(fn)
        self.applied.append(name)
        return for_function(record.as_trace(), name)
