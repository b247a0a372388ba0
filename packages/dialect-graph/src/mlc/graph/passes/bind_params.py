"""graph-bind-params: parameters of a graph function become constants (Relax's
BindParams).

    bind_params(module, {"w0": w0, "b0": b0})           # Python: name -> array
    mlc-opt model.mlir -p 'graph-bind-params{file=weights.npz}'

Each parameter of the function `func-name` (default `main`) whose name is a key of
the map becomes a `graph.constant` of that array at the top of the function, and the
function loses the parameter; graph-fold-constant and the layout passes can then
treat the weights as the constants they are. An array must have the parameter's shape
and an element type numpy converts to the parameter's without changing its kind
(float to float, integer to integer); a name that is no parameter, or a function the
module does not have, is an error and nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from mlc.graph.ops.constant import ConstantOp
from mlc.ir import (
    DenseElementsAttr,
    Diagnostic,
    FunctionType,
    Operation,
    RankedTensorType,
    TypeAttr,
    element_dtype,
)
from mlc.ir.dialects.func import FuncOp
from mlc.ir.opdef.traits import SymbolTable
from mlc.ir.passes import Pass, PassFailure, option, register_pass
from mlc.ir.rewrite import Rewriter

__all__ = ["BindParamsError", "bind_params"]


class BindParamsError(ValueError):
    """A parameter map that does not fit the function; the message says how."""


def bind_params(module: Operation, params: Mapping[str, np.ndarray], func_name: str = "main",
                rewriter: Rewriter | None = None) -> int:
    """Make the parameters of `@func_name` in `module` named in `params` constants of
    their arrays (see the module docstring); how many were bound. BindParamsError (and
    no change) when a name or an array does not fit."""
    fn = next((op for op in module.regions[0].ops()
               if isinstance(op, FuncOp) and op.sym_name.value == func_name), None)
    if fn is None or fn.is_declaration:
        raise BindParamsError(f"the module has no function @{func_name} with a body")
    args = {arg.name_hint: arg for arg in fn.entry_block.args if arg.name_hint}
    unknown = sorted(set(params) - set(args))
    if unknown:
        raise BindParamsError(f"no parameter of @{func_name} is named "
                              f"{', '.join(map(repr, unknown))} (its parameters: "
                              f"{', '.join(a.name_hint or '?' for a in fn.entry_block.args)})")
    arrays = {name: _fitted(name, params[name], args[name].type) for name in params}
    rewriter = rewriter or Rewriter()
    rewriter.set_insertion_point_to_start(fn.entry_block)
    for name, array in arrays.items():
        constant = rewriter.create(ConstantOp, value=DenseElementsAttr.from_array(
            array, args[name].type), loc=fn.loc)
        constant.results[0].name_hint = name
        rewriter.replace_all_uses_with(args[name], constant.results[0])
    bound = {args[name].index for name in arrays}
    with rewriter.modify_op_in_place(fn):
        kept = [i for i in range(len(fn.entry_block.args)) if i not in bound]
        fn.function_type = TypeAttr(FunctionType(tuple(fn.type.inputs[i] for i in kept),
                                                 fn.type.results))
        if "arg_attrs" in fn.attributes:
            from mlc.ir import ArrayAttr

            attrs = fn.attributes["arg_attrs"].value
            fn.attributes["arg_attrs"] = ArrayAttr(tuple(attrs[i] for i in kept))
        for index in sorted(bound, reverse=True):
            fn.entry_block.erase_argument(index)
    return len(arrays)


def _fitted(name: str, value, type_) -> np.ndarray:
    """`value` as an array of `type_`'s shape and element dtype, or BindParamsError."""
    if not isinstance(type_, RankedTensorType):
        raise BindParamsError(f"parameter '{name}' is a {type_}, not a tensor")
    array = np.asarray(value)
    dtype = element_dtype(type_.element_type)
    if tuple(array.shape) != tuple(type_.shape):
        raise BindParamsError(f"parameter '{name}' is a {type_}; the array given has shape "
                              f"{list(array.shape)}")
    if not np.can_cast(array.dtype, dtype, "same_kind"):
        raise BindParamsError(f"parameter '{name}' is a {type_}; the array given holds "
                              f"{array.dtype}")
    return np.asarray(array, dtype)


@dataclass(frozen=True)
class BindParamsOptions:
    file: str = option("", doc="a numpy .npz file of the arrays, by parameter name")
    func_name: str = option("main", doc="the function whose parameters are bound")


@register_pass("graph-bind-params", opt_level=0, op_traits=(SymbolTable,),
               options=BindParamsOptions,
               summary="Make the parameters of a function named in a .npz file constants "
                       "of their arrays (Relax's BindParams).",
               statistics=(("num-bound", "parameters made constants"),))
class BindParams(Pass):
    def run(self, op: Operation, run) -> None:
        options = run.options
        if not options.file:
            raise PassFailure([Diagnostic("error", "graph-bind-params needs the arrays: "
                                          "graph-bind-params{file=weights.npz}", op.loc)])
        try:
            with np.load(options.file, allow_pickle=False) as archive:
                params = {name: archive[name] for name in archive.files}
        except (OSError, ValueError) as exc:
            raise PassFailure([Diagnostic("error", f"graph-bind-params cannot read "
                                          f"'{options.file}': {exc}", op.loc)]) from None
        try:
            self.statistics["num-bound"] += bind_params(op, params, options.func_name)
        except BindParamsError as exc:
            raise PassFailure([Diagnostic("error", f"graph-bind-params: {exc}", op.loc)]) from None
