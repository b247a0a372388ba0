"""mlc.onnx: ONNX models into mlc's graph dialect.

    from mlc.onnx import import_onnx
    module = import_onnx("model.onnx", input_shapes={"input": (1, 3, 224, 224)})

`import_onnx` checks the model with `onnx.checker`, converts each node with the
converter registered for its op and opset (:mod:`mlc.onnx.registry`) and reports every
node it cannot convert in one diagnostic. :mod:`mlc.onnx.backend` runs models (and
ONNX's own backend test suite) through mlc.
"""

from mlc.onnx.importer import OnnxImportError, import_onnx
from mlc.onnx.node import Node, Unsupported
from mlc.onnx.registry import converter, supported_ops

__all__ = ["Node", "OnnxImportError", "Unsupported", "converter", "import_onnx", "supported_ops"]
