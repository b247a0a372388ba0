"""The functions ONNX defines ops as: an op without a converter of its own is converted
through the body its schema gives it (Attention, NegativeLogLikelihoodLoss,
GroupNormalization, the window functions, ...), as onnxruntime and onnx.reference
expand them.

A schema's function is either fixed (`function_body`, one per opset version it was
written against) or context-dependent: built for the node's attributes and input types
(`get_context_dependent_function`). Either way its nodes use ops of the opset the
function imports, and its attributes may refer to the calling node's (`ref_attr_name`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import onnx
from onnx import defs, helper

from mlc.ir import RankedTensorType, element_dtype
from mlc.onnx.types import onnx_elem_type


def onnx_function(node: onnx.NodeProto, opset: int, domain: str,
                  input_types: Sequence[RankedTensorType | None]) -> onnx.FunctionProto | None:
    """The body ONNX defines `node`'s op as in a model of `opset` (for its attributes
    and `input_types`, None for an omitted input); None when the op has none.

    Its attribute defaults from the schema are put into the body's `attribute_proto`,
    where :func:`with_attributes` reads them."""
    try:
        schema = defs.get_schema(node.op_type, opset, domain)
    except defs.SchemaError:
        return None
    body = None
    if schema.has_function:
        version = _newest(schema.function_opset_versions, opset)
        if version is None:
            body = schema.function_body
        else:
            body = onnx.FunctionProto()
            body.ParseFromString(schema.get_function_with_opset_version(version))
    elif schema.has_context_dependent_function:
        types = [_type_proto(t).SerializeToString() for t in input_types]
        version = _newest(schema.context_dependent_function_opset_versions, opset)
        try:
            built = schema.get_context_dependent_function_with_opset_version(
                version or schema.since_version, node.SerializeToString(), types)
        except Exception:  # noqa: BLE001 - the builder refuses inputs it has no body for
            return None
        body = onnx.FunctionProto()
        body.ParseFromString(built)
    if body is None or not body.node:
        return None
    declared = {a.name for a in body.attribute_proto}
    for name, attribute in schema.attributes.items():
        default = attribute.default_value
        if name not in declared and default.type != onnx.AttributeProto.UNDEFINED:
            copy = body.attribute_proto.add()
            copy.CopyFrom(default)
            copy.name = name
    return body


def with_attributes(node: onnx.NodeProto, caller: Mapping[str, onnx.AttributeProto],
                    defaults: Mapping[str, onnx.AttributeProto]) -> onnx.NodeProto:
    """`node` of a function body with each attribute that refers to an attribute of the
    caller (`ref_attr_name`) replaced by the caller's value, or the function's default;
    dropped when neither has one, as ONNX's inliner does."""
    if not any(a.ref_attr_name for a in node.attribute):
        return node
    resolved = onnx.NodeProto()
    resolved.CopyFrom(node)
    del resolved.attribute[:]
    for attribute in node.attribute:
        if not attribute.ref_attr_name:
            resolved.attribute.append(attribute)
            continue
        value = caller.get(attribute.ref_attr_name) or defaults.get(attribute.ref_attr_name)
        if value is not None:
            copy = resolved.attribute.add()
            copy.CopyFrom(value)
            copy.name = attribute.name
    return resolved


def _newest(versions: Sequence[int], opset: int) -> int | None:
    """The newest of `versions` not after `opset`."""
    eligible = [v for v in versions if v <= opset]
    return max(eligible) if eligible else None


def _type_proto(t: RankedTensorType | None) -> onnx.TypeProto:
    if t is None:
        return onnx.TypeProto()
    return helper.make_tensor_type_proto(onnx_elem_type(element_dtype(t.element_type)),
                                         list(t.shape))
