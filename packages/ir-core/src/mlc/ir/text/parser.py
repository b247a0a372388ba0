"""Parsing MLIR text into IR: lark's LALR parser driven by an inline transformer.

No parse tree is built. Each grammar rule has a callback (a method of
:class:`_Callbacks`) that lark calls when it reduces the rule, bottom-up and in text
order; the callbacks build types, attributes and ops directly and keep the SSA name
scopes in a :class:`_ParseState`. lark's parser keeps its own explicit stack, so
nesting depth is not limited by Python's recursion.

Scoping follows MLIR: a region opens a scope for value names and block labels; uses
before definitions (graph regions, successors) get placeholders that the definition
replaces; names still undefined when the top level ends are reported at their use.
"""

from __future__ import annotations

import threading
from typing import Any

from mlc.ir.core.affine_map import AffineMapAttr
from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    ComplexType,
    DenseResourceElementsAttr,
    DialectAttribute,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FloatType,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    Location,
    MemRefType,
    NameLoc,
    NoneType,
    OpaqueAttr,
    OpaqueType,
    RankedTensorType,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
    TupleType,
    Type,
    TypeAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
    float_to_bits,
    i1,
    i64,
    unit,
    unknown_loc,
)
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile
from mlc.ir.dialect import Context
from mlc.ir.opdef.traits import IsolatedFromAbove, NoTerminator, SingleBlock
from mlc.ir.text.affine_parser import AffineParseError, parse_affine_attribute
from mlc.ir.text.format import BuildError, BuildState
from mlc.ir.text.lexer import LexError, Tok
from mlc.ir.text.literals import (
    parse_dense_array,
    parse_dense_body,
    parse_resource_section,
    unescape_string,
)

_SIMPLE_TYPES: dict[str, Type] = {
    "index": IndexType(), "none": NoneType(),
    **{name: FloatType(name) for name in ("f16", "bf16", "tf32", "f32", "f64", "f80", "f128")},
}
MAX_INTEGER_WIDTH = 16777215


