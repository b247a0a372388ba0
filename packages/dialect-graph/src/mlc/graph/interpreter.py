"""Running graph modules on numpy: the reference every later stage is checked against.

    outputs = evaluate(module, [x])            # or {"x": x}: arguments by name

Each graph op runs its declared reference semantics (floats computed in float64 and
rounded once, integers in integers) and its result is stored in the result type's
dtype. `func.call` (what graph-fuse-ops leaves in `@main`) runs the callee;
`graph.call_tir` runs its primitive function in mlc.ir's interpreter and
`graph.call_dps_packed` the registered external function. An op
whose result is undefined on the values it gets (an integer division by zero, a
gather index out of range) stops the run with an EvaluationError at that op.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mlc.graph.op_base import GraphOp, UndefinedResultError
from mlc.graph.ops.call import DestinationCall, run_destination_call
from mlc.graph.storage import to_bf16_bits
from mlc.ir import Location, Operation, RankedTensorType, element_dtype
from mlc.ir.dialects.func import CallOp, FuncOp, ReturnOp


class EvaluationError(Exception):
    """The module cannot be evaluated (a missing function, an unsupported op, bad
    inputs, an op whose result is undefined); `loc` is the op's location, if any."""

    def __init__(self, message: str, loc: Location | None = None):
        super().__init__(message)
        self.loc = loc


def evaluate(module: Operation, inputs: Sequence[np.ndarray] | Mapping[str, np.ndarray],
             entry: str = "main") -> list[np.ndarray]:
    """Run function `entry` of `module` on `inputs` (positional, or by parameter name);
    returns one array per result."""
    functions = {op.sym_name.value: op for op in module.regions[0].ops() if isinstance(op, FuncOp)}
    fn = functions.get(entry)
    if fn is None or fn.is_declaration:
        raise EvaluationError(f"the module has no function @{entry} with a body")
    args = fn.entry_block.args
    if isinstance(inputs, Mapping):
        missing = [a.name_hint for a in args if a.name_hint not in inputs]
        if missing:
            raise EvaluationError(f"no input given for parameter(s) {', '.join(map(str, missing))}")
        inputs = [inputs[a.name_hint] for a in args]
    if len(inputs) != len(args):
        raise EvaluationError(f"@{entry} takes {len(args)} inputs, got {len(inputs)}")
    arrays = []
    for i, (arg, value) in enumerate(zip(args, inputs)):
        arrays.append(_as_typed(np.asarray(value), arg.type, f"input #{i}"))
    return _Evaluation(module, functions).run(fn, arrays)


def interpreter_handler(interp, op: Operation, operands: list) -> list:
    """A graph op in :mod:`mlc.ir.interpreter`: its reference semantics on the operand
    arrays (an undefined result is the interpreter's undefined behaviour)."""
    from mlc.ir.interpreter import UndefinedBehavior

    try:
        outputs = op.evaluate(operands)
    except UndefinedResultError as exc:
        raise UndefinedBehavior(f"'{op.name}': {exc}") from None
    return [_as_typed(np.asarray(value), result.type, f"result of '{op.name}'")
            for result, value in zip(op.results, outputs)]


def _as_typed(value: np.ndarray, type_, what: str) -> np.ndarray:
    if isinstance(type_, RankedTensorType):
        if tuple(value.shape) != type_.shape:
            raise EvaluationError(f"{what} has shape {list(value.shape)}, expected {list(type_.shape)}")
        if getattr(type_.element_type, "name", "") == "bf16" and value.dtype != np.uint16:
            return to_bf16_bits(value)  # float values given for a bf16 tensor
        return np.asarray(value, element_dtype(type_.element_type))
    return value


class _Evaluation:
    """One run of `evaluate`: the module's functions, and an interpreter for the
    primitive functions `graph.call_tir` calls (made at the first such call)."""

    def __init__(self, module: Operation, functions: dict[str, FuncOp]):
        self.module = module
        self.functions = functions
        self._interpreter = None

    def destination_call(self, op: DestinationCall, operands: list[np.ndarray]) -> list:
        from mlc.ir.interpreter import Interpreter, InterpreterError

        if self._interpreter is None:
            self._interpreter = Interpreter(self.module)
        try:
            return run_destination_call(self._interpreter, op, operands)
        except InterpreterError as exc:
            raise EvaluationError(f"'{op.name}' of '{op.callee_name}': {exc}", op.loc) from None

    def run(self, fn: FuncOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
        env: dict = dict(zip(fn.entry_block.args, inputs))
        for op in fn.entry_block.ops():
            if isinstance(op, ReturnOp):
                return [env[v] for v in op.operands]
            operands = [env[v] for v in op.operands]
            if isinstance(op, GraphOp):
                try:
                    outputs = op.evaluate(operands)
                except UndefinedResultError as exc:
                    raise EvaluationError(f"'{op.name}': {exc}", op.loc) from None
            elif isinstance(op, DestinationCall):
                outputs = self.destination_call(op, operands)
            elif isinstance(op, CallOp):
                callee = self.functions.get(op.callee.leaf)
                if callee is None:
                    raise EvaluationError(f"call to unknown function @{op.callee.leaf}")
                outputs = self.run(callee, operands)
            else:
                raise EvaluationError(f"cannot evaluate '{op.name}'")
            for result, value in zip(op.results, outputs):
                value = np.asarray(value)
                if isinstance(result.type, RankedTensorType) and value.shape != result.type.shape:
                    raise EvaluationError(f"'{op.name}' computed shape {list(value.shape)}, its "
                                          f"result type is {result.type}")
                env[result] = _as_typed(value, result.type, f"result of '{op.name}'")
        raise EvaluationError(f"@{fn.sym_name.value} has no func.return")
