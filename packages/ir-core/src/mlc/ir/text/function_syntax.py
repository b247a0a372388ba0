"""The custom syntax of function-like ops, shared by every dialect that has one
(func.func, llvm.func), written on the parser and printer API:

    func.func private @name(%arg0: i32 {attrs} loc(...), ...) -> (f32 {attrs}, ...)
        attributes {...} { body }

A declaration has no body and names no arguments: `func.func private @f(i32) -> f32`.
A variadic function (llvm.func's) ends its arguments with `...`: `@printf(!llvm.ptr, ...)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    DictionaryAttr,
    FunctionType,
    StringAttr,
    Type,
    TypeAttr,
)
from mlc.ir.core.ir import Operation, Region
from mlc.ir.text.asm_parser import Argument, AsmParser


@dataclass
class FunctionSyntax:
    """What a function-like op's custom form holds."""

    attributes: dict[str, Attribute]
    function_type: FunctionType
    body: Region
    variadic: bool = False


def _nonempty(attrs: Attribute | None) -> Attribute | None:
    return attrs if isinstance(attrs, DictionaryAttr) and attrs.entries else None


def parse_function(p: AsmParser, op_class: type, visibilities=("public", "private", "nested"),
                   type_attr: str = "function_type", arg_attrs: str = "arg_attrs",
                   res_attrs: str = "res_attrs", allow_variadic: bool = False) -> FunctionSyntax:
    """Read `[visibility] @name(args) [-> results] [attributes {...}] [{body}]`; with
    `allow_variadic`, the arguments may end with `...`. With no `visibilities`
    (llvm.func, whose keyword there is a linkage), `sym_visibility` is an ordinary
    attribute of the dictionary."""
    attrs: dict[str, Attribute] = {}
    visibility = p.parse_optional_keyword(visibilities) if visibilities else None
    if visibility is not None:
        attrs["sym_visibility"] = StringAttr(visibility)
    attrs["sym_name"] = StringAttr(p.parse_symbol_name())
    arguments, arg_types, arg_dicts, variadic = _parse_arguments(p, allow_variadic)
    result_types, result_dicts = _parse_results(p)
    function_type = FunctionType(tuple(arg_types), tuple(result_types))
    attrs[type_attr] = TypeAttr(function_type)
    if any(d is not None for d in arg_dicts):
        attrs[arg_attrs] = ArrayAttr(tuple(d or DictionaryAttr(()) for d in arg_dicts))
    if any(d is not None for d in result_dicts):
        attrs[res_attrs] = ArrayAttr(tuple(d or DictionaryAttr(()) for d in result_dicts))
    dict_pos = p.current_pos()
    written: dict[str, Attribute] = {}
    p.parse_optional_attr_dict_with_keyword(written)
    for inferred in (*(("sym_visibility",) if visibilities else ()), "sym_name", type_attr):
        if inferred in written:
            raise p.error(f"'{inferred}' is an inferred attribute and should not be specified "
                          "in the explicit attribute dictionary", dict_pos)
    attrs.update(written)
    body_pos = p.current_pos()
    body = p.parse_optional_region(arguments, op_class)
    if body is None:
        body = Region()  # a declaration: argument names, if written, are dropped (MLIR)
    elif not body.blocks:
        raise p.error("expected non-empty function body", body_pos)
    return FunctionSyntax(attrs, function_type, body, variadic)


def _parse_arguments(p: AsmParser, allow_variadic: bool
                     ) -> tuple[list[Argument], list[Type], list, bool]:
    p.parse_punctuation("(")
    arguments: list[Argument] = []
    types: list[Type] = []
    dicts: list = []
    if p.parse_optional_punctuation(")"):
        return arguments, types, dicts, False
    while True:
        if allow_variadic and p.parse_optional_punctuation("..."):
            p.parse_punctuation(")")
            return arguments, types, dicts, True
        pos = p.current_pos()
        argument = p.parse_optional_argument(allow_type=True, allow_attrs=True, allow_loc=True)
        if argument is not None:
            if len(arguments) != len(types):
                raise p.error("expected type instead of SSA identifier", pos)
            arguments.append(argument)
            types.append(argument.type)
            dicts.append(argument.attrs)
        else:
            if arguments:
                # At the type, as MLIR reports it (not after the comma before it).
                raise p.error("expected SSA identifier", p.current_pos())
            types.append(p.parse_type())
            dicts.append(_nonempty(_optional_dict(p)))
        if not p.parse_optional_comma():
            break
    p.parse_punctuation(")")
    return arguments, types, dicts, False


def _optional_dict(p: AsmParser) -> DictionaryAttr | None:
    entries = p.parse_optional_attr_dict()
    return DictionaryAttr(tuple(sorted(entries.items()))) if entries else None