def simple_type(text: str) -> Type:
    """A builtin type spelled as one word: `i32`, `si8`, `f32`, `index`..."""
    cached = _SIMPLE_TYPES.get(text)
    if cached is not None:
        return cached
    if text.startswith("si"):
        result: Type = IntegerType(int(text[2:]), "signed")
    elif text.startswith("ui"):
        result = IntegerType(int(text[2:]), "unsigned")
    elif text.startswith("i") and text[1:].isdigit():
        result = IntegerType(int(text[1:]))
    else:
        raise ValueError(f"unknown type '{text}'")
    if result.width > MAX_INTEGER_WIDTH:
        raise ValueError(f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits")
    _SIMPLE_TYPES[text] = result
    return result


class ForwardValue(Value):
    """A placeholder for a value used before its definition."""

    __slots__ = ("ref_name", "pos")

    def __init__(self, ref_name: str, pos: int):
        Value.__init__(self, None)  # type: ignore[arg-type]
        self.ref_name = ref_name
        self.pos = pos


class _Scope:
    __slots__ = ("names", "forward", "blocks", "block_refs", "region", "current", "saved_values",
                 "open_pos", "named_entry")

    def __init__(self, region: Region | None):
        self.names: list[str] = []
        self.forward: dict[tuple[str, int], ForwardValue] = {}
        self.blocks: dict[str, Block] = {}
        self.block_refs: dict[str, int] = {}  # forward-referenced label -> first use offset
        self.region = region
        self.current: Block | None = None
        self.saved_values: dict | None = None
        self.open_pos = 0
        self.named_entry = False


class _ParseState:
    """Mutable state of one parse."""

    def __init__(self, ctx: Context, source: SourceFile, lark, base_offset: int = 0):
        self.ctx = ctx
        self.source = source
        self.lark = lark
        self.base_offset = base_offset
        self.values: dict[str, tuple[list[Value], int]] = {}
        self.scopes: list[_Scope] = [_Scope(None)]
        self.top_block = Block()
        self.scopes[0].current = self.top_block
        self.pending_entry_args: list | None = None
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Type] = {}
        self.deferred_locs: list[tuple[Any, str, int]] = []
        self.value_stack: list = []  # the LALR driver's, while parsing
        self.raw_args: list = []  # the unfiltered children of the rule being reduced
        self.last_region_pos = 0
        self.op_terminals: dict[str, type] = {}

    # -- locations and errors ---------------------------------------------------

    def loc(self, offset: int) -> FileLineColLoc:
        return self.source.loc(offset + self.base_offset)

    def error(self, message: str, offset: int, notes=()) -> DiagnosticError:
        diag = Diagnostic("error", message, self.loc(offset))
        for note_message, note_offset in notes:
            diag.add_note(note_message, self.loc(note_offset) if note_offset is not None else None)
        return DiagnosticError(diag)

    # -- values -----------------------------------------------------------------

    def use(self, tok: Tok) -> tuple[Value, int]:
        name, _, number = tok.value.partition("#")
        index = int(number) if number else 0
        entry = self.values.get(name)
        if entry is not None:
            group = entry[0]
            if index >= len(group):
                raise self.error(f"reference to invalid result number {index} of '{name}'",
                                 tok.start_pos)
            return group[index], tok.start_pos
        scope = self.scopes[-1]
        key = (name, index)
        placeholder = scope.forward.get(key)
        if placeholder is None:
            placeholder = ForwardValue(tok.value, tok.start_pos)
            scope.forward[key] = placeholder
        return placeholder, tok.start_pos

    def resolve_operand(self, item: tuple[Value, int], type_: Type) -> Value:
        value, pos = item
        if value.type is None:
            value.type = type_
        elif value.type != type_:
            if isinstance(value, ForwardValue):
                raise self.error(f"use of value '{value.ref_name}' expects different type than "
                                 f"prior uses: '{type_}' vs '{value.type}'", pos,
                                 [("prior use here", value.pos)])
            raise self.error(f"use of value expects different type than its definition: "
                             f"'{type_}' vs '{value.type}'", pos,
                             [("value defined here", self.definition_pos(value))])
        return value

    def definition_pos(self, value: Value) -> int | None:
        for group, pos in self.values.values():
            if value in group:
                return pos
        return None

    def define(self, name: str, group: list[Value], pos: int) -> None:
        if name in self.values:
            raise self.error(f"redefinition of SSA value '{name}'", pos,
                             [("previously defined here", self.values[name][1])])
        scope = self.scopes[-1]
        if scope.forward:
            for index, value in enumerate(group):
                placeholder = scope.forward.pop((name, index), None)
                if placeholder is None:
                    continue
                if placeholder.type is not None and placeholder.type != value.type:
                    raise self.error(f"definition of SSA value '{name}#{index}' has type "
                                     f"'{value.type}'", pos,
                                     [(f"previously used here with type '{placeholder.type}'",
                                       placeholder.pos)])
                placeholder.replace_all_uses_with(value)
            for (fname, index), placeholder in list(scope.forward.items()):
                if fname == name:
                    raise self.error(f"reference to invalid result number {index} of '{name}'",
                                     placeholder.pos)
        hint = name[1:]
        if not (hint.isdigit() or (hint.startswith("arg") and hint[3:].isdigit())):
            for value in group:
                value.name_hint = hint
        self.values[name] = (group, pos)
        scope.names.append(name)

    # -- blocks and regions -------------------------------------------------------

    def block_for_label(self, label: str, pos: int, defining: bool) -> Block:
        scope = self.scopes[-1]
        block = scope.blocks.get(label)
        if block is None:
            block = Block()
            scope.blocks[label] = block
            if not defining:
                scope.block_refs[label] = pos
        elif defining:
            if label not in scope.block_refs:
                raise self.error(f"redefinition of block '{label}'", pos)
            del scope.block_refs[label]
        return block

    def enclosing_op_class(self):
        """The class of the op whose region is being opened, found on the parser's
        value stack (its name token is the nearest op-name token below)."""
        stack = self.value_stack
        for i in range(len(stack) - 1, -1, -1):
            item = stack[i]
            kind = getattr(item, "type", None)
            if kind is None:
                continue
            if kind.startswith("OP_"):
                return self.op_terminals.get(kind)
            if kind == "STRING" and i + 1 < len(stack) and getattr(stack[i + 1], "value", None) == "(":
                return self.ctx.get_op_class(unescape_string(item.value))
        return None

    def open_region(self) -> None:
        region = Region()
        scope = _Scope(region)
        scope.open_pos = self.raw_args[0].start_pos if self.raw_args else 0
        cls = self.enclosing_op_class()
        if cls is not None and cls.op_def is not None and IsolatedFromAbove in cls.op_def.trait_set:
            # Names from outside are not visible in an isolated region (and may be reused).
            scope.saved_values = self.values
            self.values = {}
        self.scopes.append(scope)
        args = self.pending_entry_args
        if args is not None:
            self.pending_entry_args = None
            entry = Block()
            region.append(entry)
            scope.current = entry
            for name_tok, type_, loc in args:
                arg = entry.add_argument(type_, loc=loc)
                self.define(name_tok.value, [arg], name_tok.start_pos)
            scope.named_entry = True

    def close_region(self) -> Region:
        scope = self.scopes.pop()
        self.last_region_pos = scope.open_pos
        if scope.block_refs:
            label, pos = next(iter(scope.block_refs.items()))
            raise self.error(f"reference to an undefined block '{label}'", pos)
        if scope.saved_values is not None:
            self.values = scope.saved_values
            if scope.forward:
                placeholder = min(scope.forward.values(), key=lambda p: p.pos)
                raise self.error("use of undeclared SSA value name", placeholder.pos)
            assert scope.region is not None
            return scope.region
        for name in scope.names:
            del self.values[name]
        parent = self.scopes[-1]
        for key, placeholder in scope.forward.items():
            existing = parent.forward.get(key)
            if existing is None:
                parent.forward[key] = placeholder
            else:
                placeholder.replace_all_uses_with(existing)
        assert scope.region is not None
        return scope.region

    def current_block(self) -> Block:
        scope = self.scopes[-1]
        if scope.current is None:
            scope.current = Block()
            assert scope.region is not None
            scope.region.append(scope.current)
        return scope.current

    # -- ops ------------------------------------------------------------------------

    def make_op(self, cls, name: str, operands, result_types, attributes, regions, successors,
                pos: int) -> Operation:
        op = cls.__new__(cls)
        Operation.__init__(op, name, operands, result_types, attributes, regions, successors,
                           self.loc(pos))
        if cls.op_def is not None:
            cls._fill_defaults(op.attributes)
        return op

    def op_class(self, name: str, pos: int):
        cls = self.ctx.get_op_class(name)
        if cls is not None:
            return cls
        if self.ctx.allow_unregistered:
            return Operation
        dialect = name.split(".", 1)[0] if "." in name else name
        raise self.error(f"unregistered operation '{name}' found in dialect ('{dialect}') that "
                         "does not allow unknown operations (use --allow-unregistered-dialect "
                         "to accept it)", pos)

    # -- attributes and types ---------------------------------------------------------

    def symbol_name(self, tok: Tok) -> str:
        text = tok.value[1:]
        return unescape_string(text) if text.startswith('"') else text

    def string_value(self, tok: Tok) -> str:
        try:
            return unescape_string(tok.value)
        except ValueError as exc:
            raise self.error(str(exc), tok.start_pos) from None

    def dialect_attr_body(self, cls: type[DialectAttribute], tok: Tok) -> Attribute:
        from mlc.ir.text.body_parser import AsmBodyParser

        return self._parse_body(cls, AsmBodyParser(tok.value, self, tok.start_pos), tok)

    def _parse_body(self, cls, body_parser, tok: Tok):
        try:
            result = cls.parse_body(body_parser)
            body_parser.expect_end()
            return result
        except DiagnosticError:
            raise
        except ValueError as exc:
            raise self.error(f"invalid '{cls.name}': {exc}", tok.start_pos) from None

    def dialect_type(self, tok: Tok) -> Type:
        from mlc.ir.text.body_parser import AsmBodyParser

        text = tok.value
        cut = text.find("<")
        name = text[1:cut] if cut != -1 else text[1:]
        body = text[cut:] if cut != -1 else ""
        cls = self.ctx.get_type_class(name)
        if cls is None:
            dialect = name.split(".", 1)[0]
            if self.ctx.try_load(dialect) is not None:
                raise self.error(f"dialect '{dialect}' has no type '{name}'", tok.start_pos)
            if self.ctx.allow_unregistered:
                return OpaqueType(dialect, text[1 + len(dialect):])
            raise self.error(f"dialect '{dialect}' is unknown; cannot parse type '{text}' "
                             "(use --allow-unregistered-dialect to accept it)", tok.start_pos)
        return self._parse_body(cls, AsmBodyParser(body, self, tok.start_pos + (cut if cut != -1 else len(text))), tok)

    def dialect_attr(self, tok: Tok) -> Attribute:
        from mlc.ir.text.body_parser import AsmBodyParser

        text = tok.value
        cut = text.find("<")
        name = text[1:cut] if cut != -1 else text[1:]
        body = text[cut:] if cut != -1 else ""
        cls = self.ctx.get_attr_class(name)
        if cls is None:
            dialect = name.split(".", 1)[0]
            if self.ctx.try_load(dialect) is not None:
                raise self.error(f"dialect '{dialect}' has no attribute '{name}'", tok.start_pos)
            if self.ctx.allow_unregistered:
                return OpaqueAttr(text)
            raise self.error(f"dialect '{dialect}' is unknown; cannot parse attribute '{text}' "
                             "(use --allow-unregistered-dialect to accept it)", tok.start_pos)
        return self._parse_body(cls, AsmBodyParser(body, self, tok.start_pos + (cut if cut != -1 else len(text))), tok)

    def sub_parse(self, text: str, start: str, offset: int):
        """Parse a type, attribute or location inside a dialect body."""
        state = _ParseState(self.ctx, self.source, self.lark, self.base_offset + offset)
        state.attr_aliases = self.attr_aliases
        state.type_aliases = self.type_aliases
        return _run(self.lark, state, text, start)


