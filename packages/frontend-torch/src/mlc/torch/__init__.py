"""mlc.torch: PyTorch models into mlc's graph dialect.

    from mlc.torch import from_exported_program, from_fx
    module = from_fx(model.eval(), input_shapes=[(1, 3, 224, 224)])      # torch.fx
    module = from_exported_program(torch.export.export(model.eval(), (x,)))

Each FX node goes through the converter its target has in the maps of
:mod:`mlc.torch.converters` (torch functions, tensor methods, `nn` modules, ATen ops),
which the caller may extend or override; every node without one is named in one
diagnostic. :func:`register_torch_func` makes a function on torch tensors an external
function of compiled code, its buffers shared with torch (no copies).
"""

from mlc.torch.converters import FUNCTION_MAP, MODULE_MAP
from mlc.torch.extern import register_torch_func, to_torch
from mlc.torch.importer import (
    TorchImportError,
    from_exported_program,
    from_fx,
    load_exported_program,
)
from mlc.torch.node import Node, Unsupported

__all__ = ["FUNCTION_MAP", "MODULE_MAP", "Node", "TorchImportError", "Unsupported",
           "from_exported_program", "from_fx", "load_exported_program", "register_torch_func",
           "to_torch"]
