"""Reading a tool's input: MLIR text (a file or stdin) or an ONNX model, parsed and
verified, with every problem rendered as a located diagnostic.

    module, sources = load_module("model.mlir")     # raises InputError(rendered text)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field


def read_input(path: str) -> tuple[str, str]:
    """The text of a file (or of stdin for `-`) and the name diagnostics use for it.
    Bytes that are not UTF-8 are an error at the line and column of the first one."""
    if path == "-":
        data, name = sys.stdin.buffer.read(), "<stdin>"
    else:
        with open(path, "rb") as f:
            data, name = f.read(), path
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as exc:
        raise NotUTF8(name, data, exc.start) from None


class NotUTF8(Exception):
    """Input bytes that are not UTF-8: where the first bad byte is."""

    def __init__(self, name: str, data: bytes, offset: int):
        super().__init__(name)
        self.name = name
        line_start = data.rfind(b"\n", 0, offset) + 1
        self.line = data.count(b"\n", 0, offset) + 1
        self.column = offset - line_start + 1
        line_end = data.find(b"\n", offset)
        self.line_text = data[line_start:line_end if line_end != -1 else len(data)]
        self.byte = data[offset]

    def render(self) -> str:
        # The line is shown with each byte that is not UTF-8 replaced, so the caret
        # lines up with the byte column (one character per replaced byte).
        shown = self.line_text.decode("utf-8", "replace")
        prefix = self.line_text[:self.column - 1].decode("utf-8", "replace")
        return (f"{self.name}:{self.line}:{self.column}: error: invalid UTF-8 byte "
                f"0x{self.byte:02X} (mlc reads UTF-8 text)\n{shown}\n{' ' * len(prefix)}^\n")


class InputError(Exception):
    """The input cannot be read, parsed or verified; the message is the diagnostics as
    they are printed (`file:line:col: error: ...` with the source line and a caret)."""


@dataclass
class LoadOptions:
    """How to read an input: unregistered dialects, and an ONNX model's import options."""

    allow_unregistered: bool = False
    input_shapes: dict = field(default_factory=dict)
    constant_inputs: dict = field(default_factory=dict)
    keep_params: bool = False


def read_text_input(path: str) -> tuple[str, str]:
    """read_input, its failures an InputError holding the message as printed."""
    try:
        return read_input(path)
    except OSError as exc:
        raise InputError(f"error: cannot read '{path}': {exc.strerror}\n") from None
    except NotUTF8 as exc:
        raise InputError(exc.render()) from None


def load_module(path: str, options: LoadOptions | None = None):
    """The verified module in `path` (MLIR text, `-` for stdin, or a `.onnx` model) and
    the SourceManager its diagnostics render with. InputError otherwise."""
    from mlc.ir.core.dialect_registry import Context
    from mlc.ir.diagnostics import DiagnosticError, SourceManager
    from mlc.ir.text.parser import parse_module
    from mlc.ir.verify.verifier import Verifier
    from mlc.tools.onnx_input import FrontendMissing, OnnxInputError, import_model, is_onnx_path

    options = options or LoadOptions()
    sources = SourceManager()
    if is_onnx_path(path):
        try:
            module = import_model(path, options.input_shapes, options.keep_params,
                                  options.constant_inputs)
        except OnnxInputError as exc:
            raise InputError(f"{exc}\n") from None
        except FrontendMissing as exc:
            raise InputError(f"error: {exc}\n") from None
        return module, sources
    text, name = read_text_input(path)
    source = sources.add(name, text)
    try:
        module = parse_module(text, Context(allow_unregistered=options.allow_unregistered),
                              source=source)
    except DiagnosticError as exc:
        raise InputError("".join(sources.render(d) for d in exc.diagnostics)) from None
    diagnostics = Verifier().verify(module)
    if any(d.severity == "error" for d in diagnostics):
        raise InputError("".join(sources.render(d) for d in diagnostics))
    return module, sources
