"""ONNX model -> graph module.

    module = import_onnx("resnet18.onnx", input_shapes={"input": (1, 3, 224, 224)})

The seed flow of TVM's frontends, with MLIR's diagnostics: the model is read and
checked by `onnx.checker` (full check, with shape inference) after its dynamic
dimensions are bound; then each node, in ONNX's topological order, goes through the
converter registered for its op and opset (:mod:`mlc.onnx.registry`), inside a builder
that locates every op it makes at the node (`loc("node name")`). Problems are
collected across the whole model and reported in one diagnostic: every node without a
converter, every attribute value or input form a converter refuses.
"""

from __future__ import annotations

import collections
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

import mlc.onnx.converters  # noqa: F401  (registers the converters)
from mlc.graph.builder import GraphBuilder
from mlc.graph.op_base import GraphOp, UndefinedResultError
from mlc.graph.ops.constant import ConstantOp
from mlc.graph.types import tensor
from mlc.ir import BlockArgument, DenseElementsAttr, IRError, Operation, RankedTensorType, Value
from mlc.ir.diagnostics import Diagnostic, DiagnosticError
from mlc.onnx.checker import ModelCheckError, check_model, check_names_are_utf8
from mlc.onnx.functions import onnx_function, with_attributes
from mlc.onnx.node import Node, Unsupported, node_name
from mlc.onnx.registry import find_converter, first_supported_opset
from mlc.onnx.types import UnsupportedType, element_type, numpy_dtype

# The opsets of the default domain mlc reads: ONNX 1.23.2 defines 1..28.
SUPPORTED_OPSETS = range(1, onnx.defs.onnx_opset_version() + 1)


class OnnxImportError(DiagnosticError):
    """The model cannot be imported; the diagnostics say why. `needs_inputs` names the
    graph inputs whose values would let the import go through (see
    `import_onnx(constant_inputs=...)`), when that is the only problem."""

    def __init__(self, source: str, diagnostics: Diagnostic | Sequence[Diagnostic],
                 needs_inputs: Sequence[str] = ()):
        super().__init__(diagnostics)
        self.source = source
        self.needs_inputs = tuple(needs_inputs)

    def __str__(self) -> str:
        """Each diagnostic as one headline; those about the model as a whole (no
        location of their own) begin with the model's path, as `file: error: ...`."""
        return "\n".join(
            (f"{self.source}: " if d.loc is None else "") + str(DiagnosticError(d))
            for d in self.diagnostics)


def import_onnx(model_or_path: onnx.ModelProto | str | os.PathLike,
                input_shapes: Mapping[str, Sequence[int]] | None = None,
                freeze_params: bool = True,
                constant_inputs: Mapping[str, np.ndarray] | None = None) -> Operation:
    """Import an ONNX model (a ModelProto or a path to a `.onnx` file) as a graph
    module whose `@main` takes the model's inputs and returns its outputs.

    `input_shapes` binds dynamic dimensions (`{"input": (1, 3, 224, 224)}`); every
    dimension left unbound is named in the error. With `freeze_params` (the default)
    initializers become `graph.constant`s; otherwise they become parameters of `@main`
    after the inputs, in the model's order. `constant_inputs` binds graph inputs to
    values, as freezing binds initializers: for inputs that set shapes (a Reshape's
    target shape given as an input), which graph ops take as attributes.
    Raises OnnxImportError with located diagnostics."""
    source = os.fspath(model_or_path) if isinstance(model_or_path, (str, os.PathLike)) else "<model>"
    model = _load(model_or_path, source)
    return _Importer(model, source, dict(input_shapes or {}), freeze_params,
                     dict(constant_inputs or {})).run()


