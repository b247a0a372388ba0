"""The trace of a schedule: handles (`BlockRV`, `LoopRV`), the primitives applied
(`Instruction`), printed as the Python that replays them (TVM's `sch.trace`), as JSON
data, and replayed on a fresh copy of the module (`Trace.apply`).

`primitive` is the decorator each primitive family puts on its methods: a successful
call is appended to the schedule's trace (inputs positional, options as attributes,
the handles or decision it returns as outputs); a call made by another primitive is
not recorded again.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mlc.loop.schedule.state import ScheduleState

__all__ = ["BlockRV", "LoopRV", "Instruction", "Trace", "primitive", "SAMPLING_PRIMITIVES"]


class _RV:
    """A handle: a name the schedule maps to a block or loop of its module."""

    __slots__ = ("name",)
    prefix = "v"

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


class BlockRV(_RV):
    """A handle on a block of the schedule's module."""

    __slots__ = ()
    prefix = "b"


class LoopRV(_RV):
    """A handle on a loop of the schedule's module."""

    __slots__ = ()
    prefix = "l"


# ------------------------------------------------------------------ the trace


@dataclass
class Instruction:
    """One primitive applied: its name, its inputs (handles or plain values), its
    attributes, its outputs (handles, or the decision of a sampling primitive)."""

    kind: str
    inputs: list[Any]
    attrs: dict[str, Any]
    outputs: list[Any]


@dataclass
class Trace:
    """The primitives a schedule applied, in order, and the seed its sampling
    primitives drew from (None for a trace read back from JSON, which holds the
    decisions themselves)."""

    instructions: list[Instruction] = field(default_factory=list)
    seed: int | None = None

    def as_python(self) -> str:
        """The trace as the Python that replays it (TVM's `sch.trace` form)."""
        lines = []
        for inst in self.instructions:
            names = _parameter_names(inst.kind)
            arguments = [f"{names[n]}={_python_value(v)}" if n < len(names) and
                         not names[n].startswith("*") else _python_value(v)
                         for n, v in enumerate(inst.inputs)]
            arguments += [f"{key}={_python_value(value)}" for key, value in inst.attrs.items()]
            call = f"sch.{inst.kind}({', '.join(arguments)})"
            if inst.outputs and all(isinstance(o, _RV) for o in inst.outputs):
                targets = ", ".join(o.name for o in inst.outputs)
                if inst.kind in ("get_loops", "split", "get_child_blocks") and \
                        len(inst.outputs) == 1:
                    targets += ","
                lines.append(f"{targets} = {call}")
            elif inst.outputs:
                lines.append(f"v = {call}  # decision: {_python_value(inst.outputs)}")
            else:
                lines.append(call)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.as_python()

    def as_json(self) -> list:
        """The trace as JSON data: one `[kind, inputs, attrs, outputs]` per primitive,
        handles written as their names."""
        return [[inst.kind, [_json_value(v) for v in inst.inputs],
                 {k: _json_value(v) for k, v in inst.attrs.items()},
                 [_json_value(v) for v in inst.outputs]] for inst in self.instructions]

    def dumps(self) -> str:
        return json.dumps(self.as_json(), indent=1)

    @staticmethod
    def from_json(data: list) -> Trace:
        """The trace `as_json` wrote (a ValueError when `data` is not one)."""
        if not isinstance(data, list):
            raise ValueError("a trace is a JSON list of [kind, inputs, attrs, outputs]")
        instructions = []
        for n, entry in enumerate(data):
            if not (isinstance(entry, list) and len(entry) == 4 and isinstance(entry[0], str)
                    and isinstance(entry[1], list) and isinstance(entry[2], dict)
                    and isinstance(entry[3], list)):
                raise ValueError(f"trace entry #{n} is not [kind, inputs, attrs, outputs]")
            kind, inputs, attrs, outputs = entry
            if kind not in _PRIMITIVES:
                raise ValueError(f"trace entry #{n}: unknown primitive '{kind}'")
            instructions.append(Instruction(kind, [_from_json(v) for v in inputs],
                                            {k: _from_json(v) for k, v in attrs.items()},
                                            [_from_json(v) for v in outputs]))
        return Trace(instructions)

    def apply(self, schedule: ScheduleState) -> None:
        """Replay on `schedule` (whose module is a fresh copy of the one traced): each
        handle of the trace is bound to what the replayed primitive returns, and
        sampling primitives take the recorded decisions."""
        handles: dict[str, Any] = {}

        def resolve(value):
            if isinstance(value, _RV):
                if value.name not in handles:
                    raise ValueError(f"the trace uses {value.name} before defining it")
                return handles[value.name]
            if isinstance(value, list):
                return [resolve(v) for v in value]
            return value

        for inst in self.instructions:
            method = getattr(schedule, inst.kind)
            inputs = [resolve(v) for v in inst.inputs]
            attrs = {k: resolve(v) for k, v in inst.attrs.items()}
            if inst.kind in SAMPLING_PRIMITIVES:
                attrs["decision"] = inst.outputs
            result = method(*inputs, **attrs)
            outputs = result if isinstance(result, list) else \
                ([] if result is None else [result])
            for recorded, new in zip(inst.outputs, outputs):
                if isinstance(recorded, _RV):
                    handles[recorded.name] = new


def _parameter_names(kind: str) -> list[str]:
    """The primitive's parameter names, `*name` for a variadic one."""
    signature = inspect.signature(_PRIMITIVE_DEFINITIONS[kind])
    return [("*" if p.kind is p.VAR_POSITIONAL else "") + p.name
            for p in list(signature.parameters.values())[1:]]


def _python_value(value) -> str:
    if isinstance(value, _RV):
        return value.name
    if isinstance(value, list):
        return "[" + ", ".join(_python_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _json_value(value):
    if isinstance(value, _RV):
        return {"rv": value.name}
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return value


def _from_json(value):
    if isinstance(value, dict) and set(value) == {"rv"}:
        name = value["rv"]
        return (BlockRV if name.startswith("b") else LoopRV)(name)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


_PRIMITIVES: dict[str, Callable] = {}
_PRIMITIVE_DEFINITIONS: dict[str, Callable] = {}
SAMPLING_PRIMITIVES = {"sample_perfect_tile", "sample_categorical"}


def primitive(method: Callable) -> Callable:
    """Record a successful call of `method` in the trace (inputs positional, options as
    attributes); the handles it returns are its outputs."""
    name = method.__name__

    @functools.wraps(method)
    def recorded(self: ScheduleState, *args, **kwargs):
        if self._replaying:
            return method(self, *args, **kwargs)
        self._replaying = True
        try:
            result = method(self, *args, **kwargs)
        finally:
            self._replaying = False
        outputs = result if isinstance(result, list) else ([] if result is None else [result])
        kwargs.pop("decision", None)
        self.trace.instructions.append(Instruction(name, list(args), dict(kwargs),
                                                   list(outputs)))
        return result

    _PRIMITIVES[name] = recorded
    _PRIMITIVE_DEFINITIONS[name] = method
    return recorded

