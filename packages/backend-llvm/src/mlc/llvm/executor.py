"""The graph executor's interface over a model's one native entry point (TVM's
`graph_executor.GraphModule`): `set_input`, `run`, `get_output`, and a plain call.

    model.set_input("x", x)          # by name or index; checked when run
    model.run()                      # writes the outputs in place
    y = model.get_output(0)          # the same array after every run
    y = model(x)                     # or: one call, new output arrays

Both a model compiled in this process (:class:`mlc.llvm.build.CompiledModel`) and one
loaded from a shared library (:class:`mlc.llvm.loader.LoadedModule`) are executors.

A model may be called from several Python threads: its runs share its workspace (the
memory plan's arena), so they take turns, one run at a time (different models run at
once). `run`/`get_output` share the output arrays too; threads should call the model
(`model(x)` returns new arrays). A model called again from inside its own run (by a
Python function it calls) raises RuntimeError instead of waiting for itself forever.
This module imports only numpy and mlc.llvm.native_call: a deployment runs it without
the compiler.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from mlc.llvm.native_call import (
    ArgSpec,
    IndexRangeError,
    NativeCallError,
    NativeFunction,
    UnknownNameError,
    allocate,
)

__all__ = ["ModelExecutor"]


class ModelExecutor:
    """Runs `entry`, a native function whose free arguments are the model's inputs and
    then its outputs (weights and workspace are bound or allocated by the function)."""

    def __init__(self, entry: NativeFunction):
        self.entry = entry
        free = set(entry.free)
        self.inputs: list[ArgSpec] = [s for s in entry.specs
                                      if s.role == "input" and s.name in free]
        self.outputs: list[ArgSpec] = [s for s in entry.specs if s.role == "output"]
        self._input_values: dict[str, np.ndarray] = {}
        self._output_values = [allocate(s, entry.name) for s in self.outputs]
        self._input_index = {s.name: i for i, s in enumerate(self.inputs)}
        self._running = threading.Lock()
        self._runner: int | None = None

    def __call__(self, *inputs: np.ndarray, **named: np.ndarray) -> Any:
        """Run on `inputs` (positionally or by name); the output (several: a tuple),
        new arrays. Calls from several threads take turns."""
        return self._run_entry(inputs, named)

    def _run_entry(self, args: tuple, kwargs: dict[str, Any]) -> Any:
        """Call the entry once no other thread runs it; RuntimeError if this one does."""
        if not self._running.acquire(blocking=False):
            if self._runner == threading.get_ident():
                raise RuntimeError(f"{self.entry.name}: the model was called again while it "
                                   "runs (by a Python function it calls); its workspace is in "
                                   "use by the first run")
            self._running.acquire()
        self._runner = threading.get_ident()
        try:
            return self.entry(*args, **kwargs)
        finally:
            self._runner = None
            self._running.release()

    def set_input(self, name: str | int, value: np.ndarray) -> None:
        """Give input `name` (or its index) the array `value` (checked when run)."""
        if isinstance(name, int) and not isinstance(name, bool):
            if not 0 <= name < len(self.inputs):
                raise IndexRangeError(f"input index {name} out of range (the model has "
                                      f"{len(self.inputs)} inputs)")
            name = self.inputs[name].name
        if not isinstance(name, str) or name not in self._input_index:
            raise UnknownNameError(f"no input named {name!r} (the inputs are "
                                   f"{', '.join(s.name for s in self.inputs)})")
        self._input_values[name] = value

    def run(self) -> None:
        """Run the model on the inputs set; the outputs go to `get_output`."""
        missing = [s.name for s in self.inputs if s.name not in self._input_values]
        if missing:
            raise NativeCallError(f"inputs not set: {', '.join(missing)} (set_input(NAME, "
                                  "ARRAY) each before run())")
        args = [self._input_values[s.name] for s in self.inputs]
        self._run_entry((*args, *self._output_values), {})

    def get_output(self, index: int) -> np.ndarray:
        """Output `index` of the last run (the same array, overwritten by each run)."""
        if type(index) is not int and not isinstance(index, np.integer):
            raise NativeCallError(f"get_output takes an output index, not {index!r}")
        if not -len(self._output_values) <= index < len(self._output_values):
            raise IndexRangeError(f"output index {index} out of range (the model has "
                                  f"{len(self._output_values)} outputs)")
        return self._output_values[index]

    @property
    def num_outputs(self) -> int:
        """How many outputs the model has."""
        return len(self.outputs)