class _Callbacks:
    """lark's inline transformer: one method per rule (and a few terminals)."""

    def __init__(self):
        self.local = threading.local()

    @property
    def s(self) -> _ParseState:
        return self.local.state

    # ---------------------------------------------------------------- top level

    def start(self, children):
        metadata = children[-1]
        if metadata is not None:
            try:
                self.s.ctx.resources.update(parse_resource_section(metadata.value))
            except ValueError as exc:
                offset = metadata.start_pos + getattr(exc, "offset", 0)
                raise self.s.error(str(exc), offset) from None
        return self.s.top_block

    def type_start(self, children):
        return children[0]

    def attribute_start(self, children):
        return children[0]

    def attribute_no_dict(self, children):
        return children[0]

    def location_start(self, children):
        return children[0]

    def alias_def(self, children):
        tok, value = children
        attr = tok.type == "ATTR_ALIAS"
        table = self.s.attr_aliases if attr else self.s.type_aliases
        if tok.value in table:
            kind = "attribute" if attr else "type"
            raise self.s.error(f"redefinition of {kind} alias id '{tok.value[1:]}'", tok.start_pos)
        table[tok.value] = value
        return None

    # ---------------------------------------------------------------- operations

    def operation(self, children):
        results, op, loc = children
        s = self.s
        if loc is not None:
            if isinstance(loc, tuple):
                s.deferred_locs.append((op, loc[1], loc[2]))
            else:
                op.loc = loc
        if results is not None:
            total = sum(count for _, count in results)
            if total != len(op.results):
                raise s.error(f"operation defines {len(op.results)} results but was provided "
                              f"{total} to bind", results[0][0].start_pos)
            start = 0
            for tok, count in results:
                s.define(tok.value, op.results[start:start + count], tok.start_pos)
                start += count
        s.pending_entry_args = None
        s.current_block().append(op)
        return op

    def op_results(self, children):
        results = []
        for tok in children:
            name, _, count = tok.value.partition(":")
            results.append((Tok("VALUE_ID", name, tok.start_pos), int(count) if count else 1))
        return results

    def generic_op(self, children):
        name_tok, operands, successors, properties, regions, attrs, fn_type = children
        s = self.s
        name = s.string_value(name_tok)
        cls = s.op_class(name, name_tok.start_pos)
        operands = operands or []
        if len(operands) != len(fn_type.inputs):
            raise s.error(f"expected {len(operands)} operand types but had {len(fn_type.inputs)}",
                          name_tok.start_pos)
        values = [s.resolve_operand(item, t) for item, t in zip(operands, fn_type.inputs)]
        attributes: dict[str, Attribute] = {}
        unregistered = cls is Operation
        if properties is not None and not unregistered:
            attributes.update(properties.entries)
        if attrs is not None:
            attributes.update(attrs.entries)
        op = s.make_op(cls, name, values, fn_type.results, attributes, regions or [],
                       successors or [], name_tok.start_pos)
        if properties is not None and unregistered:
            op.properties = dict(properties.entries)
        return op

    def properties(self, children):
        return children[0]

    def successors(self, children):
        return children

    def successor(self, children):
        tok = children[0]
        return self.s.block_for_label(tok.value, tok.start_pos, defining=False)

    def region_list(self, children):
        return children

    def attr_dict(self, children):
        return children[0]

    def attr_dict_kw(self, children):
        return children[0]

    def VALUE_USE(self, tok):  # noqa: N802
        return self.local.state.use(tok)

    def value_use_list(self, children):
        if len(children) == 1:
            return children
        values = children[0]
        values.append(children[1])
        return values

    def region_items(self, children):
        return None

    def toplevel_items(self, children):
        return None

    def region_open(self, children):
        self.s.open_region()

    def region(self, children):
        return self.s.close_region()

    def block_label(self, children):
        tok, args = children
        s = self.s
        block = s.block_for_label(tok.value, tok.start_pos, defining=True)
        scope = s.scopes[-1]
        if scope.region is None:
            raise s.error("block labels are only allowed inside regions", tok.start_pos)
        if scope.named_entry and scope.current is scope.region.blocks[0] and \
                scope.current.first_op is None:
            raise s.error("invalid block name in region with named arguments", tok.start_pos)
        scope.region.append(block)
        scope.current = block
        for name_tok, type_, loc in args or []:
            if not isinstance(loc, Location):
                loc = s.loc(name_tok.start_pos)
            arg = block.add_argument(type_, loc=loc)
            s.define(name_tok.value, [arg], name_tok.start_pos)
        return None

    def block_args(self, children):
        return [c for c in children if c is not None]

    def block_arg(self, children):
        return tuple(children)

    # ---------------------------------------------------------------- types

    def SIMPLE_TYPE(self, tok):  # noqa: N802 - lark names terminal callbacks by terminal
        try:
            return simple_type(tok.value)
        except ValueError as exc:
            raise self.s.error(str(exc), tok.start_pos) from None

    def DIALECT_TYPE(self, tok):  # noqa: N802
        return self.s.dialect_type(tok)

    def type_alias(self, children):
        tok = children[0]
        try:
            return self.s.type_aliases[tok.value]
        except KeyError:
            raise self.s.error(f"undefined type alias '{tok.value}'", tok.start_pos) from None

    def tensor_type(self, children):
        dims, element, encoding = children
        if dims is not None and dims.value == "*x":
            if encoding is not None:
                raise self.s.error("unranked tensors have no encoding", dims.start_pos)
            return UnrankedTensorType(element)
        return RankedTensorType(self._shape(dims), element, encoding)

    def memref_type(self, children):
        dims, element, *extra = children
        layout = extra[0] if extra else None
        space = extra[1] if len(extra) > 1 else None
        if dims is not None and dims.value == "*x":
            if isinstance(layout, AffineMapAttr):
                raise self.s.error("cannot have affine map for unranked memref type", dims.start_pos)
            return UnrankedMemRefType(element, layout)
        if layout is not None and space is None and isinstance(layout, (IntegerAttr, StringAttr)):
            layout, space = None, layout
        shape = self._shape(dims)
        if isinstance(layout, AffineMapAttr):
            if layout.value.num_dims != len(shape):
                raise self.s.error(f"memref layout mismatch between rank and affine map: "
                                   f"{len(shape)} != {layout.value.num_dims}", self.s.raw_args[0].start_pos)
            if layout.value.is_identity():
                layout = None  # MLIR normalises an identity layout away
        return MemRefType(shape, element, layout, space)

    def _shape(self, dims: Tok | None) -> tuple[int, ...]:
        if dims is None:
            return ()
        shape = []
        for d in dims.value.split("x")[:-1]:
            if d == "?":
                shape.append(-1)
                continue
            size = int(d.strip("[]"))
            if size >= 1 << 63:
                raise self.s.error("invalid dimension", dims.start_pos)
            shape.append(size)
        return tuple(shape)

    def memref_extra(self, children):
        return children[0]

    def vector_type(self, children):
        dims, element = children
        shape = self._shape(dims)
        scalable = tuple(d.startswith("[") for d in dims.value.split("x")[:-1]) if dims else ()
        if dims is not None and dims.value == "*x":
            raise self.s.error("vector types must have a known rank", dims.start_pos)
        if any(d < 0 for d in shape):
            raise self.s.error("vector types must have static dimensions", dims.start_pos)
        return VectorType(shape, element, scalable if any(scalable) else ())

    def tuple_type(self, children):
        return TupleType(tuple(children[0] or ()))

    def complex_type(self, children):
        return ComplexType(children[0])

    def function_type(self, children):
        inputs, results = children
        return FunctionType(tuple(inputs or ()), results)

    def function_results(self, children):
        if len(children) == 1 and isinstance(children[0], Type):
            return (children[0],)
        return tuple(children[0] or ())

    def type_list(self, children):
        if len(children) == 1:
            return children
        types = children[0]
        types.append(children[1])
        return types

    # ---------------------------------------------------------------- attributes

    def int_attr(self, children):
        tok, type_ = children
        try:
            value = int(tok.value)
        except ValueError:  # more digits than Python converts
            raise self.s.error("integer constant out of range for attribute", tok.start_pos) from None
        if type_ is None:
            return self._integer(value, i64, tok)
        if isinstance(type_, FloatType):
            raise self.s.error("unexpected decimal integer literal for a floating point value",
                               tok.start_pos,
                               [("add a trailing dot to make the literal a float", tok.start_pos)])
        if not isinstance(type_, (IntegerType, IndexType)):
            raise self.s.error(f"integer literal not valid for specified type '{type_}'", tok.start_pos)
        return self._integer(value, type_, tok)

    def _integer(self, value: int, type_: Type, tok: Tok) -> IntegerAttr:
        """An integer attribute, range-checked and stored as MLIR prints it (signless
        and signed values in the signed range, `-1 : i1` as true)."""
        width = 64 if isinstance(type_, IndexType) else type_.width
        signedness = getattr(type_, "signedness", "signless")
        if signedness == "unsigned":
            if value < 0:
                raise self.s.error("negative integer literal not valid for unsigned integer type",
                                   tok.start_pos)
            low, high = 0, (1 << width) - 1
        elif signedness == "signed":
            low, high = -(1 << (width - 1)) if width else 0, (1 << (width - 1)) - 1 if width else 0
        else:
            low, high = -(1 << (width - 1)) if width else 0, (1 << width) - 1
        if not low <= value <= high:
            raise self.s.error(f"integer constant out of range for attribute of type '{type_}'",
                               tok.start_pos)
        if signedness == "signless" and width:
            if width == 1:
                value &= 1
            elif value >= 1 << (width - 1):
                value -= 1 << width
        return IntegerAttr(value, type_)

    def hex_attr(self, children):
        tok, type_ = children
        value = int(tok.value, 16)
        if isinstance(type_, FloatType):
            if value.bit_length() > type_.width:
                raise self.s.error(f"hexadecimal float constant out of range for type '{type_}'",
                                   tok.start_pos)
            return FloatAttr(value, type_)
        if type_ is not None and not isinstance(type_, (IntegerType, IndexType)):
            raise self.s.error(f"integer literal not valid for specified type '{type_}'", tok.start_pos)
        return self._integer(value, type_ or i64, tok)

    def float_attr(self, children):
        tok, type_ = children
        type_ = type_ or FloatType("f64")
        if not isinstance(type_, FloatType):
            raise self.s.error(f"floating point value not valid for specified type '{type_}'",
                               tok.start_pos)
        return FloatAttr(float_to_bits(float(tok.value), type_), type_)

    def string_attr(self, children):
        tok, type_ = children
        return StringAttr(self.s.string_value(tok))

    def bool_attr(self, children):
        return IntegerAttr(1 if children[0].value == "true" else 0, i1)

    def type_attr(self, children):
        return TypeAttr(children[0])

    def unit_attr(self, children):
        return unit

    def array_attr(self, children):
        if children == [None]:
            return ArrayAttr(())
        return ArrayAttr(tuple(children))

    def dictionary_attr(self, children):
        if children == [None]:
            return DictionaryAttr(())
        entries: dict[str, Attribute] = {}
        for name, value in children:
            entries[name] = value
        return DictionaryAttr(tuple(sorted(entries.items(), key=lambda kv: kv[0])))

    def dict_entry(self, children):
        key, value = children
        name = self.s.string_value(key) if key.type == "STRING" else key.value
        return name, value if value is not None else unit

    def symbol_ref(self, children):
        names = [self.s.symbol_name(tok) for tok in children]
        return SymbolRefAttr(names[0], tuple(names[1:]))

    def dense_attr(self, children):
        tok, type_ = children
        try:
            return parse_dense_body(tok.value[len("dense<"):-1], type_)
        except ValueError as exc:
            raise self.s.error(str(exc), tok.start_pos) from None

    def dense_resource_attr(self, children):
        tok, type_ = children
        if not isinstance(type_, ShapedType):
            raise self.s.error("dense_resource needs a shaped type", tok.start_pos)
        handle = tok.value[len("dense_resource<"):-1].strip()
        if handle.startswith('"'):
            handle = unescape_string(handle)
        return DenseResourceElementsAttr(type_, handle, self.s.ctx.resources)

    def DENSE_ARRAY(self, tok):  # noqa: N802
        try:
            return parse_dense_array(tok.value, simple_type)
        except ValueError as exc:
            raise self.s.error(str(exc), tok.start_pos) from None

    def DIALECT_ATTR(self, tok):  # noqa: N802
        return self.s.dialect_attr(tok)

    def OPAQUE_BUILTIN(self, tok):  # noqa: N802
        if tok.value.startswith("strided"):
            return OpaqueAttr(tok.value)
        try:
            return parse_affine_attribute(tok.value)
        except AffineParseError as exc:
            raise self.s.error(exc.message, tok.start_pos + exc.offset) from None

    def attr_alias(self, children):
        tok = children[0]
        try:
            return self.s.attr_aliases[tok.value]
        except KeyError:
            raise self.s.error(f"undefined symbol alias id '{tok.value[1:]}'", tok.start_pos) from None

    def loc_attr(self, children):
        loc = children[0]
        if isinstance(loc, tuple):
            return self.s.attr_aliases.get(loc[1], unknown_loc)
        return loc

    # ---------------------------------------------------------------- locations

    def trailing_loc(self, children):
        return children[0]

    def unknown_loc(self, children):
        return unknown_loc

    def file_loc(self, children):
        name, line, col = children
        return FileLineColLoc(self.s.string_value(name), int(line.value),
                              int(col.value) if col is not None else 0)

    def _nested_loc(self, loc):
        """A location inside another: an alias there must already be defined."""
        if isinstance(loc, tuple):
            raise self.s.error(f"undefined symbol alias id '{loc[1][1:]}'", loc[2])
        return loc

    def name_loc(self, children):
        name = children[0]
        child = self._nested_loc(children[1]) if len(children) > 1 else None
        return NameLoc(self.s.string_value(name), child)

    def callsite_loc(self, children):
        callee, caller = children
        return CallSiteLoc(self._nested_loc(callee), self._nested_loc(caller))

    def fused_loc(self, children):
        metadata, *locs = children
        if locs == [None]:
            locs = []
        return FusedLoc(tuple(self._nested_loc(loc) for loc in locs), metadata)

    def fused_metadata(self, children):
        return children[0]

    def alias_loc(self, children):
        tok = children[0]
        loc = self.s.attr_aliases.get(tok.value)
        if isinstance(loc, Location):
            return loc
        return ("alias", tok.value, tok.start_pos)  # defined later in the file

    # ---------------------------------------------------------------- directives

    def function_signature(self, children):
        args, results = children
        args = args or []
        named = [a for a in args if a[0] is not None]
        if named and len(named) != len(args):
            raise self.s.error("expected all arguments to be named or none", args[0][0].start_pos
                               if args[0][0] is not None else 0)
        if named:
            self.s.pending_entry_args = [(a[0], a[1], a[3]) for a in args]
        return args, results or []

    def fn_args(self, children):
        return children

    def fn_named_arg(self, children):
        tok, type_, attrs, loc = children
        if not isinstance(loc, Location):
            loc = self.s.loc(tok.start_pos)
        return tok, type_, attrs if attrs is not None and attrs.entries else None, loc

    def fn_anon_arg(self, children):
        type_, attrs = children
        return None, type_, attrs if attrs is not None and attrs.entries else None, None

    def fn_results(self, children):
        if len(children) == 1 and isinstance(children[0], Type):
            return [(children[0], None)]
        return [c for c in children if c is not None]

    def fn_result(self, children):
        type_, attrs = children
        return type_, attrs if attrs is not None and attrs.entries else None

    def function_body(self, children):
        region = children[0]
        if region is not None and not region.blocks:
            raise self.s.error("expected non-empty function body", self.s.last_region_pos)
        return region

    def select_types(self, children):
        return children[0], children[1]


