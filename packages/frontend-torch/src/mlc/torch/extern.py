"""External functions written with torch, called by compiled code on its own buffers.

    @register_torch_func("env.linear")
    def linear(x, w, b, out):                    # torch tensors over the runtime's buffers
        torch.mm(x, w.T, out=out)
        out.add_(b)

The runtime (the interpreter, or native code through
`mlc.llvm.bind_python_function`) calls external functions on numpy views of its
buffers; the wrapper gives the torch function those buffers as tensors through DLPack
(`torch.from_dlpack`), sharing the memory, so what it writes into `out` is what the
compiled code reads next. Tensors it returns go back as numpy views of their memory.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import torch

from mlc.ir.extern import register_func


def to_torch(array: np.ndarray) -> torch.Tensor:
    """A torch tensor over `array`'s memory (no copy; DLPack), read-only buffers too."""
    return torch.from_dlpack(array)


def _to_numpy(value):
    if isinstance(value, torch.Tensor):
        return value.detach().numpy()  # a view of the tensor's memory
    if isinstance(value, tuple):
        return tuple(_to_numpy(v) for v in value)
    return value


def register_torch_func(name: str, fn: Callable | None = None, override: bool = False):
    """Register `fn`, a function of torch tensors, as the external function `name`
    (:func:`mlc.ir.extern.register_func`; as a decorator without `fn`): its array
    arguments arrive as tensors sharing the runtime's buffers, scalars as they are, and
    the tensors it returns go back without copies. Returns `fn`."""

    def register(function: Callable) -> Callable:
        @functools.wraps(function)
        def on_buffers(*args):
            tensors = [to_torch(a) if isinstance(a, np.ndarray) else a for a in args]
            return _to_numpy(function(*tensors))

        register_func(name, on_buffers, override=override)
        return function

    return register if fn is None else register(fn)
