"""External functions: Python functions that kernels call by name (TVM's
`register_func`, the MLC course's `env.linear`).

    import numpy as np
    from mlc.ir.extern import register_func

    @register_func("env.linear")
    def linear(x, w, b, out):            # destination-passing: write into `out`
        np.matmul(x, w.T, out=out)
        out += b

A module declares the function and calls it like any other:

    func.func private @"env.linear"(memref<1x784xf32>, memref<128x784xf32>,
                                    memref<128xf32>, memref<1x128xf32>)
    ...
    func.call @"env.linear"(%x, %w, %b, %out) : (...) -> ()

The interpreter calls the registered function when a call reaches a declaration of
that name, passing memrefs as numpy arrays (shared, not copied) and scalars as
Python numbers; its return value (None, a value, or a tuple) gives the call's
results. A declaration may stand for a registered function of another name (one
declaration per signature of one function, as graph-lower-to-loop makes them): its
`mlc.extern` attribute names it (`registered_name`).
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["EXTERN_NAME", "register_func", "get_func", "list_funcs", "remove_func",
           "registered_name"]

_FUNCTIONS: dict[str, Callable] = {}

EXTERN_NAME = "mlc.extern"
"""The attribute of a declaration naming the registered function it stands for."""


def registered_name(declaration) -> str:
    """The name of the registered function a function declaration calls: its
    `mlc.extern` attribute, else its own symbol name."""
    name = declaration.attributes.get(EXTERN_NAME)
    return name.value if name is not None else declaration.attributes["sym_name"].value


def register_func(name: str, fn: Callable | None = None, override: bool = False):
    """Register `fn` as the external function `name`; as a decorator without `fn`.
    Registering a name twice is an error unless `override` is true."""
    if not isinstance(name, str) or not name:
        raise ValueError("an external function needs a non-empty name")

    def register(function: Callable) -> Callable:
        if name in _FUNCTIONS and not override:
            raise ValueError(f"external function '{name}' is already registered "
                             "(pass override=True to replace it)")
        _FUNCTIONS[name] = function
        return function

    return register if fn is None else register(fn)


def get_func(name: str) -> Callable | None:
    """The function registered as `name`, or None."""
    return _FUNCTIONS.get(name)


def remove_func(name: str) -> None:
    """Forget the function registered as `name` (if any)."""
    _FUNCTIONS.pop(name, None)


def list_funcs() -> list[str]:
    """The registered names, sorted."""
    return sorted(_FUNCTIONS)
