"""Nesting depth is not limited by Python's recursion."""

import sys

from mlc.ir import Context, PrintOptions, parse_module, print_op, verify

DEPTH = 3000


def _nested_generic(depth: int) -> str:
    opening = '"test.wrap"() ({\n' * depth
    closing = "}) : () -> ()\n" * depth
    return opening + '"test.leaf"() : () -> ()\n' + closing


def test_thousands_of_nested_regions_parse_verify_and_print():
    assert DEPTH > sys.getrecursionlimit() // 2
    ctx = Context(allow_unregistered=True)
    module = parse_module(_nested_generic(DEPTH), ctx)
    verify(module)
    generic = print_op(module, PrintOptions(generic=True))
    assert generic.count('"test.wrap"') == DEPTH
    again = parse_module(generic, Context(allow_unregistered=True))
    assert print_op(again, PrintOptions(generic=True)) == generic
    assert sum(1 for _ in again.walk()) == DEPTH + 2


def test_deeply_nested_custom_modules():
    text = "module {\n" * DEPTH + "}\n" * DEPTH
    module = parse_module(text, Context())
    verify(module)
    printed = print_op(module)
    assert printed.count("module {") == DEPTH
    assert print_op(parse_module(printed, Context())) == printed


def test_indentation_stops_growing_so_text_is_linear_in_depth():
    # Two spaces per level as MLIR prints, up to MAX_INDENT_LEVELS; below that every
    # level starts at the same column, so the text of N levels is O(N), not O(N²).
    from mlc.ir.text.printer import MAX_INDENT_LEVELS

    module = parse_module(_nested_generic(DEPTH), Context(allow_unregistered=True))
    lines = print_op(module, PrintOptions(generic=True)).splitlines()
    indents = [len(line) - len(line.lstrip(" ")) for line in lines]
    assert indents[:4] == [0, 2, 4, 6]
    assert max(indents) == 2 * MAX_INDENT_LEVELS
    assert sum(indents) < 2 * MAX_INDENT_LEVELS * len(lines)
    shallow = parse_module(_nested_generic(3), Context(allow_unregistered=True))
    assert print_op(shallow, PrintOptions(generic=True)).splitlines()[4] == '        "test.leaf"() : () -> ()'