def _make_op_callback(cls, rule_name: str):
    from mlc.ir.text.format_codegen import generate_builder

    fmt = cls.op_def.format
    op_name = cls.op_def.name
    traits = cls.op_def.trait_set
    implicit_block = SingleBlock in traits and NoTerminator in traits
    fast_build = generate_builder(fmt)

    def callback(self: _Callbacks, children):
        s = self.local.state
        tok = children[0]
        try:
            if fast_build is not None:
                operands, result_types, attributes, regions, successors = fast_build(s, children)
            else:
                state = BuildState(cls.op_def, s, tok.start_pos)
                fmt.build(children[1:], state)
                operands, result_types, attributes, regions, successors = state.finish()
        except BuildError as exc:
            raise s.error(exc.message, exc.pos if exc.pos is not None else tok.start_pos) from None
        if implicit_block:  # `module {}` still has its one block, as in MLIR
            for region in regions:
                if not region.blocks:
                    region.append(Block())
        return s.make_op(cls, op_name, operands, result_types, attributes, regions, successors,
                         tok.start_pos)

    callback.__name__ = rule_name
    return callback


def _make_group_callback(name: str):
    def callback(self, children):
        return children

    callback.__name__ = name
    return callback


class _ParserCache:
    """One lark parser per set of loaded ops, built once per process."""

    def __init__(self):
        self.parsers: dict[frozenset, tuple[Any, _Callbacks]] = {}
        self.drivers: dict[int, Any] = {}
        self.specs: dict = {}
        self.lock = threading.Lock()

    def driver(self, lark):
        from mlc.ir.text.lalr_driver import LALRDriver

        driver = self.drivers.get(id(lark))
        if driver is None:
            driver = self.drivers[id(lark)] = LALRDriver(lark)
            driver.op_terminals = {}
            for spec_lark, (_, spec) in self.specs.items():
                if spec_lark is lark:
                    for cls in spec.op_rules.values():
                        terminal = cls.op_def.format.op_terminal
                        driver.op_terminals[terminal] = cls
                        for k in range(1, 3):
                            driver.op_terminals[f"{terminal}_{k}"] = cls
        return driver

    def get(self, ctx: Context):
        from mlc.ir.text.grammar import GrammarSpec, build_lark

        key = frozenset(ctx.op_classes)
        with self.lock:
            cached = self.parsers.get(key)
            if cached is not None:
                return cached
            spec = GrammarSpec(ctx)
            callbacks_cls = type("Callbacks", (_Callbacks,), {})
            for rule_name, cls in spec.op_rules.items():
                setattr(callbacks_cls, rule_name, _make_op_callback(cls, rule_name))
                for line in spec.text.splitlines():
                    if line.startswith(rule_name + "_g"):
                        group = line.split(":", 1)[0]
                        setattr(callbacks_cls, group, _make_group_callback(group))
            callbacks = callbacks_cls()
            lark = build_lark(spec, callbacks)
            self.parsers[key] = (lark, callbacks)
            self.specs[lark] = (callbacks, spec)
            return lark, callbacks


