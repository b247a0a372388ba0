"""ONNX's backend interface for mlc, so ONNX's own backend test suite runs against it.

    import mlc.onnx.backend as backend
    outputs = backend.run_model(model, [x])             # import, graph-optimize, run
    rep = backend.prepare(model); rep.run([x])          # the same, prepared once

`prepare` imports the model (:func:`mlc.onnx.import_onnx`), runs the `graph-optimize`
pipeline and keeps the module; `run` evaluates it with the graph interpreter, or, in
native mode, runs the model compiled to native code with :func:`mlc.llvm.build.build`
(`prepare(model, native=True)`, or `MLC_ONNX_NATIVE=1` in the environment; it needs
mlc.llvm installed and working: :func:`native_available` says whether it is). A model
whose graph inputs set shapes (a Reshape's target given as an input, as ONNX's node
tests do) cannot be imported before their values are known: `prepare` then defers,
and `run` imports it with those inputs bound as constants (once per distinct value).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
from onnx.backend.base import Backend, BackendRep, Device, DeviceType

from mlc.onnx.importer import OnnxImportError, import_onnx

DEFAULT_PIPELINE = "graph-optimize"
NATIVE_ENV = "MLC_ONNX_NATIVE"
"""The environment variable that, set to 1, makes `prepare` compile natively by default."""


class NativeBackendError(RuntimeError):
    """Native mode was asked for but mlc.llvm cannot compile here (the reason given)."""


class BackendDeviceError(ValueError):
    """A device mlc does not run on (it runs on `CPU`), or no device name at all."""


class BackendInputError(ValueError):
    """Inputs that do not match the model's: their count, an element type (never
    converted: onnxruntime refuses them too) or a static dimension."""


@functools.cache
def native_problem() -> str | None:
    """Why native mode cannot run here (mlc.llvm missing, or LLVM unable to generate
    code for this machine), or None when it can."""
    try:
        from mlc.llvm.target import Target

        Target().target_machine(jit=True)
    except ImportError as exc:
        return f"mlc.llvm is not installed ({exc}); install packages/backend-llvm"
    except Exception as exc:  # noqa: BLE001 - any failure of LLVM's set-up means "not working"
        return f"mlc.llvm cannot create a code generator for this machine: {exc}"
    return None


def native_available() -> bool:
    """Whether mlc.llvm is installed and can compile for this machine."""
    return native_problem() is None


def native_requested(native: bool | None = None) -> bool:
    """`native` if given, else whether `MLC_ONNX_NATIVE` is set to 1."""
    if native is not None:
        return bool(native)
    value = os.environ.get(NATIVE_ENV, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{NATIVE_ENV} must be 0 or 1, not {value!r}")
    return value == "1"


class MlcBackendRep(BackendRep):
    """A prepared model: its optimised graph module (and, in native mode, the module
    compiled to native code), or, while graph inputs that set shapes are unknown, the
    model and the names of those inputs."""

    def __init__(self, model: onnx.ModelProto, pipeline: str = DEFAULT_PIPELINE,
                 native: bool = False):
        self.model = model
        self.pipeline = pipeline
        self.native = native
        if native and native_problem() is not None:
            raise NativeBackendError(f"native mode: {native_problem()}")
        initializers = {t.name for t in model.graph.initializer}
        self.inputs = [i for i in model.graph.input if i.name not in initializers]
        self.input_names = [i.name for i in self.inputs]
        self.output_names = [o.name for o in model.graph.output]
        self._specialised: dict[bytes, Any] = {}
        self.constant_inputs: tuple[str, ...] = ()
        self.compiled = None  # native mode: the CompiledModel of `module`
        try:
            self.module, self.compiled = self._compile({})
        except OnnxImportError as exc:
            if not exc.needs_inputs:
                raise
            self.module = None
            self.constant_inputs = exc.needs_inputs

    def _compile(self, constant_inputs: dict[str, np.ndarray]):
        """(the optimised graph module, its CompiledModel in native mode or None)."""
        from mlc.ir.passes.manager import run_pipeline
        from mlc.ir.passes.registry import load_pass_plugins

        module = import_onnx(self.model, constant_inputs=constant_inputs)
        compiled = None
        if self.native:
            # build runs the graph pipeline itself, with the layouts and default
            # schedules of the host CPU (it does not change `module`).
            from mlc.llvm.build import build

            compiled = build(module)
        if self.pipeline:
            load_pass_plugins()
            run_pipeline(module, self.pipeline)
        return module, compiled

    def run(self, inputs: Any, **kwargs: Any) -> tuple[np.ndarray, ...]:
        """Outputs of the model on `inputs` (a sequence in the order of the model's
        inputs, or a dict by name); numpy scalars are taken as 0-d arrays."""
        if isinstance(inputs, dict):
            inputs = [inputs[name] for name in self.input_names]
        arrays = [np.asarray(x) for x in (inputs if isinstance(inputs, Sequence) else [inputs])]
        if len(arrays) != len(self.input_names):
            raise BackendInputError(f"the model takes {len(self.input_names)} inputs, got "
                                    f"{len(arrays)}")
        for info, array in zip(self.inputs, arrays):
            _check_input(info, array)
        (module, compiled), runtime_inputs = (self.module, self.compiled), arrays
        if module is None:
            module, compiled = self._specialise(dict(zip(self.input_names, arrays)))
            runtime_inputs = [a for n, a in zip(self.input_names, arrays)
                              if n not in self.constant_inputs]
        if compiled is None:
            from mlc.graph import evaluate

            return tuple(evaluate(module, runtime_inputs))
        # np.ascontiguousarray would make a 0-d input 1-d.
        outputs = compiled(*(np.asarray(a, order="C") for a in runtime_inputs))
        return outputs if isinstance(outputs, tuple) else (outputs,)

    def _specialise(self, inputs: dict[str, np.ndarray]):
        """`_compile`'s (module, compiled) with the shape-setting inputs bound to their
        values in `inputs` (a converter may name further ones once the first are known)."""
        while True:
            bound = {n: inputs[n] for n in self.constant_inputs}
            key = b"|".join(n.encode() + a.dtype.str.encode() + str(a.shape).encode() + a.tobytes()
                            for n, a in bound.items())
            if key in self._specialised:
                return self._specialised[key]
            try:
                compiled = self._specialised[key] = self._compile(bound)
                return compiled
            except OnnxImportError as exc:
                more = [n for n in exc.needs_inputs if n not in self.constant_inputs]
                if not more:
                    raise
                self.constant_inputs += tuple(more)


def _check_input(info: onnx.ValueInfoProto, array: np.ndarray) -> None:
    """BackendInputError unless `array` has the element type of graph input `info` and
    its static dimensions."""
    tensor = info.type.tensor_type
    if not info.type.HasField("tensor_type") or not tensor.elem_type:
        return
    try:
        expected = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tensor.elem_type))
    except (KeyError, TypeError, ValueError):
        return
    if array.dtype != expected:
        raise BackendInputError(f"input '{info.name}' must be {expected} (the model's "
                                f"{onnx.TensorProto.DataType.Name(tensor.elem_type).lower()}), "
                                f"got {array.dtype}")
    if tensor.HasField("shape"):
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tensor.shape.dim]
        if len(dims) != array.ndim or any(d is not None and d != n
                                          for d, n in zip(dims, array.shape)):
            shown = ", ".join("?" if d is None else str(d) for d in dims)
            raise BackendInputError(f"input '{info.name}' must have shape [{shown}], got "
                                    f"{list(array.shape)}")


class MlcBackend(Backend):
    """mlc as an ONNX backend on device CPU: the graph interpreter, or native code
    (`native=True`, or `MLC_ONNX_NATIVE=1`)."""

    @classmethod
    def is_compatible(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> bool:
        return cls.supports_device(device)

    @classmethod
    def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> MlcBackendRep:
        """Import and optimise `model` (options: `pipeline`, the graph pipeline;
        `native`, compile to native code: default from `MLC_ONNX_NATIVE`).
        BackendDeviceError for a device other than `CPU`."""
        if not cls.supports_device(device):
            raise BackendDeviceError(f"mlc runs models on device 'CPU', not {device!r}")
        super().prepare(model, device, **kwargs)  # onnx.checker, as every backend does
        return MlcBackendRep(model, kwargs.get("pipeline", DEFAULT_PIPELINE),
                             native_requested(kwargs.get("native")))

    @classmethod
    def run_model(cls, model: onnx.ModelProto, inputs: Any, device: str = "CPU",
                  **kwargs: Any) -> tuple[np.ndarray, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        try:
            return Device(device).type == DeviceType.CPU
        except (AttributeError, TypeError, ValueError):  # not a device name onnx knows
            return False


prepare = MlcBackend.prepare
run_model = MlcBackend.run_model
supports_device = MlcBackend.supports_device
