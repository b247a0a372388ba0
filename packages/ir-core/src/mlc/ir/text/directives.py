"""Named custom directives for assembly formats: `custom<Name>(...)`.

Each is a small parse/print pair for a shape the format language cannot say, as in
MLIR. A directive contributes lark rules (`grammar`, whose top rule is
`grammar_rule`), callbacks for those rules that run during the parse, `parse` to turn
the top rule's value into the op's parts, and `print`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mlc.ir.core.attributes import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    TypeAttr,
    i1,
)

if TYPE_CHECKING:
    from mlc.ir.text.format import BuildState
    from mlc.ir.text.printer import Printer


class Directive:
    """Base of custom directives; see the module docstring."""

    name = ""
    grammar_rule = ""
    grammar = ""
    callbacks: dict[str, Any] = {}
    extra_attrs: tuple[str, ...] = ()
    space_before = True

    def parse(self, value, params, state: BuildState) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def print(self, op, params, p: Printer) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class FunctionSignature(Directive):
    """`(%arg0: i32 {attrs} loc(...), ...) -> (f32 {attrs})` for function-like ops.

    Params: the function type attribute, then the argument and result attribute
    arrays. Named arguments become the entry block arguments of the op's body region
    (the parser hands them to the next region it opens).
    """

    name = "FunctionSignature"
    space_before = False
    grammar_rule = "function_signature"
    grammar = """
function_signature: "(" [fn_args] ")" [fn_results]
fn_args: _fn_arg ("," _fn_arg)*
_fn_arg: fn_named_arg | fn_anon_arg
fn_named_arg: VALUE_ID ":" type [dictionary_attr] [trailing_loc]
fn_anon_arg: type [dictionary_attr]
fn_results: "->" _non_function_type
          | "->" "(" [fn_result ("," fn_result)*] ")"
fn_result: type [dictionary_attr]
"""

    def parse(self, value, params, state: BuildState) -> None:
        args, results = value
        type_param, arg_attrs_param, res_attrs_param = (p.name for p in params)
        state.attributes[type_param] = TypeAttr(FunctionType(tuple(a[1] for a in args),
                                                             tuple(r[0] for r in results)))
        if any(a[2] for a in args):
            state.attributes[arg_attrs_param] = ArrayAttr(tuple(a[2] or DictionaryAttr(())
                                                                for a in args))
        if any(r[1] for r in results):
            state.attributes[res_attrs_param] = ArrayAttr(tuple(r[1] or DictionaryAttr(())
                                                                for r in results))

    def print(self, op, params, p: Printer) -> None:
        type_param, arg_attrs_param, res_attrs_param = (p.name for p in params)
        fn_type = op.attributes[type_param].value
        arg_attrs = op.attributes.get(arg_attrs_param)
        res_attrs = op.attributes.get(res_attrs_param)
        body = op.regions[0] if op.regions else None
        entry = body.blocks[0] if body is not None and body.blocks else None
        p.write("(")
        for i, arg_type in enumerate(fn_type.inputs):
            if i:
                p.write(", ")
            if entry is not None and i < len(entry.args):
                p.value(entry.args[i])
                p.write(": ")
            p.type(arg_type)
            if arg_attrs is not None and i < len(arg_attrs) and arg_attrs[i].entries:
                p.write(" ")
                p.attr(arg_attrs[i])
            if entry is not None and i < len(entry.args):
                p.block_arg_loc(entry.args[i])
        p.write(")")
        results = fn_type.results
        if not results:
            return
        p.write(" -> ")
        with_attrs = res_attrs is not None and any(a.entries for a in res_attrs)
        if len(results) == 1 and not with_attrs and not isinstance(results[0], FunctionType):
            p.type(results[0])
            return
        p.write("(")
        for i, result_type in enumerate(results):
            if i:
                p.write(", ")
            p.type(result_type)
            if res_attrs is not None and i < len(res_attrs) and res_attrs[i].entries:
                p.write(" ")
                p.attr(res_attrs[i])
        p.write(")")


class FunctionBody(Directive):
    """An optional body region whose entry arguments the signature already showed."""

    name = "FunctionBody"
    grammar_rule = "function_body"
    grammar = """
function_body: [region]
"""

    def parse(self, value, params, state: BuildState) -> None:
        if value is not None:
            state.regions[params[0].definition.index] = value

    def print(self, op, params, p: Printer) -> None:
        region = op.regions[params[0].definition.index]
        if region.blocks:
            p.region(region, print_entry_args=False)


class SelectTypes(Directive):
    """`: type` when the condition is `i1`, else `: cond_type, type` (arith.select)."""

    name = "SelectTypes"
    grammar_rule = "select_types"
    grammar = """
select_types: type ["," type]
"""

    def parse(self, value, params, state: BuildState) -> None:
        first, second = value
        condition_type, value_type = (i1, first) if second is None else (first, second)
        state.operand_types = [[condition_type], [value_type], [value_type]]
        state.result_types = [[value_type]]

    def print(self, op, params, p: Printer) -> None:
        condition_type = op.operand(0).type
        if condition_type != i1:
            p.type(condition_type)
            p.write(", ")
        p.type(op.results[0].type)

DIRECTIVES: dict[str, Directive] = {d.name: d for d in (FunctionSignature(), FunctionBody(),
                                                         SelectTypes())}


def register_directive(directive: Directive) -> Directive:
    """Make `custom<Name>` available to formats (call before the grammar is built)."""
    DIRECTIVES[directive.name] = directive
    return directive