_cache = _ParserCache()


_TERMINAL_NAMES = {
    "VALUE_ID": "SSA value", "CARET_ID": "block label", "SYMBOL": "symbol", "STRING": "string",
    "INT": "integer", "FLOAT": "float", "HEX": "hexadecimal integer", "BARE_ID": "identifier",
    "SIMPLE_TYPE": "type", "DIMS": "dimension list", "$END": "end of input",
    "DIALECT_TYPE": "dialect type", "DIALECT_ATTR": "dialect attribute",
}


def _describe_expected(expected: set[str], punct: dict[str, str], keywords: dict) -> str:
    names = set()
    reverse_punct = {v: k for k, v in punct.items()}
    reverse_kw = {}
    for text, terms in keywords.items():
        for t in terms:
            reverse_kw.setdefault(t, text)
    for terminal in expected:
        if terminal in reverse_punct:
            names.add(f"'{reverse_punct[terminal]}'")
        elif terminal.startswith("OP_"):
            names.add("operation")
        elif terminal in _TERMINAL_NAMES:
            names.add(_TERMINAL_NAMES[terminal])
        elif terminal in reverse_kw:
            names.add(f"'{reverse_kw[terminal]}'")
        else:
            names.add(terminal.lower())
    ordered = sorted(names)
    if len(ordered) > 8:
        ordered = ordered[:8] + ["..."]
    return ", ".join(ordered)


