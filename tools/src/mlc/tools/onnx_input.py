"""ONNX models as tool inputs: what `mlc-import` and `mlc-opt model.onnx` share.

The ONNX frontend (mlc-frontend-onnx, with `onnx` itself) is imported only when a model
is read, so the tools start without it and say clearly when it is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mlc.ir import Operation

ONNX_SUFFIX = ".onnx"
# What the frontend needs that mlc-tools does not: missing, they mean "not installed".
_FRONTEND_MODULES = ("mlc.onnx", "mlc.graph", "onnx", "google.protobuf")


class OnnxInputError(Exception):
    """A model that cannot be read or imported; `str()` is the diagnostics, one per
    line, each naming the model (`model.onnx: error: ...`)."""


def is_onnx_path(path: str) -> bool:
    """Whether a tool's input path names an ONNX model (by its `.onnx` suffix)."""
    return path.lower().endswith(ONNX_SUFFIX)


def parse_input_shapes(texts: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """`--input-shape NAME=D0,D1,...` options as {name: shape}; `NAME=` is a scalar.
    A malformed option or a name given twice raises ValueError saying which; the
    values of the dimensions (negative ones, a rank that does not match) are checked
    against the model by the importer."""
    shapes: dict[str, tuple[int, ...]] = {}
    for text in texts:
        name, sep, dims = text.rpartition("=")
        if not sep or not name:
            raise ValueError(f"--input-shape takes NAME=D0,D1,... (NAME= for a scalar), got '{text}'")
        if name in shapes:
            raise ValueError(f"--input-shape {name} is given twice")
        try:
            shapes[name] = tuple(int(d) for d in dims.split(",")) if dims.strip() else ()
        except ValueError:
            raise ValueError(f"--input-shape {name}: dimensions are integers separated by "
                             f"commas, got '{dims}'") from None
    return shapes


def load_constant_inputs(texts: Sequence[str]) -> dict:
    """`--constant-input NAME=FILE.npy` options as {name: array}, each array read with
    numpy. A malformed option, a name given twice or a file numpy cannot read raises
    ValueError saying which."""
    import numpy as np

    arrays: dict = {}
    for text in texts:
        name, sep, path = text.partition("=")
        if not sep or not name or not path:
            raise ValueError(f"--constant-input takes NAME=FILE.npy, got '{text}'")
        if name in arrays:
            raise ValueError(f"--constant-input {name} is given twice")
        try:
            arrays[name] = np.load(path, allow_pickle=False)
        except OSError as exc:
            raise ValueError(f"--constant-input {name}: cannot read '{path}': "
                             f"{exc.strerror or exc}") from None
        except ValueError as exc:
            raise ValueError(f"--constant-input {name}: '{path}' is not a .npy array: "
                             f"{exc}") from None
    return arrays


class FrontendMissing(Exception):
    """The ONNX frontend is not installed; `str()` says what to install."""


def onnx_frontend():
    """The `mlc.onnx` module; FrontendMissing when it (or `onnx`) is not installed."""
    try:
        import mlc.onnx
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith(_FRONTEND_MODULES):
            raise
        raise FrontendMissing(
            "reading ONNX models needs the ONNX frontend (mlc-frontend-onnx: pip install -e "
            f"packages/frontend-onnx), which is not installed: no module named '{exc.name}'") from None
    return mlc.onnx


def import_model(path: str, input_shapes: dict[str, tuple[int, ...]] | None = None,
                 keep_params: bool = False, constant_inputs: dict | None = None) -> Operation:
    """The graph module of the ONNX model at `path` (see :func:`mlc.onnx.import_onnx`):
    initializers as constants, or as parameters of `@main` with `keep_params`; graph
    inputs named in `constant_inputs` bound to those values.
    Raises OnnxInputError when the model cannot be imported, FrontendMissing when the
    frontend is not installed."""
    frontend = onnx_frontend()
    try:
        return frontend.import_onnx(path, input_shapes=input_shapes, freeze_params=not keep_params,
                                    constant_inputs=constant_inputs)
    except frontend.OnnxImportError as exc:
        raise OnnxInputError(str(exc)) from None


def module_text(module: Operation, options=None) -> str:
    """The text of an imported module with its weights as `dense_resource` blobs (as
    mlc-model --emit writes them), which `mlc-opt` reads back."""
    from mlc.graph.resources import module_text_with_resources

    return module_text_with_resources(module, options=options)
