"""torch.fx graphs and torch.export programs -> graph modules.

    module = from_fx(model, input_shapes=[(1, 3, 224, 224)])
    module = from_exported_program(torch.export.export(model, (x,)))

The MLC course's `from_fx`, with MLIR's diagnostics: placeholders become the
arguments of `@main`, the module's tensors (get_attr nodes, the parameters and buffers
of called modules, an exported program's lifted ones) constants named after their
state-dict keys (or parameters of `@main` after the inputs, with `keep_params`), and
every call_function, call_method and call_module node goes through the converter its
target has in the maps (:mod:`mlc.torch.converters`), inside a builder that locates
every op it makes at the FX node's name. Every node without a converter is named in
one diagnostic, with its target and the module it belongs to, before anything is
built; converters that refuse a node's arguments are reported together after.

Converters come in two signatures. mlc's take one :class:`~mlc.torch.node.Node`
(the FX node with its arguments converted, and the builder as `node.b`). The course's
take `(bb, node_map, node)` for functions and `(bb, node_map, node, nn_mod)` for
modules: the builder, the map from FX nodes to the values made for them, the FX node
itself and the called module. The builder is `mlc.loop.BlockBuilder` when the loop
level is installed (so a converter may `bb.emit_te(topi.nn.dense, x, w)`), else
`mlc.graph.GraphBuilder`; primitive functions emit_te makes go in the module before
`@main`.
"""

from __future__ import annotations

import inspect
import logging
import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
import torch.fx as fx

from mlc.graph.builder import GraphBuilder, element_type_of_dtype
from mlc.graph.op_base import UndefinedResultError
from mlc.ir import IRError, Operation, Value, verify
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.torch.aten import QUALIFIED_MAP
from mlc.torch.converters import FUNCTION_MAP, MODULE_MAP, Converter
from mlc.torch.node import Node, Unsupported


class TorchImportError(DiagnosticError):
    """The model cannot be imported; the diagnostics say why (`str()`: one line each,
    beginning with the model's name)."""

    def __init__(self, source: str, diagnostics: Diagnostic | Sequence[Diagnostic]):
        super().__init__(diagnostics)
        self.source = source

    def __str__(self) -> str:
        return "\n".join((f"{self.source}: " if d.loc is None else "") + str(DiagnosticError(d))
                         for d in self.diagnostics)


def from_fx(module_or_graph_module: torch.nn.Module,
            input_shapes: Sequence[Sequence[int]] | Mapping[str, Sequence[int]],
            call_function_map: Mapping[object, Converter] | None = None,
            call_module_map: Mapping[type, Converter] | None = None,
            keep_params: bool = False, input_dtypes: Sequence[torch.dtype] | None = None,
            ) -> Operation:
    """Import an `nn.Module` (traced with `torch.fx.symbolic_trace`) or an
    `fx.GraphModule` as a graph module whose `@main` takes the placeholders, shaped by
    `input_shapes` (one shape per placeholder, in order, or by name; float32 unless
    `input_dtypes` says otherwise), and returns the graph's outputs.

    `call_function_map` extends or overrides the default converters of call_function
    targets and call_method names (`{torch.matmul: fn, "view": fn}`),
    `call_module_map` those of called modules by class (`{nn.Linear: fn}`): each a
    function of a :class:`~mlc.torch.node.Node` returning the graph value(s), or one
    with the course's signature, `(bb, node_map, node)` or `(bb, node_map, node,
    nn_mod)` (see the module docstring).
    With `keep_params` the module's tensors become parameters of `@main` after the
    inputs, named by state-dict key, instead of constants.
    Raises TorchImportError with the nodes named."""
    source = type(module_or_graph_module).__name__
    if isinstance(module_or_graph_module, fx.GraphModule):
        graph_module = module_or_graph_module
    elif isinstance(module_or_graph_module, torch.nn.Module):
        try:
            graph_module = fx.symbolic_trace(module_or_graph_module)
        except Exception as exc:  # control flow on traced values, untraceable calls
            raise TorchImportError(source, Diagnostic(
                "error", f"torch.fx cannot trace the module: {type(exc).__name__}: "
                f"{str(exc).splitlines()[0] if str(exc) else ''} (trace what it can with "
                "torch.fx.symbolic_trace and pass the GraphModule, or use "
                "torch.export and from_exported_program)")) from None
    else:
        raise TypeError(f"from_fx takes an nn.Module or fx.GraphModule, got "
                        f"{type(module_or_graph_module).__name__}")
    placeholders = [n for n in graph_module.graph.nodes if n.op == "placeholder"]
    shapes = _input_shapes(source, placeholders, input_shapes)
    dtypes = list(input_dtypes) if input_dtypes is not None else [torch.float32] * len(shapes)
    if len(dtypes) != len(placeholders):
        raise TorchImportError(source, _error(f"{len(dtypes)} input dtypes for "
                                              f"{len(placeholders)} inputs"))
    importer = _Importer(graph_module, source, call_function_map, call_module_map, keep_params)
    inputs = {n: (shape, dtype) for n, shape, dtype in zip(placeholders, shapes, dtypes)}
    return importer.run(inputs, lifted={})