def _run(lark, state: _ParseState, text: str, start: str):
    from mlc.ir.text.lalr_driver import ParseFailure

    driver = _cache.driver(lark)
    callbacks = lark.options.transformer
    previous = getattr(callbacks.local, "state", None)
    callbacks.local.state = state
    state.op_terminals = driver.op_terminals
    try:
        with gc_paused():
            return driver.parse(text, start, state)
    except LexError as exc:
        raise state.error(exc.message, exc.offset) from None
    except ParseFailure as exc:
        raise _unexpected_token(driver, state, exc) from None
    except RecursionError:
        raise state.error("input nests too deeply", 0) from None
    finally:
        callbacks.local.state = previous


class _UnknownCustomOp(Exception):
    """A custom op name the grammar does not know; its dialect may load on demand."""

    def __init__(self, op_name: str, error: DiagnosticError):
        super().__init__(op_name)
        self.op_name = op_name
        self.namespace = op_name.split(".", 1)[0]
        self.error = error


def _unexpected_token(driver, state: _ParseState, exc) -> Exception:
    tok = exc.token
    lexer = driver.lexer
    expected_terms = {t for t in exc.expected if t.isupper() or t == "$END"}
    expected = _describe_expected(expected_terms, lexer.punctuation_terminals,
                                  lexer.keyword_terminals)
    pos = tok.start_pos
    if tok.type == "$END":
        pos = max(tok.start_pos - 1, 0)
        return state.error(f"unexpected end of input, expected {expected}", pos)
    if tok.type == "BARE_ID" and any(t.startswith("OP_") for t in expected_terms):
        return _UnknownCustomOp(tok.value, state.error(
            f"custom op '{tok.value}' is unknown (is its dialect loaded?)", pos))
    return state.error(f"unexpected '{tok.value}', expected {expected}", pos)