def _load(model_or_path, source: str) -> onnx.ModelProto:
    if isinstance(model_or_path, onnx.ModelProto):
        return model_or_path
    path = Path(model_or_path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OnnxImportError(source, _error(f"cannot read the model: {exc.strerror or exc}")) from None
    if not data:
        raise OnnxImportError(source, _error("not an ONNX model: the file is empty"))
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except Exception:  # protobuf's DecodeError, whose module differs between runtimes
        raise OnnxImportError(source, _error(
            f"not an ONNX model: the file ({len(data)} bytes) is not a valid ModelProto "
            "(truncated or not protobuf)")) from None
    if not model.HasField("graph"):
        raise OnnxImportError(source, _error("not an ONNX model: it has no graph"))
    if model.graph.initializer and any(t.data_location == onnx.TensorProto.EXTERNAL
                                       for t in model.graph.initializer):
        try:
            onnx.external_data_helper.load_external_data_for_model(model, str(path.parent))
        except Exception as exc:  # missing or short external data files
            raise OnnxImportError(source, _error(f"cannot load external data: {exc}")) from None
    return model


def _error(message: str, loc=None) -> Diagnostic:
    return Diagnostic("error", message, loc)


class _MissingInput(Exception):
    """A node (or a node of its subgraphs) reads a value that an earlier problem left
    uncomputed: that problem is reported, not this one."""


class _NodeProblem(Exception):
    """Why a node did not convert (and the graph inputs whose values would let it)."""

    def __init__(self, reason: str, needs_inputs: Sequence[str] = ()):
        super().__init__(reason)
        self.reason = reason
        self.needs_inputs = tuple(needs_inputs)


class _Importer:
    def __init__(self, model: onnx.ModelProto, source: str, input_shapes: dict,
                 freeze_params: bool, constant_inputs: dict):
        self.model = model
        self.source = source
        self.input_shapes = input_shapes
        self.freeze_params = freeze_params
        self.constant_inputs = constant_inputs
        self.values: dict[str, Value] = {}
        self.constants: dict[Value, np.ndarray] = {}
        self.builder = GraphBuilder("main")

    def fail(self, message: str, needs_inputs: Sequence[str] = ()) -> OnnxImportError:
        return OnnxImportError(self.source, _error(message), needs_inputs)

    # -- the flow

    def run(self) -> Operation:
        try:
            check_names_are_utf8(self.model)
        except ModelCheckError as exc:
            raise self.fail(str(exc)) from None
        self.opset = self._default_opset()
        self._upgrade_opset()
        if self.model.functions:
            from onnx import inliner
            self.model = inliner.inline_local_functions(self.model)
        graph = self.model.graph
        initializers = {t.name: t for t in graph.initializer}
        inputs = [i for i in graph.input if i.name not in initializers]
        self._check_names(inputs, initializers)
        shapes = self._bind_shapes(inputs)
        checked = _checked_form(self.model, shapes)
        try:
            check_model(checked)
        except ModelCheckError as exc:
            raise self.fail(str(exc)) from None
        inferred = self._inferred_types(checked)
        self._add_inputs(inputs, shapes)
        self._add_initializers(graph.initializer)
        problems = self._convert_nodes(graph.node, inferred)
        if problems:
            lines = [f"  node '{name}': {reason}" for name, reason, _ in problems]
            needs = sorted({n for _, _, needs in problems for n in needs})
            only_inputs = all(needs for _, _, needs in problems)
            noun = "node" if len(problems) == 1 else "nodes"
            raise self.fail(f"cannot convert {len(problems)} {noun} of the model "
                            f"(opset {self.opset}):\n" + "\n".join(lines),
                            needs if only_inputs else ())
        outputs = self._outputs(graph.output)
        module = self.builder.module(*outputs)
        _verify(module, self.source)
        return module

    def _default_opset(self) -> int:
        versions = [o.version for o in self.model.opset_import if o.domain in ("", "ai.onnx")]
        other = sorted(o.domain for o in self.model.opset_import if o.domain not in ("", "ai.onnx"))
        if not versions and (not other or any(n.domain in ("", "ai.onnx")
                                              for n in self.model.graph.node)):
            raise self.fail("the model imports no opset of the default ONNX domain")
        # A model of other domains' nodes alone (ai.onnx.ml) has no use for the default
        # domain's opset: the newest is as good as any.
        opset = versions[0] if versions else SUPPORTED_OPSETS.stop - 1
        if opset not in SUPPORTED_OPSETS:
            raise self.fail(f"opset {opset} of the default ONNX domain is not supported "
                            f"(mlc reads opsets {SUPPORTED_OPSETS.start} to {SUPPORTED_OPSETS.stop - 1})")
        self.other_domains = other
        return opset

    def _upgrade_opset(self) -> None:
        """A model of an opset older than some of its ops' converters is converted to
        the oldest opset they all convert at by ONNX's version converter, as onnxruntime
        and TVM read old models; when the converter cannot, the import goes on as it is
        (and names the nodes it cannot convert)."""
        needed = [first_supported_opset(n.op_type) for n in self.model.graph.node
                  if n.domain in ("", "ai.onnx") and find_converter(n.op_type, self.opset) is None]
        target = max((v for v in needed if v is not None), default=None)
        if target is None or target <= self.opset:
            return
        from onnx import version_converter

        try:
            upgraded = version_converter.convert_version(self.model, target)
        except Exception:  # noqa: BLE001 - adapters missing for some op or version
            return
        self.model = upgraded
        self.opset = target

    def _check_names(self, inputs, initializers) -> None:
        known = {i.name for i in inputs}
        unknown = sorted(set(self.input_shapes) - known)
        if unknown:
            raise self.fail(f"--input-shape names {', '.join(repr(n) for n in unknown)}, which "
                            f"{'is' if len(unknown) == 1 else 'are'} not among the model's inputs "
                            f"({', '.join(repr(n) for n in sorted(known)) or 'none'})"
                            + _dimension_hint(unknown, inputs))
        unknown = sorted(set(self.constant_inputs) - known)
        if unknown:
            raise self.fail(f"--constant-input names {', '.join(map(repr, unknown))}, not an "
                            "input of the model")

    def _bind_shapes(self, inputs) -> dict[str, tuple[int, ...]]:
        """Each input's static shape: its own dimensions, with the dynamic ones taken
        from `input_shapes` (or from a constant input's value); every dimension left
        unbound is named in one error."""
        shapes, unbound = {}, []
        for value_info in inputs:
            name = value_info.name
            type_proto = value_info.type
            if not type_proto.HasField("tensor_type"):
                raise self.fail(f"input '{name}' is not a tensor (sequences, maps and optionals "
                                "are not supported)")
            if name in self.constant_inputs:
                shapes[name] = tuple(np.shape(self.constant_inputs[name]))
                continue
            declared = type_proto.tensor_type.shape if type_proto.tensor_type.HasField("shape") else None
            given = self.input_shapes.get(name)
            if given is not None:
                given = tuple(int(d) for d in given)
                if any(d < 0 for d in given):
                    raise self.fail(f"--input-shape {name}: dimensions must be >= 0, got {list(given)}")
                if declared is not None:
                    if len(declared.dim) != len(given):
                        raise self.fail(f"input '{name}' has rank {len(declared.dim)}, but "
                                        f"{_count(len(given), 'dimension')} "
                                        f"{'is' if len(given) == 1 else 'are'} given for it")
                    for i, (dim, size) in enumerate(zip(declared.dim, given)):
                        if dim.HasField("dim_value") and dim.dim_value != size:
                            raise self.fail(f"input '{name}' has dimension {i} of size "
                                            f"{dim.dim_value}, but {size} is given for it")
                shapes[name] = given
                continue
            if declared is None:
                unbound.append(f"'{name}' (rank unknown)")
                continue
            dims = []
            for i, dim in enumerate(declared.dim):
                if dim.HasField("dim_value"):
                    dims.append(dim.dim_value)
                else:
                    label = f"'{dim.dim_param}'" if dim.HasField("dim_param") else "?"
                    unbound.append(f"'{name}' dimension {i} ({label})")
                    dims.append(-1)
            shapes[name] = tuple(dims)
        if unbound:
            raise self.fail("dynamic dimensions must be bound with --input-shape NAME=D0,D1,... "
                            "(input_shapes=): unbound: " + ", ".join(unbound))
        return shapes

    def _inferred_types(self, checked: onnx.ModelProto) -> dict[str, RankedTensorType]:
        """Value types from ONNX's shape inference on the model's checked form (see
        `_checked_form`), where static: used for stand-ins while collecting problems
        and to check converters' results."""
        try:
            inferred = onnx.shape_inference.infer_shapes(checked, data_prop=True)
        except Exception:  # the checker passed; inference is a help, not a requirement
            return {}
        types = {}
        for value_info in list(inferred.graph.value_info) + list(inferred.graph.output):
            t = value_info.type.tensor_type
            if not t.HasField("shape") or not all(d.HasField("dim_value") for d in t.shape.dim):
                continue
            try:
                types[value_info.name] = tensor(tuple(d.dim_value for d in t.shape.dim),
                                                element_type(t.elem_type))
            except UnsupportedType:
                continue
        return types

    def _add_inputs(self, inputs, shapes) -> None:
        for value_info in inputs:
            name = value_info.name
            elem = value_info.type.tensor_type.elem_type
            try:
                dtype = numpy_dtype(elem)
            except UnsupportedType as exc:
                raise self.fail(f"input '{name}': {exc}") from None
            if name in self.constant_inputs:
                array = np.asarray(self.constant_inputs[name], dtype)
                self._bind(name, self.builder.const(array, name=name))
            else:
                self._bind(name, self.builder.param(name, shapes[name], element_type(elem)))

    def _add_initializers(self, initializers) -> None:
        for proto in initializers:
            try:
                element = element_type(proto.data_type)
                # A view of the tensor's bytes; reshaping it to the dims also checks the
                # data's size, which onnx.checker did not see for large initializers.
                array = numpy_helper.to_array(proto)
            except (UnsupportedType, ValueError) as exc:
                raise self.fail(f"initializer '{proto.name}': {exc}") from None
            if self.freeze_params:
                self._bind(proto.name, self.builder.const(array, dtype=element, name=proto.name))
            else:
                self._bind(proto.name, self.builder.param(proto.name, array.shape, element))

    def _bind(self, name: str, value: Value) -> None:
        self.values[name] = value

    def _convert_nodes(self, nodes, inferred) -> list[tuple[str, str, tuple[str, ...]]]:
        problems = []
        opsets = {o.domain if o.domain != "ai.onnx" else "": o.version
                  for o in self.model.opset_import}
        opsets[""] = self.opset
        for index, proto in enumerate(nodes):
            name = node_name(proto, index)
            try:
                with self.builder.layer(name):
                    self._convert_node(proto, opsets, self.values)
            except _MissingInput:
                continue  # after an earlier problem without a stand-in: already reported
            except _NodeProblem as problem:
                problems.append((name, problem.reason, problem.needs_inputs))
                self._stand_in(proto, inferred)
        return problems

    def _convert_node(self, proto: onnx.NodeProto, opsets: Mapping[str, int],
                      values: dict[str, Value]) -> None:
        """Convert one node whose inputs are named in `values`, binding its outputs
        there: through its converter, or else through the function ONNX defines the op
        as (its body's nodes converted in turn). _NodeProblem says why not."""
        domain = proto.domain if proto.domain != "ai.onnx" else ""
        opset = opsets.get(domain, 0)
        label = f"{domain}.{proto.op_type}" if domain else proto.op_type
        label = f"{label} (opset {opset})"
        if any(i and i not in values for i in proto.input):
            raise _MissingInput()
        inputs = [values.get(i) if i else None for i in proto.input]
        found = find_converter(proto.op_type, opset, domain)
        try:
            if found is None:
                body = onnx_function(proto, opset, domain, [v.type if v else None for v in inputs])
                if body is None:
                    raise _NodeProblem(self._no_converter(proto.op_type, domain, opset))
                results = self._expand(proto, body, inputs, opsets)
            else:
                node = Node(proto, opset, self.builder, inputs, [None] * len(proto.output),
                            self._constant_of,
                            lambda graph, bound: self._convert_graph(graph, opsets, values, bound))
                results = found.convert(node)
        except Unsupported as exc:
            raise _NodeProblem(f"{label}: {exc.reason}", exc.needs_inputs) from None
        except (IRError, UndefinedResultError) as exc:  # graph ops refuse the operands
            raise _NodeProblem(f"{label}: {exc}") from None
        results = results if isinstance(results, (list, tuple)) else [results]
        for output, value in zip(proto.output, results):
            if output:
                values[output] = value

    def _convert_graph(self, graph: onnx.GraphProto, opsets: Mapping[str, int],
                       outer: dict[str, Value], inputs: Sequence[Value]) -> list[Value]:
        """The outputs of subgraph `graph` (an If's branch, a Loop's body) on `inputs`,
        its nodes converted in a scope of their own that sees the values of the scope
        around it (`outer`), as ONNX's subgraphs do."""
        scope = collections.ChainMap({}, outer)
        if len(inputs) != len(graph.input):
            raise Unsupported(f"the subgraph '{graph.name}' takes {len(graph.input)} inputs, "
                              f"{len(inputs)} given")
        for formal, value in zip(graph.input, inputs):
            scope[formal.name] = value
        for proto in graph.initializer:
            try:
                array = numpy_helper.to_array(proto)
                element = element_type(proto.data_type)
            except (UnsupportedType, ValueError) as exc:
                raise Unsupported(f"initializer '{proto.name}': {exc}") from None
            scope[proto.name] = self.builder.const(array, dtype=element)
        for inner in graph.node:
            try:
                self._convert_node(inner, opsets, scope)
            except _NodeProblem as problem:
                raise Unsupported(f"in subgraph '{graph.name}', node {inner.op_type}: "
                                  f"{problem.reason}", problem.needs_inputs) from None
        missing = [o.name for o in graph.output if o.name not in scope]
        if missing:
            raise Unsupported(f"the subgraph '{graph.name}' does not compute {missing[0]}")
        return [scope[o.name] for o in graph.output]

    def _expand(self, proto: onnx.NodeProto, body: onnx.FunctionProto,
                inputs: list[Value | None], outer: Mapping[str, int]) -> list[Value | None]:
        """The outputs of `proto` computed by the nodes of its function `body`, in a
        scope of their own: the function's inputs bound to the node's, its attribute
        references to the node's attributes; a domain the body uses without importing
        it (ai.onnx.preview's bodies use the default domain) at the model's opset."""
        scope: dict[str, Value] = {formal: value for formal, value in zip(body.input, inputs)
                                   if value is not None}
        opsets = {**outer, **{o.domain if o.domain != "ai.onnx" else "": o.version
                              for o in body.opset_import}}
        attributes = {a.name: a for a in proto.attribute}
        defaults = {a.name: a for a in body.attribute_proto}
        for inner in body.node:
            inner = with_attributes(inner, attributes, defaults)
            try:
                self._convert_node(inner, opsets, scope)
            except _NodeProblem as problem:
                raise Unsupported(f"in the function ONNX defines {proto.op_type} as, node "
                                  f"{inner.op_type}: {problem.reason}", problem.needs_inputs) \
                    from None
        return [scope.get(name) for name in body.output]

    def _no_converter(self, op_type: str, domain: str, opset: int) -> str:
        qualified = f"{domain}.{op_type}" if domain else op_type
        first = first_supported_opset(op_type, domain)
        if first is None:
            return f"{qualified} (opset {opset}): mlc has no converter for this op"
        return f"{qualified} (opset {opset}): mlc converts it from opset {first} on"

    def _stand_in(self, proto: onnx.NodeProto, inferred) -> None:
        """Zeros of the inferred type in place of a node that did not convert, so the
        nodes after it are converted and their problems reported too."""
        for output in proto.output:
            t = inferred.get(output)
            if output and t is not None:
                from mlc.ir import element_dtype
                zeros = np.broadcast_to(np.zeros((), element_dtype(t.element_type)), t.shape)
                self._bind(output, self.builder.const(zeros, dtype=t.element_type))

    def _constant_of(self, value: Value) -> np.ndarray:
        """The value of `value` if known at import time: a constant, or an op on
        known values (run on its reference semantics)."""
        known = self.constants.get(value)
        if known is not None:
            return known
        if isinstance(value, BlockArgument):
            name = value.name_hint or "?"
            raise Unsupported(f"needs the value of graph input '{name}' at import time "
                              "(bind it with --constant-input NAME=FILE.npy, or "
                              "import_onnx's constant_inputs)", needs_inputs=(name,))
        op = value.op
        if isinstance(op, ConstantOp) and isinstance(op.attributes["value"], DenseElementsAttr):
            array = op.attributes["value"].array
        elif isinstance(op, GraphOp):
            operands = [self._constant_of(v) for v in op.operands]
            array = op.evaluate(operands)[value.index]
        else:
            raise Unsupported(f"needs an input known at import time, got the result of {op.name}")
        self.constants[value] = array
        return array

    def _outputs(self, outputs) -> list[Value]:
        values = []
        for value_info in outputs:
            value = self.values.get(value_info.name)
            if value is None:
                raise self.fail(f"graph output '{value_info.name}' is not computed by any node")
            values.append(value)
        return values


# Initializers of more elements than this are declared, not carried, in the model that
# onnx.checker and shape inference see (see `_checked_form`).
_CHECKED_WITH_DATA = 1024


def _checked_form(model: onnx.ModelProto, shapes: Mapping[str, Sequence[int]]) -> onnx.ModelProto:
    """The model as onnx.checker and ONNX's shape inference are given it: a copy whose
    graph inputs have the bound `shapes`, and in which each initializer of more than
    `_CHECKED_WITH_DATA` elements is a graph input of its type and shape instead.

    Both serialize the whole model for their C++ side, and shape inference parses its
    result back: for ResNet-18's 47 MB of weights that is four fifths of the import,
    spent copying bytes that no check reads (the checker only compares their size with
    the dims, which reading them does too). Small initializers keep their data, so that
    shape inference propagates the values of shape tensors (a Reshape's target). The
    caller's model is left as it is."""
    checked = onnx.ModelProto()
    for descriptor, value in model.ListFields():
        if descriptor.name != "graph":
            _copy_field(checked, descriptor, value)
    graph = model.graph
    for descriptor, value in graph.ListFields():
        if descriptor.name not in ("input", "initializer"):
            _copy_field(checked.graph, descriptor, value)
    declared = set()
    for value_info in graph.input:
        copy = checked.graph.input.add()
        copy.CopyFrom(value_info)
        declared.add(value_info.name)
        if value_info.name in shapes:
            shape = copy.type.tensor_type.shape
            shape.Clear()
            for size in shapes[value_info.name]:
                shape.dim.add().dim_value = size
    for initializer in graph.initializer:
        if math.prod(initializer.dims) <= _CHECKED_WITH_DATA:
            checked.graph.initializer.append(initializer)
        elif initializer.name not in declared:
            checked.graph.input.append(onnx.helper.make_tensor_value_info(
                initializer.name, initializer.data_type, list(initializer.dims)))
    _write_out_function_defaults(checked)
    return checked


def _write_out_function_defaults(model: onnx.ModelProto) -> None:
    """Give each node of an op that ONNX defines as a function the attributes it leaves
    to their defaults, explicitly (the same model): ONNX's shape inference expands such
    a node's function body with the node's own attributes only, and fails on a body
    that refers to one left out (MeanVarianceNormalization's `axes`)."""
    opsets = {o.domain or "": o.version for o in model.opset_import}
    for node in model.graph.node:
        domain = node.domain or ""
        if domain not in ("", "ai.onnx") or domain not in opsets:
            continue
        try:
            schema = onnx.defs.get_schema(node.op_type, opsets[domain], domain)
        except onnx.defs.SchemaError:
            continue
        if not schema.has_function:
            continue
        given = {a.name for a in node.attribute}
        for name, attribute in schema.attributes.items():
            default = attribute.default_value
            if name not in given and default.name:
                node.attribute.append(default)


def _copy_field(message, descriptor, value) -> None:
    """Set field `descriptor` of protobuf `message` to (a copy of) `value`."""
    # (By the value's kind: FieldDescriptor.label is gone from protobuf 7.)
    if hasattr(value, "extend"):
        getattr(message, descriptor.name).extend(value)
    elif descriptor.type == descriptor.TYPE_MESSAGE:
        getattr(message, descriptor.name).CopyFrom(value)
    elif descriptor.type == descriptor.TYPE_STRING and isinstance(value, bytes):
        # A proto2 string that is not UTF-8 comes as bytes and cannot be set back: a
        # name or doc of the model or graph, which no check reads.
        setattr(message, descriptor.name, value.decode("utf-8", "replace"))
    else:
        setattr(message, descriptor.name, value)


def _verify(module: Operation, source: str) -> None:
    from mlc.ir import verify

    try:
        verify(module)
    except DiagnosticError as exc:
        raise OnnxImportError(source, exc.diagnostics) from None


def _dimension_hint(names: Sequence[str], inputs) -> str:
    """When a name given a shape is a dynamic dimension's (`batch`), how to bind it:
    through the whole shape of an input that has it."""
    for name in names:
        for value_info in inputs:
            dims = value_info.type.tensor_type.shape.dim
            if any(d.dim_param == name for d in dims):
                example = ",".join(str(d.dim_value) if d.HasField("dim_value") else "N" for d in dims)
                return (f"; '{name}' is a dimension of input '{value_info.name}': give that "
                        f"input's whole shape (--input-shape {value_info.name}={example})")
    return ""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
