"""`--check-semantics`: run the interpreter before the pipeline and after every pass,
and stop at the first pass that changes what a function computes.

    instrument = CheckSemantics(seed=0)
    PassContext(instruments=[instrument])     # mlc-opt --check-semantics[=SEED]

Each public function with a body whose argument types the interpreter takes (integers,
floats, vectors, ranked tensors, memrefs) is run on seeded random arguments when the
first pass starts; its results and the final contents of its memref arguments are
the reference. After each pass the function runs again on the same arguments; a
difference (integers exactly, floats within `rtol` plus an absolute tolerance of `atol`
or `rtol` times the output's largest magnitude, NaN equal to NaN) or new
undefined behaviour fails the pipeline with an error naming the pass, the function,
the first differing output and element. A function whose signature a pass turns from
tensors into destination-passing memrefs (results become output arguments, as the
lowering to loops does) is called that way from then on. A function that disappears,
changes its signature otherwise, or comes to use ops the interpreter cannot run is
no longer checked, and `warn` says so.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mlc.ir.core.attributes import (
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    Type,
    VectorType,
)
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects.func.ops import FuncOp
from mlc.ir.passes.instruments import PassInstrument
from mlc.ir.passes.registry import PassFailure

__all__ = ["CheckSemantics"]


@dataclass
class _Checked:
    name: str
    signature: FunctionType
    arguments: list
    reference: list  # results, then the memref arguments' final contents


class CheckSemantics(PassInstrument):
    """The instrument behind `mlc-opt --check-semantics` (see the module docstring)."""

    def __init__(self, seed: int = 0, rtol: float = 1e-4, atol: float = 1e-5,
                 warn: Callable[[str], None] | None = None):
        self.seed, self.rtol, self.atol = seed, rtol, atol
        self.warn = warn or (lambda text: sys.stderr.write(f"mlc-opt: warning: {text}\n"))
        self.checked: dict[str, _Checked] = {}
        self._module: Operation | None = None  # whose references `checked` holds

    # ------------------------------------------------------------------ hooks

    def run_before_pass(self, pass_, op: Operation) -> None:
        module = _root(op)
        if module is not self._module:  # a new input (--split-input-file: each chunk)
            self._module, self.checked = module, {}
            self._take_references(module)

    def run_after_pass(self, pass_, op: Operation) -> None:
        if not self.checked:
            return
        module = _root(op)
        functions = _functions(module)
        for name, checked in list(self.checked.items()):
            function = functions.get(name)
            if function is None:
                self._stop(name, f"pass '{pass_.name}' removed it")
                continue
            arguments = self._arguments_for(function, checked)
            if arguments is None:
                self._stop(name, f"pass '{pass_.name}' changed its signature")
                continue
            outputs, problem = _run(module, function, arguments)
            if problem is not None and problem[0] == "unsupported":
                self._stop(name, f"after pass '{pass_.name}': {problem[1]}")
                continue
            if problem is not None:
                raise PassFailure([Diagnostic(
                    "error", f"--check-semantics: pass '{pass_.name}' changed what @{name} "
                    f"computes: it now fails: {problem[1]}", function.loc)])
            outputs = outputs[-len(checked.reference):] if function.type != checked.signature \
                else outputs
            difference = self._difference(checked.reference, outputs)
            if difference is not None:
                raise PassFailure([Diagnostic(
                    "error", f"--check-semantics: pass '{pass_.name}' changed what @{name} "
                    f"computes on seeded random arguments (seed {self.seed}): {difference}",
                    function.loc)])

    # ------------------------------------------------------------------ machinery

    def _stop(self, name: str, why: str) -> None:
        del self.checked[name]
        self.warn(f"--check-semantics stops checking @{name}: {why}")

    def _take_references(self, module: Operation) -> None:
        rng = np.random.default_rng(self.seed)
        for name, function in _functions(module).items():
            if not _is_public(function):
                continue
            signature = function.type
            try:
                arguments = [_random_value(t, rng) for t in signature.inputs]
            except _Unsupported as exc:
                self.warn(f"--check-semantics does not check @{name}: {exc}")
                continue
            outputs, problem = _run(module, function, arguments)
            if problem is not None:
                self.warn(f"--check-semantics does not check @{name}: on its random "
                          f"arguments, {problem[1]}")
                continue
            if not outputs:
                continue  # nothing to compare
            self.checked[name] = _Checked(name, signature, arguments, outputs)

    def _arguments_for(self, function: Operation, checked: _Checked) -> list | None:
        """Fresh copies of the arguments for `function`'s signature now: the same, or
        the destination-passing form (tensors as memrefs, results as outputs)."""
        signature = function.type
        if signature == checked.signature:
            return [_copy(a) for a in checked.arguments]
        old = checked.signature
        inputs = list(signature.inputs)
        if signature.results or len(inputs) != len(old.inputs) + len(old.results):
            return None
        arguments = []
        for new_type, old_type, value in zip(inputs, old.inputs, checked.arguments):
            if new_type == old_type:
                arguments.append(_copy(value))
            elif _memref_of(old_type) == new_type:
                arguments.append(_to_buffer(value, new_type))
            else:
                return None
        for new_type, old_type in zip(inputs[len(old.inputs):], old.results):
            if _memref_of(old_type) != new_type:
                return None
            arguments.append(_to_buffer(np.zeros(new_type.shape), new_type))
        return arguments

    def _difference(self, before: list, after: list) -> str | None:
        if len(before) != len(after):
            return f"{len(after)} outputs instead of {len(before)}"
        for index, (old, new) in enumerate(zip(before, after)):
            old_array, new_array = np.asarray(old), np.asarray(new)
            if old_array.shape != new_array.shape:
                return f"output #{index} has shape {new_array.shape} instead of {old_array.shape}"
            if old_array.dtype.kind in "fc" or new_array.dtype.kind in "fc":
                a, b = old_array.astype(np.float64), new_array.astype(np.float64)
                # A sum's rounding error scales with its terms, not with its possibly
                # cancelled result: the absolute tolerance scales with the output's
                # largest magnitude (an element near 0 of an output whose values are
                # near 50 may differ by 50 times more than one whose values are 1).
                finite = np.abs(a[np.isfinite(a)])
                scale = float(finite.max()) if finite.size else 0.0
                atol = max(self.atol, self.rtol * scale)
                close = np.isclose(a, b, rtol=self.rtol, atol=atol, equal_nan=True)
            else:
                close = old_array == new_array
            if not np.all(close):
                where = tuple(int(i) for i in np.argwhere(~np.asarray(close))[0]) \
                    if old_array.ndim else ()
                return (f"output #{index}{list(where) if where else ''} was "
                        f"{old_array[where] if where else old_array.item()}, is now "
                        f"{new_array[where] if where else new_array.item()}")
        return None


class _Unsupported(Exception):
    pass


def _root(op: Operation) -> Operation:
    while op.parent_op is not None:
        op = op.parent_op
    return op


def _functions(module: Operation) -> dict[str, Operation]:
    found = {}
    for region in module.regions:
        for block in region.blocks:
            for op in block.ops():
                if isinstance(op, FuncOp) and op.regions and op.regions[0].blocks:
                    found[op.attributes["sym_name"].value] = op
    return found


def _is_public(function: Operation) -> bool:
    visibility = function.attributes.get("sym_visibility")
    return visibility is None or visibility.value == "public"


def _random_value(type_: Type, rng: np.random.Generator):
    if isinstance(type_, IntegerType):
        if type_.width == 1:
            return int(rng.integers(0, 2))
        return int(rng.integers(0, 17) if type_.signedness == "unsigned" else rng.integers(-8, 9))
    if isinstance(type_, IndexType):
        return int(rng.integers(0, 9))
    if isinstance(type_, FloatType):
        return float(rng.standard_normal())
    if isinstance(type_, VectorType) and not any(type_.scalable or ()):
        return tuple(_random_value(type_.element_type, rng) for _ in range(int(np.prod(type_.shape))))
    if isinstance(type_, (RankedTensorType, MemRefType)) and \
            all(d is not None and d >= 0 for d in type_.shape):
        from mlc.ir.core.attributes import element_dtype
        from mlc.ir.interpreter import buffer_dtype

        element = type_.element_type
        dtype = buffer_dtype(element) if isinstance(type_, MemRefType) else element_dtype(element)
        shape = tuple(type_.shape)
        if isinstance(element, FloatType):
            if dtype.kind != "f":
                raise _Unsupported(f"random {element} tensors are not supported")
            return rng.standard_normal(shape).astype(dtype)
        if isinstance(element, IntegerType) and element.width == 1:
            return rng.integers(0, 2, shape).astype(dtype)
        if isinstance(element, (IntegerType, IndexType)):
            return rng.integers(0 if dtype.kind == "u" else -8, 9, shape).astype(dtype)
    raise _Unsupported(f"arguments of type {type_} are not supported")


def _memref_of(type_: Type) -> MemRefType | None:
    if isinstance(type_, RankedTensorType):
        return MemRefType(tuple(type_.shape), type_.element_type)
    return None


def _to_buffer(value, type_: MemRefType) -> np.ndarray:
    from mlc.ir.interpreter import buffer_dtype

    return np.array(value, dtype=buffer_dtype(type_.element_type))


def _copy(value):
    return value.copy() if isinstance(value, np.ndarray) else value


def _run(module: Operation, function: Operation, arguments: list
         ) -> tuple[list, tuple[str, str] | None]:
    """The function's results then its memref arguments after the call, or a problem:
    ("unsupported", why) when the interpreter cannot run it, ("failed", why) when the
    run hits undefined behaviour or fails."""
    from mlc.ir.interpreter import Interpreter, InterpreterError, UnsupportedOperation

    try:
        interpreter = Interpreter(module)
        results = interpreter.call(function, arguments)
    except UnsupportedOperation as exc:
        return [], ("unsupported", str(exc))
    except (InterpreterError, ArithmeticError, TypeError, ValueError) as exc:
        return [], ("failed", str(exc))
    buffers = [a for a, t in zip(arguments, function.type.inputs) if isinstance(t, MemRefType)]
    return [*results, *buffers], None