def parse_module(text: str, ctx: Context | None = None, filename: str = "<string>",
                 source: SourceFile | None = None, base_offset: int = 0) -> Operation:
    """Parse MLIR text into a `builtin.module` (wrapping top-level ops that are not
    already a single module, as MLIR does). Raises DiagnosticError on bad input.

    `source` and `base_offset` place `text` inside a larger file (for diagnostics
    when the file is split with `// -----`)."""
    from mlc.ir.dialects.builtin import ModuleOp

    ctx = ctx or Context()
    preload_dialects(text, ctx)
    source = source or SourceFile(filename, text)
    while True:
        lark, _ = _cache.get(ctx)
        state = _ParseState(ctx, source, lark, base_offset)
        try:
            top = _run(lark, state, text, "start")
            break
        except _UnknownCustomOp as exc:
            # Its dialect is installed but not loaded: load it and parse again.
            if "." not in exc.op_name or ctx.dialects.get(exc.namespace) is not None \
                    or ctx.try_load(exc.namespace) is None:
                raise exc.error from None
    top_scope = state.scopes[0]
    if top_scope.forward:
        placeholder = min(top_scope.forward.values(), key=lambda p: p.pos)
        raise state.error("use of undeclared SSA value name", placeholder.pos)
    for target, alias, pos in state.deferred_locs:
        loc = state.attr_aliases.get(alias)
        if not isinstance(loc, Location):
            raise state.error(f"undefined location alias '{alias}'", pos)
        target.loc = loc
    ops = list(top.ops())
    if len(ops) == 1 and isinstance(ops[0], ModuleOp):
        return ops[0].detach()
    module = ModuleOp.build()
    for op in ops:
        module.body.append(op.detach())
    module.loc = FileLineColLoc(source.name, 0, 0)  # as MLIR marks the implicit module
    return module