def from_exported_program(program: torch.export.ExportedProgram,
                          call_function_map: Mapping[object, Converter] | None = None,
                          keep_params: bool = False, source: str = "<exported program>",
                          ) -> Operation:
    """Import a `torch.export` program (`torch.export.export(model, args)`, or one
    saved with `torch.export.save` and loaded): `@main` takes its user inputs, with the
    shapes and dtypes they were exported with, and returns its user outputs; its
    parameters, buffers and constants become constants named by state-dict key (or
    parameters of `@main` after the inputs, with `keep_params`). ATen ops go through the
    converters of :data:`~mlc.torch.converters.FUNCTION_MAP` (keyed by op packet,
    `torch.ops.aten.conv2d`), extended or overridden by `call_function_map`.
    Raises TorchImportError with the nodes named."""
    program = _functional(program)
    signature = program.graph_signature
    graph_module = program.graph_module
    lifted: dict[str, torch.Tensor] = {}
    tensors = {**program.state_dict, **program.constants}
    inputs = {}
    by_name = {n.name: n for n in graph_module.graph.nodes if n.op == "placeholder"}
    for spec in signature.input_specs:
        node = by_name.get(spec.arg.name)
        kind = spec.kind.name
        if kind == "USER_INPUT":
            value = node.meta.get("val")
            if not isinstance(value, torch.Tensor):
                raise TorchImportError(source, _error(
                    f"input '{node.name}' is not a tensor ({type(value).__name__}): only "
                    "tensor inputs are supported"))
            if not all(isinstance(d, int) for d in value.shape):
                raise TorchImportError(source, _error(
                    f"input '{node.name}' has dynamic dimensions {list(value.shape)}: "
                    "export with static shapes"))
            inputs[node] = (tuple(value.shape), value.dtype)
        elif kind in ("PARAMETER", "BUFFER", "CONSTANT_TENSOR") and spec.target in tensors:
            lifted[node.name] = (spec.target, tensors[spec.target])
        else:
            raise TorchImportError(source, _error(
                f"input '{spec.arg.name}' of kind {kind} is not supported"))
    importer = _Importer(graph_module, source, call_function_map, None, keep_params)
    return importer.run(inputs, lifted)


def load_exported_program(path: str | os.PathLike, keep_params: bool = False,
                          call_function_map: Mapping[object, Converter] | None = None,
                          ) -> Operation:
    """Import the program `torch.export.save` wrote to `path` (a `.pt2` file), as
    :func:`from_exported_program` does. An unreadable file, or one that is not a saved
    program, is a TorchImportError naming it."""
    source = os.fspath(path)
    if not os.path.isfile(source):
        raise TorchImportError(source, _error("cannot read the program: no such file"))
    # torch.export.load logs the traceback of a failed read before raising; the error
    # below says it in one line.
    export_log = logging.getLogger("torch.export")
    level = export_log.level
    export_log.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            program = torch.export.load(source)
    except Exception as exc:  # zipfile, pickle and torch's own errors
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise TorchImportError(source, _error(
            f"not a saved torch.export program (torch.export.load: {reason})")) from None
    finally:
        export_log.setLevel(level)
    return from_exported_program(program, call_function_map, keep_params, source=source)