def _parse_results(p: AsmParser) -> tuple[list[Type], list]:
    if not p.parse_optional_arrow():
        return [], []
    if not p.parse_optional_punctuation("("):
        return [p.parse_type()], [None]
    return _parse_types_with_attrs(p)


def _parse_types_with_attrs(p: AsmParser) -> tuple[list[Type], list]:
    """`T {attrs}, ...)` after the `(`: the types, and each one's attributes (None for
    none)."""
    types: list[Type] = []
    dicts: list = []
    if p.parse_optional_punctuation(")"):
        return types, dicts
    while True:
        types.append(p.parse_type())
        dicts.append(_optional_dict(p))
        if not p.parse_optional_comma():
            break
    p.parse_punctuation(")")
    return types, dicts


def parse_signature_with_attrs(p: AsmParser) -> tuple[FunctionType, ArrayAttr | None,
                                                      ArrayAttr | None]:
    """`(T {attrs}, ...) -> (R {attrs}, ...)`, a call's signature with argument and
    result attributes (MLIR's call_interface_impl): the type, then the argument and
    result attribute arrays (None when no attribute is written)."""
    p.parse_punctuation("(")
    types, dicts = _parse_types_with_attrs(p)
    p.parse_arrow()
    if p.parse_optional_punctuation("("):
        result_types, result_dicts = _parse_types_with_attrs(p)
    else:
        result_types, result_dicts = [p.parse_type()], [None]

    def array(found: list) -> ArrayAttr | None:
        found = [_nonempty(d) for d in found]
        if not any(d is not None for d in found):
            return None
        return ArrayAttr(tuple(d or DictionaryAttr(()) for d in found))

    return (FunctionType(tuple(types), tuple(result_types)), array(dicts),
            array(result_dicts))


def print_signature_with_attrs(w, inputs, results, arg_dicts=None, res_dicts=None) -> None:
    """Write what :func:`parse_signature_with_attrs` reads: the results in parentheses
    unless there is one without attributes."""
    _print_types_with_attrs(w, inputs, arg_dicts)
    w.write(" -> ")
    _print_results(w, results, res_dicts)


def _print_results(w, results, res_dicts) -> None:
    """The result types after `->`: one without attributes bare, else in parentheses,
    each with its attributes."""
    with_attrs = res_dicts is not None and any(a.entries for a in res_dicts)
    if len(results) == 1 and not with_attrs and not isinstance(results[0], FunctionType):
        w.type(results[0])
        return
    _print_types_with_attrs(w, results, res_dicts)


def _print_types_with_attrs(w, types, dicts) -> None:
    """`(T {attrs}, ...)`, each type with its non-empty attributes."""
    w.write("(")
    for i, type_ in enumerate(types):
        if i:
            w.write(", ")
        w.type(type_)
        if dicts is not None and i < len(dicts) and dicts[i].entries:
            w.write(" ")
            w.attr(dicts[i])
    w.write(")")


def print_function(w, op: Operation, elided: frozenset[str] = frozenset(),
                   type_attr: str = "function_type", arg_attrs: str = "arg_attrs",
                   res_attrs: str = "res_attrs", visibility_keyword: bool = True) -> None:
    """Write a function-like op's custom form after its name (see the module docstring);
    without `visibility_keyword`, `sym_visibility` is written in the attribute dictionary."""
    attrs = op.attributes
    visibility = attrs.get("sym_visibility")
    if visibility is not None and visibility_keyword:
        w.write(" " + visibility.value)
    w.write(" ")
    w.symbol_name(attrs["sym_name"].value)
    fn_type = attrs[type_attr].value
    arg_dicts = attrs.get(arg_attrs)
    res_dicts = attrs.get(res_attrs)
    body = op.regions[0] if op.regions else None
    entry = body.blocks[0] if body is not None and body.blocks else None
    w.write("(")
    for i, arg_type in enumerate(fn_type.inputs):
        if i:
            w.write(", ")
        if entry is not None and i < len(entry.args):
            w.value(entry.args[i])
            w.write(": ")
        w.type(arg_type)
        if arg_dicts is not None and i < len(arg_dicts) and arg_dicts[i].entries:
            w.write(" ")
            w.attr(arg_dicts[i])
        if entry is not None and i < len(entry.args):
            w.block_arg_loc(entry.args[i])
    if getattr(fn_type, "vararg", False):
        w.write(", ..." if fn_type.inputs else "...")
    w.write(")")
    results = fn_type.results
    if results:
        w.write(" -> ")
        _print_results(w, results, res_dicts)
    inferred = {"sym_name", type_attr, arg_attrs, res_attrs}
    w.attr_dict(op, elided | inferred | ({"sym_visibility"} if visibility_keyword else set()),
                keyword=True)
    if entry is not None:
        w.write(" ")
        w.region(body, print_entry_args=False)