def parse_type(text: str, ctx: Context | None = None) -> Type:
    """Parse one type, e.g. `tensor<2x?xf32>`."""
    ctx = ctx or Context()
    lark, _ = _cache.get(ctx)
    return _run(lark, _ParseState(ctx, SourceFile("<type>", text), lark), text, "type_start")


def parse_attribute(text: str, ctx: Context | None = None) -> Attribute:
    """Parse one attribute, e.g. `dense<[1, 2]> : tensor<2xi32>`."""
    ctx = ctx or Context()
    lark, _ = _cache.get(ctx)
    return _run(lark, _ParseState(ctx, SourceFile("<attribute>", text), lark), text,
                "attribute_start")


def preload_dialects(text: str, ctx: Context) -> None:
    """Load the core dialects the text mentions, so the grammar covers their custom
    forms. Other dialects load on demand: through their entry point when the parser
    meets an unknown custom op of theirs (then the parse restarts with them), or a
    generic op, type or attribute of theirs."""
    if not ctx.load_on_demand:
        return
    from mlc.ir.dialect import _CORE_DIALECTS

    for name in _CORE_DIALECTS:
        if name not in ctx.dialects and (name + ".") in text:
            ctx.load(name)


__all__ = ["parse_module", "parse_type", "parse_attribute", "simple_type", "TypeAttr"]