def _functional(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """`program` without in-place ops (`out += identity` exports as `aten.add_`):
    functionalized by torch, nothing decomposed, so that every node is a value."""
    mutating = any(isinstance(n.target, torch._ops.OpOverload) and n.target._schema.is_mutable
                   for n in program.graph_module.graph.nodes if n.op == "call_function")
    if not mutating:
        return program
    with warnings.catch_warnings():
        # torch's own deprecation notices from inside run_decompositions.
        warnings.simplefilter("ignore", FutureWarning)
        return program.run_decompositions({})


def _error(message: str, loc=None) -> Diagnostic:
    return Diagnostic("error", message, loc)


def _input_shapes(source: str, placeholders: list[fx.Node], given) -> list[tuple[int, ...]]:
    names = [n.name for n in placeholders]
    if isinstance(given, Mapping):
        unknown = sorted(set(given) - set(names))
        missing = [n for n in names if n not in given]
        if unknown or missing:
            raise TorchImportError(source, _error(
                "input_shapes must give the shape of every input "
                f"({', '.join(names) or 'none'})" + (f"; unknown: {', '.join(unknown)}" if unknown
                                                     else f"; missing: {', '.join(missing)}")))
        shapes = [given[n] for n in names]
    else:
        shapes = list(given)
        if len(shapes) != len(names):
            raise TorchImportError(source, _error(
                f"{len(shapes)} input shapes for {len(names)} inputs ({', '.join(names)})"))
    checked = []
    for name, shape in zip(names, shapes):
        dims = tuple(shape)
        if not all(isinstance(d, (int, np.integer)) and d >= 0 for d in dims):
            raise TorchImportError(source, _error(
                f"input '{name}': a shape is a sequence of non-negative integers, got {shape!r}"))
        checked.append(tuple(int(d) for d in dims))
    return checked


def _qualified(target) -> str:
    """`module.qualname` of a function or class (what QUALIFIED_MAP is keyed by)."""
    return f"{getattr(target, '__module__', '')}.{getattr(target, '__qualname__', '')}"


def _module_path(node: fx.Node) -> str:
    """The module a node belongs to: the called module's path, or the innermost entry
    of the module stack torch.export records; '' for the top-level module."""
    if node.op == "call_module":
        return str(node.target)
    stack = node.meta.get("nn_module_stack")
    if stack:
        path, _ = list(stack.values())[-1]
        return path
    return ""


def _target_name(node: fx.Node) -> str:
    target = node.target
    if node.op == "call_method":
        return f"Tensor.{target}"
    if node.op == "call_module":
        return str(target)
    if isinstance(target, torch._ops.OpOverload):
        return str(target)
    name = getattr(target, "__name__", None)
    if name and getattr(torch, name, None) is target:
        return f"torch.{name}"  # not torch._VariableFunctionsClass.erf
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__qualname__", None) or name or repr(target)
    return f"{module}.{name}" if module and module != "builtins" else name


def _builder() -> GraphBuilder:
    """A BlockBuilder (emit_te) when the loop level is installed, else a GraphBuilder:
    the frontend does not need the loop level, only converters using emit_te do."""
    try:
        from mlc.loop.builder import BlockBuilder
    except ImportError:  # pragma: no cover - mlc-dialect-loop is an optional dependency
        return GraphBuilder("main")
    return BlockBuilder("main")


def _course_arity(converter) -> int:
    """How many arguments `converter` requires: 3 or 4 for the course's signatures,
    1 for mlc's (and for what inspect cannot read)."""
    try:
        parameters = inspect.signature(converter).parameters.values()
    except (TypeError, ValueError):
        return 1
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in parameters if p.kind in positional and p.default is p.empty)


