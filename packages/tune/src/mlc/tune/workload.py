"""Workloads: the kernels a tuning run searches schedules for, each keyed by its
structure so that a record found for one kernel serves every kernel that computes the
same thing the same way, in any model, process or machine.

A kernel's key is the SHA-256 of its loop IR as printed with its name left out (the
block names, buffer types and loop nests are in it; locations are not). A model's
tasks are its distinct kernels: the kernels its `main` calls, grouped by key, with
how many calls each has and the floating-point operations of one call
(:mod:`mlc.loop.cost`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from mlc.ir import print_op
from mlc.ir.core.ir import Operation
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func import CallOp
from mlc.loop.cost import kernel_cost
from mlc.loop.rules import kernels

__all__ = ["Workload", "kernel_key", "kernel_module", "model_workloads"]


def function_name(fn: Operation) -> str:
    return fn.attributes["sym_name"].value


def kernel_key(fn: Operation) -> str:
    """The structural key of kernel `fn` (module docstring)."""
    name = function_name(fn)
    text = print_op(fn).replace(f"@{name}(", "@kernel(", 1)
    return hashlib.sha256(text.encode()).hexdigest()


def kernel_module(fn: Operation) -> ModuleOp:
    """A module holding a copy of kernel `fn` alone: what a candidate is built from."""
    module = ModuleOp.build()
    module.body.append(fn.clone())
    return module


@dataclass
class Workload:
    """One task: a kernel (`module` holds it alone, named `name`), its key, the calls
    a model makes of it (all the kernels of this key) and the FLOPs of one call."""

    key: str
    name: str
    module: ModuleOp
    calls: int = 1
    flops: int = 0
    names: list[str] = field(default_factory=list)
    """Every kernel of the model with this key."""


def _calls(module: Operation) -> dict[str, int]:
    counts: dict[str, int] = {}
    for op in module.walk():
        if isinstance(op, CallOp):
            name = op.attributes["callee"].leaf
            counts[name] = counts.get(name, 0) + 1
    return counts


def model_workloads(module: Operation) -> list[Workload]:
    """The distinct kernels of `module` (loop kernels and the functions calling them),
    in module order, each once with the calls of every kernel sharing its key."""
    calls = _calls(module)
    found: dict[str, Workload] = {}
    for fn in kernels(module):
        name = function_name(fn)
        key = kernel_key(fn)
        count = calls.get(name, 0) or 1
        if key in found:
            found[key].calls += count
            found[key].names.append(name)
            continue
        cost = kernel_cost(fn)
        found[key] = Workload(key, name, kernel_module(fn), count,
                              cost.flops if cost is not None else 0, [name])
    return list(found.values())
