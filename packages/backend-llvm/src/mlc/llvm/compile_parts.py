"""A build's native code compiled on several cores: the module's functions split into
parts, each lowered to LLVM IR and compiled to object code in a worker process, the
objects linked into one library in this process (`mlc.llvm.jit.compile_llvm_ir`).

    parts = compile_in_parts(module, target, num_threads)   # None: one process does it
    library = compile_llvm_ir([p.text for p in parts], target, compiled=parts)

Why processes: the lowering is Python (one interpreter lock) and llvmlite runs LLVM
under one lock, so threads would not overlap. Why `os.fork`: a child inherits the
lowered module as it is, with nothing serialised; it sends back only its LLVM IR text
and object code. Each worker narrows the module to its part: the functions of other
parts become declarations (a kernel called from another part becomes public, so the
linker finds it), public globals are defined in the first part only. The parent
keeps the whole module untouched until every worker has answered; if one fails
(an error in its part, or a crash), the caller compiles the module in one process
instead, which reports the error as a serial build does.

How many workers: `MLC_COMPILE_JOBS` if set (1: never fork), else the cores this
process may use; a module smaller than `MIN_PARTED_OPS` operations, a platform without
`fork`, or (unless `MLC_COMPILE_JOBS` is set) a process running other Python threads
(a fork could copy a lock another thread holds) compiles in one process. The parts
depend on the module and the number of workers only.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mlc.ir.core.attributes import StringAttr, SymbolRefAttr
from mlc.ir.core.ir import Operation, Region
from mlc.ir.dialects import memref
from mlc.ir.dialects.func import FuncOp
from mlc.ir.rewrite.rewriter import Rewriter
from mlc.llvm.jit import ObjectCode, compile_object
from mlc.llvm.openmp import available_cores
from mlc.llvm.target import Target

__all__ = ["ENV_COMPILE_JOBS", "MIN_PARTED_LOOP_OPS", "MIN_PARTED_OPS", "PartedCompile",
           "compile_in_parts", "compile_jobs", "narrow_to_part", "partition"]

ENV_COMPILE_JOBS = "MLC_COMPILE_JOBS"
MIN_PARTED_OPS = 4000
"""Below this many operations (in the standard dialects) a module compiles in one
process: forking and linking would cost more than the second core saves."""
MIN_PARTED_LOOP_OPS = 1000
"""The same for loop kernels before `loop-lower`, an unrolled loop's body counted once
per iteration (ResNet-18's kernels: about 6,000; an MLP's: 200)."""
MAX_COMPILE_JOBS = 64


def compile_jobs() -> int:
    """How many processes compile a build: MLC_COMPILE_JOBS, else the cores this
    process may use. ValueError for a bad MLC_COMPILE_JOBS."""
    text = os.environ.get(ENV_COMPILE_JOBS, "").strip()
    if not text:
        return min(available_cores(), MAX_COMPILE_JOBS)
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if not 1 <= jobs <= MAX_COMPILE_JOBS:
        raise ValueError(f"{ENV_COMPILE_JOBS}={text!r}: a whole number of processes from 1 "
                         f"to {MAX_COMPILE_JOBS} is expected")
    return jobs


def _may_fork() -> bool:
    if not hasattr(os, "fork"):
        return False
    return bool(os.environ.get(ENV_COMPILE_JOBS, "").strip()) or threading.active_count() == 1


def _defined_functions(module: Operation) -> list[Operation]:
    return [op for op in module.regions[0].blocks[0].ops()
            if isinstance(op, FuncOp) and op.regions[0].blocks]


def _size(op: Operation) -> int:
    """The operations `op` holds, those of an unrolled loop's body once per iteration
    (the code LLVM gets is about that long)."""
    copies = 1
    kind = op.attributes.get("kind") if op.name == "loop.for" else None
    if kind is not None and kind.value == "unrolled":
        copies = op.attributes["extent"].value
    return 1 + copies * sum(_size(inner) for region in op.regions for block in region.blocks
                            for inner in block.ops())


def partition(module: Operation, jobs: int, first: Sequence[str] = (),
              min_ops: int = MIN_PARTED_OPS) -> list[list[str]] | None:
    """The names of the defined functions of `module` in `jobs` parts of about equal
    size (operations, largest first onto the smallest part; ties by name), those of
    `first` in part 0, or None when the module should compile in one process (fewer
    than `min_ops` operations)."""
    sizes = {fn.attributes["sym_name"].value: _size(fn) for fn in _defined_functions(module)}
    if jobs < 2 or len(sizes) < 2 or sum(sizes.values()) < min_ops:
        return None
    parts: list[list[str]] = [[] for _ in range(min(jobs, len(sizes)))]
    loads = [0] * len(parts)
    for name in first:
        if name in sizes:
            parts[0].append(name)
            loads[0] += sizes.pop(name)
    for name in sorted(sizes, key=lambda n: (-sizes[n], n)):
        smallest = loads.index(min(loads))
        parts[smallest].append(name)
        loads[smallest] += sizes[name]
    return [sorted(part) for part in parts]


def _called(function: Operation) -> set[str]:
    return {attr.root for op in function.walk() for attr in op.attributes.values()
            if isinstance(attr, SymbolRefAttr)}


def narrow_to_part(module: Operation, parts: Sequence[Sequence[str]], index: int) -> None:
    """Keep in `module` the functions of `parts[index]` as definitions: the other
    defined functions they call become declarations, the rest go; a private function
    another part calls becomes public; globals no function of the part reads go, except
    public ones in part 0, which alone defines them."""
    mine = set(parts[index])
    functions = {fn.attributes["sym_name"].value: fn for fn in _defined_functions(module)}
    called_by = {name: _called(fn) for name, fn in functions.items()}
    needed = set().union(*(called_by[name] for name in mine))
    called_elsewhere = set().union(*(called for name, called in called_by.items()
                                     if name not in mine))
    rewriter = Rewriter()
    for name, fn in functions.items():
        if name in mine:
            if name in called_elsewhere and fn.attributes.get("sym_visibility") is not None:
                with rewriter.modify_op_in_place(fn):
                    del fn.attributes["sym_visibility"]
        elif name in needed:
            rewriter.set_insertion_point_before(fn)
            rewriter.insert(FuncOp.build(sym_name=StringAttr(name),
                                         function_type=fn.attributes["function_type"],
                                         sym_visibility=StringAttr("private"),
                                         regions=[Region([])]))
            rewriter.erase_op(fn)
        else:
            rewriter.erase_op(fn)
    for op in list(module.regions[0].blocks[0].ops()):
        if not isinstance(op, memref.GlobalOp):
            continue
        public = op.sym_visibility is None
        if op.sym_name.value not in needed and not (public and index == 0):
            rewriter.erase_op(op)  # another part's (a weight only the entry reads)
        elif public and index > 0 and op.initial_value is not None:
            rewriter.set_insertion_point_before(op)
            rewriter.insert(memref.GlobalOp.build(sym_name=op.sym_name, type=op.type))
            rewriter.erase_op(op)


Lowering = Callable[[Operation, int], tuple[str, list[tuple[str, float]], Any]]
"""`lower(part_module, index)`: the part's LLVM IR text, its stage times (name,
seconds) and anything else (picklable) the caller wants from the part."""


@dataclass
class PartedCompile:
    """Each part's object code, its worker's stage times and what else `lower` gave."""

    objects: list[ObjectCode]
    stages: list[list[tuple[str, float]]] = field(default_factory=list)
    extra: list[Any] = field(default_factory=list)
    seconds: float = 0.0
    """Wall time from the first fork to the last answer."""


def compile_in_parts(module: Operation, target: Target, lower: Lowering,
                     jobs: int | None = None, first: Sequence[str] = (),
                     min_ops: int = MIN_PARTED_OPS) -> PartedCompile | None:
    """Compile `module` in parts, one worker process each (the functions named in
    `first` in part 0): `lower` makes a part's LLVM IR text, the worker compiles it
    to object code. None when the module compiles in one process (module docstring,
    `partition`) or a worker failed; `module` is not changed."""
    jobs = compile_jobs() if jobs is None else jobs
    parts = partition(module, jobs, first, min_ops) if _may_fork() else None
    if parts is None:
        return None

    def work(index: int) -> tuple[ObjectCode, list[tuple[str, float]], Any]:
        narrow_to_part(module, parts, index)
        text, stages, extra = lower(module, index)
        started = time.perf_counter()
        code = compile_object(text, target, name=f"<llvm-ir part {index + 1}>")
        stages.append(("LLVM -O3 and codegen", time.perf_counter() - started))
        return code, stages, extra

    started = time.perf_counter()
    answers = _run_forked([lambda i=i: work(i) for i in range(len(parts))])
    if any(answer is None for answer in answers):
        return None
    objects, stages, extra = (list(column) for column in zip(*answers))
    return PartedCompile(objects, stages, extra, time.perf_counter() - started)


def _run_forked(tasks: Sequence[Callable[[], Any]]) -> list[Any | None]:
    """Run each task in a child process forked from this one; their pickled results,
    None for a task that raised or a child that died."""
    children: list[tuple[int, int]] = []
    try:
        for task in tasks:
            read_end, write_end = os.pipe()
            try:
                with warnings.catch_warnings():
                    # Python 3.12 warns of forking a process with other (OS) threads:
                    # an OpenMP runtime's idle team; the child uses none of their locks.
                    warnings.simplefilter("ignore", DeprecationWarning)
                    pid = os.fork()
            except OSError:  # no memory or processes left: this process compiles
                os.close(read_end)
                os.close(write_end)
                return [None] * len(tasks)
            if pid == 0:  # the child: never returns into the caller's code
                os.close(read_end)
                _child(task, write_end)
            os.close(write_end)
            children.append((pid, read_end))
        results = []
        while children:
            pid, read_end = children[0]
            with os.fdopen(read_end, "rb") as answer:
                data = answer.read()
            _, status = os.waitpid(pid, 0)
            children.pop(0)
            ok = os.waitstatus_to_exitcode(status) == 0 and data
            results.append(pickle.loads(data) if ok else None)
        return results
    finally:
        for pid, read_end in children:  # interrupted: no child outlives the build
            _quietly(os.kill, pid, signal.SIGKILL)
            _quietly(os.waitpid, pid, 0)
            _quietly(os.close, read_end)


def _quietly(call: Callable[..., Any], *args: Any) -> None:
    try:
        call(*args)
    except OSError:
        pass


def _child(task: Callable[[], Any], write_end: int) -> None:
    status = 1
    try:
        data = pickle.dumps(task(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_end, "wb") as out:
            out.write(data)
        status = 0
    except BaseException:  # noqa: BLE001 - the parent compiles this part itself
        pass
    finally:
        os._exit(status)
