"""MLIR's text format: parsing, printing, and the API custom forms are written with.

    from mlc.ir.text import AsmParser, Printer

A dialect's op, type or attribute spells its custom form with an `assembly_format`
(compiled by :mod:`mlc.ir.text.format`) or with its own `parse(p: AsmParser)` and
`print(self, w: Printer)`; both go through the same API.
"""

from mlc.ir.text.asm_parser import Argument, AsmParser, UnresolvedOperand
from mlc.ir.text.format import FormatError
from mlc.ir.text.function_syntax import parse_function, print_function
from mlc.ir.text.parser import parse_attribute, parse_module, parse_type
from mlc.ir.text.printer import Printer, PrintOptions, print_op

__all__ = ["Argument", "AsmParser", "FormatError", "Printer", "PrintOptions",
           "UnresolvedOperand", "parse_attribute", "parse_function", "parse_module",
           "parse_type", "print_function", "print_op"]
