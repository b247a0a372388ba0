"""ONNX converters by family; importing this package registers them all."""

from mlc.onnx.converters import control, elementwise, indexing, nn, reduce, resize, tensor  # noqa: F401
