"""ONNX element types as mlc element types and numpy dtypes."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper

from mlc.graph.builder import element_type_of_dtype
from mlc.ir import Type

# bf16, the float8 kinds, int4 and strings have no numpy dtype the graph interpreter
# computes in; a model using them gets a diagnostic naming the type.
_NUMPY = {
    TensorProto.FLOAT: np.float32, TensorProto.DOUBLE: np.float64, TensorProto.FLOAT16: np.float16,
    TensorProto.INT8: np.int8, TensorProto.INT16: np.int16, TensorProto.INT32: np.int32,
    TensorProto.INT64: np.int64, TensorProto.UINT8: np.uint8, TensorProto.UINT16: np.uint16,
    TensorProto.UINT32: np.uint32, TensorProto.UINT64: np.uint64, TensorProto.BOOL: np.bool_,
}


class UnsupportedType(Exception):
    """An ONNX element type mlc's graph dialect has no type for."""


def numpy_dtype(elem_type: int) -> np.dtype:
    """The numpy dtype of ONNX element type `elem_type` (TensorProto.FLOAT, ...)."""
    if elem_type not in _NUMPY:
        raise UnsupportedType(f"element type {type_name(elem_type)} is not supported")
    return np.dtype(_NUMPY[elem_type])


def element_type(elem_type: int) -> Type:
    """The mlc element type of ONNX element type `elem_type`."""
    return element_type_of_dtype(numpy_dtype(elem_type))


def type_name(elem_type: int) -> str:
    """ONNX's name of an element type: FLOAT, INT64, ..."""
    try:
        return TensorProto.DataType.Name(elem_type)
    except ValueError:
        return f"#{elem_type}"


def onnx_elem_type(dtype: np.dtype) -> int:
    """The ONNX element type storing numpy `dtype`."""
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