class _Importer:
    def __init__(self, graph_module: fx.GraphModule, source: str, function_map, module_map,
                 keep_params: bool):
        self.graph_module = graph_module
        self.source = source
        self.function_map = {**FUNCTION_MAP, **(function_map or {})}
        self.module_map = {**MODULE_MAP, **(module_map or {})}
        self.keep_params = keep_params
        self.builder = _builder()
        self.values: dict[fx.Node, Any] = {}
        self.tensors: dict[str, Value] = {}

    def fail(self, message: str) -> TorchImportError:
        return TorchImportError(self.source, _error(message))

    def run(self, inputs: dict, lifted: dict) -> Operation:
        nodes = list(self.graph_module.graph.nodes)
        self._check_converters(nodes)
        for node, (shape, dtype) in inputs.items():
            self.values[node] = self.builder.param(node.name, shape, self._element(dtype))
        # Lifted tensors after the inputs: with keep_params they are @main's last arguments.
        for node in nodes:
            if node.op == "placeholder" and node.name in lifted:
                key, tensor = lifted[node.name]
                self.values[node] = self.tensor(key, tensor)
        problems = []
        failed: set[fx.Node] = set()
        outputs = None
        for node in nodes:
            if node.op == "placeholder":
                continue
            if node.op == "output":
                outputs = node
                continue
            if any(i in failed for i in node.all_input_nodes):
                failed.add(node)  # after a node that did not convert: already reported
                continue
            try:
                self.values[node] = self._convert(node)
            except Unsupported as exc:
                problems.append(f"  node '{node.name}' ({self._describe(node)}): {exc.reason}")
                failed.add(node)
            except (IRError, UndefinedResultError) as exc:  # graph ops refuse the operands
                problems.append(f"  node '{node.name}' ({self._describe(node)}): {exc}")
                failed.add(node)
        if problems:
            noun = "node" if len(problems) == 1 else "nodes"
            raise self.fail(f"cannot convert {len(problems)} {noun}:\n" + "\n".join(problems))
        results = self._outputs(outputs)
        module = self.builder.module(*results)
        try:
            verify(module)
        except DiagnosticError as exc:
            raise TorchImportError(self.source, exc.diagnostics) from None
        return module

    # -- converters

    def _converter(self, node: fx.Node) -> Converter | None:
        if node.op == "call_module":
            module = self.graph_module.get_submodule(node.target)
            for cls in type(module).__mro__:
                if cls in self.module_map:
                    return self.module_map[cls]
            return QUALIFIED_MAP.get(_qualified(type(module)))
        if node.op in ("call_function", "call_method"):
            target = node.target
            try:
                found = self.function_map.get(target)
            except TypeError:  # an unhashable target
                found = None
            if found is None and isinstance(target, torch._ops.OpOverload):
                found = self.function_map.get(target.overloadpacket)
            return found if found is not None else QUALIFIED_MAP.get(_qualified(target))
        return None

    def _check_converters(self, nodes: list[fx.Node]) -> None:
        """Every node without a converter, named in one diagnostic."""
        missing = [node for node in nodes if node.op in ("call_function", "call_method",
                                                         "call_module")
                   and self._converter(node) is None]
        if not missing:
            return
        lines = [f"  node '{n.name}' ({self._describe(n)})" for n in missing]
        noun = "node" if len(missing) == 1 else "nodes"
        raise self.fail(f"no converter for {len(missing)} {noun} (give one in "
                        "call_function_map or call_module_map):\n" + "\n".join(lines))

    def _describe(self, node: fx.Node) -> str:
        what = {"call_function": "function", "call_method": "method",
                "call_module": "module"}.get(node.op, node.op)
        target = _target_name(node)
        if node.op == "call_module":
            module = self.graph_module.get_submodule(node.target)
            return f"module '{target}' of {type(module).__module__}.{type(module).__qualname__}"
        path = _module_path(node)
        where = f" in module '{path}'" if path else ""
        return f"{what} {target}{where}"

    def _convert(self, node: fx.Node):
        if node.op == "get_attr":
            return self._attribute(node)
        convert = self._converter(node)
        args = fx.node.map_arg(node.args, self.values.__getitem__)
        kwargs = fx.node.map_arg(node.kwargs, self.values.__getitem__)
        module = self.graph_module.get_submodule(node.target) if node.op == "call_module" else None
        with self.builder.layer(node.name):
            arity = _course_arity(convert)
            if arity == 3:  # the course's (bb, node_map, node)
                result = convert(self.builder, self.values, node)
            elif arity == 4:  # the course's (bb, node_map, node, nn_mod)
                result = convert(self.builder, self.values, node, module)
            else:
                result = convert(Node(node, self.builder, tuple(args), dict(kwargs), module,
                                      self.tensor))
        if isinstance(result, tuple) and result and all(isinstance(r, Value) for r in result):
            result = list(result)
        return result

    def _attribute(self, node: fx.Node):
        value: Any = self.graph_module
        for part in str(node.target).split("."):
            value = getattr(value, part)
        if isinstance(value, torch.Tensor):
            return self.tensor(str(node.target), value)
        if isinstance(value, (int, float, bool)):
            return value
        raise Unsupported(f"attribute '{node.target}' is a {type(value).__name__}, not a tensor")

    # -- values

    def tensor(self, key: str, tensor: torch.Tensor) -> Value:
        """The graph value of the module's tensor `key` (one per key)."""
        known = self.tensors.get(key)
        if known is not None:
            return known
        array = tensor.detach().cpu().resolve_conj().resolve_neg().numpy()
        try:
            element = element_type_of_dtype(array.dtype)
        except (ValueError, KeyError):
            raise Unsupported(f"tensor '{key}' has dtype {tensor.dtype}, which mlc does not "
                              "support") from None
        if self.keep_params:
            value = self.builder.param(key, array.shape, element)
        else:
            value = self.builder.const(np.ascontiguousarray(array), dtype=element, name=key)
        self.tensors[key] = value
        return value

    def _element(self, dtype: torch.dtype):
        try:
            return element_type_of_dtype(torch.empty((), dtype=dtype).numpy().dtype)
        except (ValueError, KeyError, TypeError):
            raise self.fail(f"inputs of dtype {dtype} are not supported") from None

    def _outputs(self, output: fx.Node | None) -> list[Value]:
        if output is None:
            raise self.fail("the graph has no output node")
        flat: list = []

        def collect(item) -> None:
            if isinstance(item, (list, tuple)):
                for i in item:
                    collect(i)
            elif isinstance(item, dict):
                for i in item.values():
                    collect(i)
            elif isinstance(item, fx.Node):
                collect(self.values[item])
            elif isinstance(item, Value):
                flat.append(item)
            elif item is not None:
                raise self.fail(f"an output is a {type(item).__name__}, not a tensor")

        collect(output.args[0])
        if not flat:
            raise self.fail("the graph returns no tensor")
        return flat
