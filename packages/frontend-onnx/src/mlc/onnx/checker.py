"""`onnx.checker`'s full check, its failures said in mlc's words.

ONNX's messages name the node at the end of several lines (`==> Context: Bad node spec
for node. Name: conv1 OpType: Conv`), list shape-inference errors one per line, and
report a value nothing defines as a topological-order problem. Here each becomes one
message that starts with what is wrong and where: `node 'conv1' (Conv): ...`, with
ONNX's own words kept after it.
"""

from __future__ import annotations

import re

import onnx

from mlc.onnx.node import node_name

_NODE_CONTEXT = re.compile(r"==> Context: Bad node spec for node\. Name:\s*(.*?)\s*OpType: (\S+)")
_INFERENCE_ITEM = re.compile(r"\(op_type:([^,]*), node name: (.*?)\): (?:\[\w+\] )?(.*)")
_NOT_DEFINED = re.compile(r"however input '(.*?)' of node:\s*name:\s*(.*?)\s*OpType: (\S+)\s+is not "
                          r"output of any previous nodes")


class ModelCheckError(Exception):
    """The model fails onnx.checker's full check; `str()` is the message."""


def check_model(model: onnx.ModelProto) -> None:
    """Run onnx.checker's full check (with ONNX shape inference) on `model`; raise
    ModelCheckError saying, in one message, what fails and at which node."""
    try:
        onnx.checker.check_model(model, full_check=True)
    except UnicodeDecodeError:  # ONNX's message quotes a string that is not UTF-8
        raise ModelCheckError("the model is not valid ONNX (onnx.checker): a string in the "
                              "model is not valid UTF-8") from None
    except onnx.checker.ValidationError as exc:
        raise ModelCheckError("the model is not valid ONNX (onnx.checker): "
                              + _validation_message(str(exc), model)) from None
    except onnx.shape_inference.InferenceError as exc:
        raise ModelCheckError("ONNX shape inference fails on the model:"
                              + _inference_message(str(exc), model)) from None
    except Exception as exc:  # the C++ checker's other exceptions (invalid data type, ...)
        raise ModelCheckError("the model is not valid ONNX (onnx.checker): "
                              + _validation_message(str(exc), model)) from None


def check_names_are_utf8(model: onnx.ModelProto) -> None:
    """Raise ModelCheckError if a name, op or domain of the model is not UTF-8: protobuf
    does not check proto2's strings and hands such a one to Python as bytes. Run first,
    before anything reads a name."""
    not_utf8 = _first_name_not_utf8(model)
    if not_utf8:
        raise ModelCheckError(f"the model is not valid ONNX: {not_utf8} is not valid UTF-8")


def _first_name_not_utf8(model: onnx.ModelProto) -> str | None:
    graph = model.graph
    for kind, values in (("graph input", graph.input), ("graph output", graph.output),
                         ("initializer", graph.initializer), ("value_info", graph.value_info)):
        for index, value in enumerate(values):
            if isinstance(value.name, bytes):
                return f"the name of {kind} #{index}"
    for index, node in enumerate(graph.node):
        for field in ("name", "op_type", "domain"):
            if isinstance(getattr(node, field), bytes):
                return f"the {field.replace('_', ' ')} of node #{index}"
        for kind, names in (("input", node.input), ("output", node.output)):
            if any(isinstance(name, bytes) for name in names):
                return f"an {kind} name of node #{index}"
        if any(isinstance(a.name, bytes) for a in node.attribute):
            return f"an attribute name of node #{index}"
    if any(isinstance(o.domain, bytes) for o in model.opset_import):
        return "an opset's domain"
    return None


def _validation_message(text: str, model: onnx.ModelProto) -> str:
    body, _, context = text.partition("==> Context:")
    body = " ".join(body.split())
    undefined = _NOT_DEFINED.search(body)
    if undefined:
        value, name, op_type = undefined.groups()
        return (f"{_node(name, op_type, model)} reads '{value}', which is not a graph input, "
                "an initializer or an output of an earlier node")
    if "Field 'shape' of 'type' is required" in body:
        shapeless = [f"'{v.name}'" for v in model.graph.output
                     if v.type.HasField("tensor_type") and not v.type.tensor_type.HasField("shape")]
        if shapeless:
            noun = "output" if len(shapeless) == 1 else "outputs"
            return (f"graph {noun} {', '.join(shapeless)} declare{'s' if len(shapeless) == 1 else ''} "
                    f"no shape (an empty shape is a scalar): {body}")
    node = _NODE_CONTEXT.search("==> Context:" + context) if context else None
    if node:
        return f"{_node(node.group(1), node.group(2), model)}: {body}"
    return body or "(no message)"


def _inference_message(text: str, model: onnx.ModelProto) -> str:
    """One line per failing node, as the importer lists nodes it cannot convert."""
    lines = []
    for item in _INFERENCE_ITEM.finditer(text):
        op_type, name, reason = item.groups()
        lines.append(f"\n  {_node(name, op_type.strip(), model)}: {reason.strip()}")
    if not lines:
        return " " + " ".join(text.split())
    return "".join(lines)


def _node(name: str, op_type: str, model: onnx.ModelProto) -> str:
    """A node as the importer names it (:func:`~mlc.onnx.node.node_name`); ONNX's
    message gives an unnamed node only by its op, which finds it when only one unnamed
    node has that op."""
    if name:
        return f"node '{name}' ({op_type})"
    unnamed = [(i, n) for i, n in enumerate(model.graph.node) if not n.name and n.op_type == op_type]
    if len(unnamed) == 1:
        return f"node '{node_name(unnamed[0][1], unnamed[0][0])}' ({op_type})"
    return f"an unnamed {op_type} node"
