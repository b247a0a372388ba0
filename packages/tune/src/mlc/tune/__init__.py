"""mlc.tune: searched schedules for loop kernels (TVM's meta-schedule, the MLC course's
chapter on automatic program optimisation).

    from mlc.tune import tune_kernel, tune_model

    result = tune_kernel(MyModule, space=stochastic_schedule_mm, trials=64, work_dir="tune")
    result.trace, result.best.median, result.mod          # the best schedule found
    tune_model("model.onnx", trials=500, work_dir="tune")  # every kernel of a model
    mlc.llvm.build(graph, tuning_db="tune")               # the tuned kernels applied

Modules: :mod:`~mlc.tune.workload` (tasks and their keys), :mod:`~mlc.tune.space`
(where candidates come from), :mod:`~mlc.tune.measure` (worker processes),
:mod:`~mlc.tune.database` (JSON lines), :mod:`~mlc.tune.features` and
:mod:`~mlc.tune.cost_model` (the learned model), :mod:`~mlc.tune.search` (random and
evolutionary search), :mod:`~mlc.tune.tuner` (the API and the task scheduler),
:mod:`~mlc.tune.apply` (a database applied to a build), :mod:`~mlc.tune.cli`
(`mlc-tune`).
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "tuner": ("tune_kernel", "tune_model", "TaskResult", "TuneResult", "model_kernels"),
    "database": ("Database", "Record"),
    "space": ("Space", "SpaceError"),
    "measure": ("LocalExecutor", "MeasureJob", "MeasureResult"),
    "apply": ("TunedSchedules",),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'mlc.tune' has no attribute '{name}'")
    value = getattr(import_module(f"mlc.tune.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
