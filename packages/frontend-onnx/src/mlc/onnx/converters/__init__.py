"""ONNX converters by family; importing this package registers them all (legacy, the
first definitions of ops, reuses later converters)."""

from mlc.onnx.converters import (  # noqa: F401
    control,
    data_dependent,
    deform_conv,
    elementwise,
    grid_sample,
    indexing,
    legacy,
    linalg,
    ml,
    nn,
    quantize,
    recurrent,
    reduce,
    resize,
    roi_align,
    spectral,
    tensor,
    text,
)
