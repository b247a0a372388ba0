"""Custom assembly: the parse and print functions of ops, dialect types and dialect
attributes, compiled from their `assembly_format` or written by hand.

The text layer owns this cache: declarations (:mod:`mlc.ir.opdef`) hold a format as a
string, and the first parse or print of a class compiles it here into generated
Python (:mod:`~mlc.ir.text.format.codegen`), once per process. A class that writes its
own `parse`/`print` (MLIR's `hasCustomAssemblyFormat`) is used as it is, through the
same parser and printer API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.ir.core.attributes import AsmWriter
from mlc.ir.core.ir import Block
from mlc.ir.opdef.declare import OpDef
from mlc.ir.opdef.params import parameters_of
from mlc.ir.opdef.traits import NoTerminator, SingleBlock
from mlc.ir.text.format.codegen import (
    check_op_format,
    op_parse_function,
    op_print_function,
    param_parse_function,
    param_print_function,
)
from mlc.ir.text.format.elements import FormatError
from mlc.ir.text.format.reader import FormatReader

_op_parsers: dict[type, Callable | None] = {}
_op_printers: dict[type, Callable | None] = {}
_body_parsers: dict[type, Callable] = {}
_body_printers: dict[type, Callable] = {}


def _directive_finder(op_def_or_class: Any) -> Callable[[str], Any]:
    def find(name: str):
        dialect = getattr(op_def_or_class, "dialect", None)
        for candidate in (dialect, _builtin_dialect()):
            if candidate is not None and name in candidate.directives:
                return candidate.directives[name]
        return None

    return find


def _builtin_dialect():
    from mlc.ir.dialects.builtin import builtin

    return builtin


def _op_parts(op_def: OpDef) -> dict[str, Any]:
    parts: dict[str, Any] = {}
    for group in (op_def.operands, op_def.results, op_def.regions, op_def.successors):
        for definition in group:
            parts[definition.name] = definition
    parts.update(op_def.attributes)
    return parts


def _read_op_format(op_def: OpDef):
    reader = FormatReader(op_def.name, op_def.assembly_format or "", _op_parts(op_def),
                          _directive_finder(op_def))
    elements = reader.read()
    check_op_format(op_def, elements)
    return elements


def op_parser(cls: type) -> Callable | None:
    """`parse(p, pos) -> Operation` for ops of `cls` in custom form, or None when the
    op has only the generic form."""
    try:
        return _op_parsers[cls]
    except KeyError:
        pass
    op_def = cls.op_def
    parser: Callable | None = None
    if op_def.custom_parse:
        parser = _hand_written_parser(cls)
    elif op_def.assembly_format is not None:
        parser = op_parse_function(op_def, _read_op_format(op_def))
    if parser is not None and SingleBlock in op_def.trait_set and NoTerminator in op_def.trait_set:
        parser = _with_implicit_blocks(parser)
    _op_parsers[cls] = parser
    return parser


def _hand_written_parser(cls: type) -> Callable:
    def parse(p, pos):
        op = cls.parse(p)
        op.loc = p.state.loc(pos)
        cls._fill_defaults(op.attributes)
        return op

    return parse


def _with_implicit_blocks(parse: Callable) -> Callable:
    """`module {}` still has its one block, as in MLIR."""

    def parse_with_blocks(p, pos):
        op = parse(p, pos)
        for region in op.regions:
            if not region.blocks:
                region.append(Block())
        return op

    parse_with_blocks.__wrapped__ = parse
    return parse_with_blocks


def op_printer(cls: type) -> Callable | None:
    """`print(op, printer)` writing what follows the op's name in custom form, or None
    when the op prints only in generic form."""
    try:
        return _op_printers[cls]
    except KeyError:
        pass
    op_def = cls.op_def
    printer: Callable | None = None
    if op_def.custom_print:
        printer = cls.print
    elif op_def.assembly_format is not None:
        printer = op_print_function(op_def, _read_op_format(op_def))
    _op_printers[cls] = printer
    return printer


def body_parser(cls: type) -> Callable:
    """`parse(p) -> instance` for a dialect type or attribute: what follows its name."""
    parser = _body_parsers.get(cls)
    if parser is None:
        if "parse" in vars(cls):
            parser = cls.parse
        else:
            params = parameters_of(cls)
            fmt = getattr(cls, "assembly_format", None)
            if fmt is None:
                if params:
                    raise FormatError(f"'{cls.name}' has parameters but no assembly_format "
                                      "and no parse/print of its own")
                elements = []
            else:
                reader = FormatReader(cls.name, fmt, {p.name: p for p in params},
                                      _directive_finder(cls))
                elements = reader.read()
            parser = param_parse_function(cls, params, elements)
            _body_printers.setdefault(cls, param_print_function(cls, elements))
        _body_parsers[cls] = parser
    return parser


def body_printer(cls: type) -> Callable:
    """`print(value, writer)` writing what follows a dialect type's or attribute's name."""
    printer = _body_printers.get(cls)
    if printer is None:
        if "print" in vars(cls):
            printer = _body_printers[cls] = _call_print
        else:
            body_parser(cls)
            printer = _body_printers[cls]
    return printer


def _call_print(value, w) -> None:
    value.print(w)


def write_dialect_body(value, w: AsmWriter) -> None:
    """The body of a dialect type or attribute (the core's writers call this)."""
    body_printer(type(value))(value, w)


AsmWriter.body_writer = staticmethod(write_dialect_body)

__all__ = ["FormatError", "op_parser", "op_printer", "body_parser", "body_printer"]
