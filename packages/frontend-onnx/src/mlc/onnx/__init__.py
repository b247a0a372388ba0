"""mlc.onnx: not yet implemented (a later issue builds it)."""
