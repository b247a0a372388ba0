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

import sys
import threading
from typing import Any

from mlc.ir.core.affine_map import AffineMapAttr
from mlc.ir.core.attributes import (
    FLOAT_FORMATS,
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    ComplexType,
    DenseResourceElementsAttr,
    DialectAttribute,
    DialectType,
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
    SparseElementsAttr,
    StridedLayoutAttr,
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
from mlc.ir.core.dialect_registry import Context
from mlc.ir.core.gc_pause import gc_paused
from mlc.ir.core.ir import Block, Operation, Region, Value
from mlc.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile
from mlc.ir.opdef.traits import IsolatedFromAbove, IsTerminator
from mlc.ir.text.affine_parser import AffineParseError, read_affine_attribute
from mlc.ir.text.asm_parser import Argument, AsmParser
from mlc.ir.text.format import body_parser, op_parser
from mlc.ir.text.lexer import RAW_BODY_KEYWORDS, LexError, OpTok, Tok, next_op_head
from mlc.ir.text.literals import (
    DenseLiteral,
    LiteralError,
    dense_from_literal,
    parse_dense_array,
    read_dense_literal,
    read_sparse_literal,
    read_strided_layout,
    unescape_string,
)
from mlc.ir.text.resources import parse_file_metadata

_SIMPLE_TYPES: dict[str, Type] = {
    "index": IndexType(), "none": NoneType(),
    **{name: FloatType(name) for name in FLOAT_FORMATS},
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
    if result.width >= 1 << 32:  # no longer a width MLIR's lexer reads (an unsigned)
        raise ValueError("invalid integer width")
    if result.width > MAX_INTEGER_WIDTH:
        raise ValueError(f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits")
    _SIMPLE_TYPES[text] = result
    return result



# Element types MLIR refuses (as MLIR's TensorType/BaseMemRefType::isValidElementType):
# a memref may hold memrefs and declared dialect types, not unregistered ones.
_NOT_TENSOR_ELEMENTS = (RankedTensorType, UnrankedTensorType, MemRefType, UnrankedMemRefType,
                        FunctionType, TupleType, NoneType)
_NOT_MEMREF_ELEMENTS = (RankedTensorType, UnrankedTensorType, FunctionType, TupleType, NoneType,
                        OpaqueType)

def _is_memory_space(attr: Attribute | None) -> bool:
    """Whether MLIR accepts `attr` as a memref's memory space: none, an integer, string
    or dictionary, or an attribute of a dialect other than builtin."""
    return attr is None or isinstance(attr, (IntegerAttr, StringAttr, DictionaryAttr,
                                             DialectAttribute))


class ForwardValue(Value):
    """A placeholder for a value used before its definition."""

    __slots__ = ("ref_name", "pos")

    def __init__(self, ref_name: str, pos: int):
        Value.__init__(self, None)  # type: ignore[arg-type]
        self.ref_name = ref_name
        self.pos = pos


class _Scope:
    __slots__ = ("names", "forward", "blocks", "block_refs", "region", "current", "saved_values",
                 "open_pos", "named_entry", "default_dialect")

    def __init__(self, region: Region | None, default_dialect: str | None = None):
        self.names: list[str] = []
        self.forward: dict[tuple[str, int], ForwardValue] = {}
        self.blocks: dict[str, Block] = {}
        self.block_refs: dict[str, int] = {}  # forward-referenced label -> first use offset
        self.region = region
        self.current: Block | None = None
        self.saved_values: dict | None = None
        self.open_pos = 0
        self.named_entry = False
        self.default_dialect = default_dialect


class _ParseState:
    """Mutable state of one parse."""

    def __init__(self, ctx: Context, source: SourceFile, text: str, base_offset: int = 0):
        self.ctx = ctx
        self.source = source
        self.base_offset = base_offset
        self.stream = AsmParser(text, _cache.lexer_config(), self)
        self.values: dict[str, tuple[list[Value], int]] = {}
        self.scopes: list[_Scope] = [_Scope(None, "builtin")]
        self.top_block = Block()
        self.scopes[0].current = self.top_block
        self.pending_entry_args: list[Argument] | None = None
        # What dialects' parsers remember over one parse, by dialect (the llvm
        # dialect's identified struct names and bodies, which must agree).
        self.dialect_state: dict[str, dict] = {}
        self.pending_region_class: type | None = None
        # (op name as written, default dialect) -> (op name, parse function)
        self.custom_parsers: dict[tuple[str, str | None], tuple[str, Any]] = {}
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Type] = {}
        self.deferred_locs: list[tuple[Any, str, int]] = []
        self.value_stack: list = []  # the LALR driver's, while parsing
        self.raw_args: list = []  # the unfiltered children of the rule being reduced
        self.last_region_pos = 0
        # Location of the last op made, to count lines incrementally (ops come in order).
        self._line_offset = 0
        self._line = 1
        self._line_start = 0

    # -- locations and errors ---------------------------------------------------

    def loc(self, offset: int) -> FileLineColLoc:
        offset += self.base_offset
        if offset >= self._line_offset:
            # Ops arrive in text order: count the newlines since the last one.
            text = self.source.text
            newlines = text.count("\n", self._line_offset, offset)
            if newlines:
                self._line += newlines
                self._line_start = text.rfind("\n", 0, offset) + 1
            self._line_offset = offset
            return FileLineColLoc(self.source.name, self._line, offset - self._line_start + 1)
        return self.source.loc(offset)

    def error(self, message: str, offset: int, notes=()) -> DiagnosticError:
        diag = Diagnostic("error", message, self.source.loc(offset + self.base_offset))
        for note_message, note_offset in notes:
            diag.add_note(note_message, self.source.loc(note_offset + self.base_offset)
                          if note_offset is not None else None)
        return DiagnosticError(diag)

    # -- nested parses ------------------------------------------------------------

    def sub_parse(self, p: AsmParser, start: str):
        """Parse a `start` (type, attribute, region, dictionary) from the stream's
        position with the grammar, and hand the stream back after it."""
        return _cache.driver().parse(p, start, self, prefix=True)

    def number_attribute(self, text: str, pos: int, is_float: bool, type_: Type) -> Attribute:
        """`text : type_` read without the grammar, as its rules read it."""
        callbacks = _cache.callbacks()
        if is_float:
            return callbacks.float_attr([Tok("FLOAT", text, pos), type_])
        return callbacks.int_attr([Tok("INT", text, pos), type_])

    def sub_parse_location(self, p: AsmParser, defer: bool = False):
        """`(...)` after `loc`: the location inside. With `defer`, an alias defined
        later in the file comes back as ("alias", name, offset)."""
        if not p.parse_optional_punctuation("("):
            raise p.expected("'(' in location")
        loc = _cache.driver().parse(p, "location_start", self, prefix=True)
        if not p.parse_optional_punctuation(")"):
            raise p.expected("')' in location")
        if isinstance(loc, tuple) and not defer:
            raise self.error(f"undefined symbol alias id '{loc[1][1:]}'", loc[2])
        return loc

    def parse_region_at(self, p: AsmParser, arguments, op_class) -> Region:
        self.pending_entry_args = list(arguments) if arguments else None
        self.pending_region_class = op_class
        return _cache.driver().parse(p, "region_start", self, prefix=True)

    # -- values -----------------------------------------------------------------

    def use(self, tok: Tok) -> tuple[Value, int]:
        name, _, number = tok.value.partition("#")
        return self.use_name(name, int(number) if number else 0, tok.start_pos)

    def use_name(self, name: str, index: int, pos: int) -> tuple[Value, int]:
        entry = self.values.get(name)
        if entry is not None:
            group = entry[0]
            if index >= len(group):
                raise self.error(f"reference to invalid result number {index} of '{name}'", pos)
            return group[index], pos
        scope = self.scopes[-1]
        key = (name, index)
        placeholder = scope.forward.get(key)
        if placeholder is None:
            placeholder = ForwardValue(name if not index else f"{name}#{index}", pos)
            scope.forward[key] = placeholder
        return placeholder, pos

    def resolve_operand(self, item: tuple[Value, int], type_: Type) -> Value:
        value, pos = item
        if value.type is None:
            value.type = type_
        elif value.type != type_:
            # MLIR's words for a definition too: its "prior use" is where it is defined.
            if isinstance(value, ForwardValue):
                name, prior = value.ref_name.partition("#")[0], value.pos
            else:
                name, prior = self.definition(value)
            raise self.error(f"use of value '{name}' expects different type than prior uses: "
                             f"'{type_}' vs '{value.type}'", pos, [("prior use here", prior)])
        return value

    def define_results(self, op: Operation, results: list[tuple[str, int, int]]) -> None:
        """Bind `%name` (or `%name:count`) groups to the op's results, in order."""
        for _, count, pos in results:
            if not count:
                raise self.error("expected named operation to have at least 1 result", pos)
        if not op.results:
            raise self.error("cannot name an operation with no results", results[0][2])
        total = sum(count for _, count, _ in results)
        if total != len(op.results):
            raise self.error(f"operation defines {len(op.results)} results but was provided "
                             f"{total} to bind", results[0][2])
        start = 0
        for name, count, pos in results:
            self.define(name, op.results[start:start + count], pos)
            start += count

    def definition(self, value: Value) -> tuple[str, int | None]:
        """The name a value is defined by and where (None: not by a name in scope)."""
        for name, (group, pos) in self.values.items():
            if value in group:
                return name, pos
        return "<<unknown>>", None

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
        """The class of the generic op whose region is being opened, found on the
        parser's value stack (its name string is followed by `(`)."""
        stack = self.value_stack
        for i in range(len(stack) - 1, -1, -1):
            item = stack[i]
            if getattr(item, "type", None) == "STRING" and i + 1 < len(stack) and \
                    getattr(stack[i + 1], "value", None) == "(":
                return self.ctx.get_op_class(unescape_string(item.value))
        return None

    def open_region(self) -> None:
        region = Region()
        cls = self.pending_region_class
        if cls is not None:
            self.pending_region_class = None
        else:
            cls = self.enclosing_op_class()
        default_dialect = getattr(cls, "default_dialect", None) if cls is not None else None
        scope = _Scope(region, default_dialect or self.scopes[-1].default_dialect)
        scope.open_pos = self.raw_args[0].start_pos if self.raw_args else 0
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
            for arg in args:
                if arg.type is None:
                    raise self.error(f"region argument '{arg.name}' needs a type", arg.pos)
                value = entry.add_argument(arg.type, loc=arg.loc or self.loc(arg.pos))
                self.define(arg.name, [value], arg.pos)
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
        namespace = name.split(".", 1)[0] if "." in name else name
        dialect = self.ctx.try_load(namespace)
        if dialect is None:
            if self.ctx.allow_unregistered:
                return Operation
            raise self.error("operation being parsed with an unregistered dialect. If this is "
                             "intended, please use -allow-unregistered-dialect with the MLIR "
                             "tool used", pos)
        if dialect.allows_unknown_ops:
            return Operation
        # As MLIR: --allow-unregistered-dialect does not open a registered dialect.
        raise self.error(f"unregistered operation '{name}' found in dialect ('{namespace}') that "
                         "does not allow unknown operations", pos)

    def custom_op(self, tok: OpTok) -> Operation:
        """An op in custom form: find its class (the name as written, then in the
        enclosing op's default dialect) and run its parse function."""
        found = self.custom_parsers.get((tok.value, self.scopes[-1].default_dialect))
        if found is None:
            found = self._find_custom_parser(tok)
        op_name, parse = found
        stream = self.stream
        stream.last_end = tok.name_pos + len(tok.value)
        outer = stream.op_name
        stream.op_name = op_name
        try:
            return parse(stream, tok.name_pos)
        finally:
            stream.op_name = outer

    def _find_custom_parser(self, tok: OpTok):
        name = tok.value
        ctx = self.ctx
        default = self.scopes[-1].default_dialect
        cls = ctx.get_op_class(name)
        if cls is None:
            if default is not None:
                cls = ctx.get_op_class(f"{default}.{name}")
            if cls is None and default != "builtin":
                cls = ctx.get_op_class(f"builtin.{name}")
        parse = op_parser(cls) if cls is not None else None
        if parse is None:
            if cls is not None:
                raise self.error(f"'{cls.op_def.name}' has no custom form; write it in generic "
                                 "form", tok.name_pos)
            dialect = name.split(".", 1)[0]
            if "." in name and ctx.try_load(dialect) is None:
                # Unregistered dialects have generic forms only, allowed or not.
                raise self.error(f"Dialect `{dialect}' not found for custom op '{name}'",
                                 tok.name_pos, [("Available dialects: "
                                                 + ", ".join(ctx.available_namespaces()),
                                                 tok.name_pos)])
            tried = f" (tried '{default}.{name}' as well)" if default and "." not in name else ""
            raise self.error(f"custom op '{name}' is unknown{tried}", tok.name_pos)
        found = self.custom_parsers[(name, default)] = (cls.op_def.name, parse)
        return found

    # -- attributes and types ---------------------------------------------------------

    def symbol_name(self, tok: Tok) -> str:
        text = tok.value[1:]
        return unescape_string(text) if text.startswith('"') else text

    def string_value(self, tok: Tok) -> str:
        return self.string_value_at(tok.value, tok.start_pos)

    def string_value_at(self, quoted: str, pos: int) -> str:
        try:
            return unescape_string(quoted)
        except ValueError as exc:
            raise self.error(str(exc), pos) from None

    def dialect_type(self, tok: Tok) -> Type:
        """`!dialect.name` and what follows: the dialect's type, read by its parse
        function (an opaque type for an unregistered dialect, when allowed)."""
        name = tok.value[1:]
        dialect = name.split(".", 1)[0]
        cls = self.ctx.get_type_class(name) if "." in name else None
        if cls is None:
            loaded = self.ctx.try_load(dialect)
            if loaded is not None:
                mnemonic = name.split(".", 1)[1] if "." in name else ""
                message = loaded.unknown_type_message(mnemonic)
                if message is not None:  # the dialect's words, at the mnemonic
                    raise self.error(message, tok.start_pos + len(dialect) + 2)
                raise self.error(f"dialect '{dialect}' has no type '{name}'", tok.start_pos)
            body = self.stream.take_balanced_body()
            if self.ctx.allow_unregistered:
                return OpaqueType(dialect, (tok.value + body)[1 + len(dialect):])
            raise self.error(_unregistered_dialect_message("type", tok.value + body),
                             tok.start_pos)
        return self._dialect_body(cls, tok)

    def dialect_attr(self, tok: Tok) -> Attribute:
        """`#dialect.name` and what follows (see dialect_type)."""
        name = tok.value[1:]
        dialect = name.split(".", 1)[0]
        cls = self.ctx.get_attr_class(name) if "." in name else None
        if cls is None:
            if self.ctx.try_load(dialect) is not None:
                raise self.error(f"dialect '{dialect}' has no attribute '{name}'", tok.start_pos)
            body = self.stream.take_balanced_body()
            if self.ctx.allow_unregistered:
                return OpaqueAttr(tok.value + body)
            raise self.error(_unregistered_dialect_message("attribute", tok.value + body),
                             tok.start_pos)
        return self._dialect_body(cls, tok)

    def _dialect_body(self, cls, tok: Tok):
        stream = self.stream
        stream.last_end = tok.start_pos + len(tok.value)
        outer, stream.op_name = stream.op_name, None
        try:
            return body_parser(cls)(stream)
        except (ValueError, TypeError) as exc:  # a parameter the class rejects
            raise self.error(f"invalid '{cls.name}': {exc}", tok.start_pos) from None
        finally:
            stream.op_name = outer


def _unregistered_dialect_message(kind: str, text: str) -> str:
    """MLIR's words for a dialect type or attribute (`kind`) whose dialect is unknown."""
    return (f"'{text}' {kind} created with unregistered dialect. If this is intended, "
            "please use -allow-unregistered-dialect with the MLIR tool used")


class _Callbacks:
    """lark's inline transformer: one method per rule (and a few terminals)."""

    def __init__(self):
        self.local = threading.local()

    @property
    def s(self) -> _ParseState:
        return self.local.state

    # ---------------------------------------------------------------- top level

    def start(self, children):
        return self.s.top_block

    def FILE_METADATA(self, tok):  # noqa: N802
        s = self.local.state
        parse_file_metadata(s.stream, s.ctx.resources)
        return None

    def type_start(self, children):
        return children[0]

    def attribute_start(self, children):
        return children[0]

    def location_start(self, children):
        return children[0]

    def region_start(self, children):
        return children[0]

    def dict_start(self, children):
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
            s.define_results(op, results)
        s.pending_entry_args = None
        s.current_block().append(op)
        return op

    def op_results(self, children):
        results = []
        for tok in children:
            name, _, count = tok.value.partition(":")
            results.append((name, int(count) if count else 1, tok.start_pos))
        return results

    def generic_op(self, children):
        name_tok, operands, successors, properties, regions, attrs, fn_type = children
        s = self.s
        name = s.string_value(name_tok)
        if not name:
            raise s.error("empty operation name is invalid", name_tok.start_pos)
        cls = s.op_class(name, name_tok.start_pos)
        if successors is not None:
            successors, bracket = successors
            if cls is not Operation and IsTerminator not in cls.op_def.trait_set:
                raise s.error("successors in non-terminator", bracket)
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
        # The position of the `[` comes along, for "successors in non-terminator".
        first = children[0]
        return [block for block, _ in children], self.s.stream.text.rfind("[", 0, first[1])

    def successor(self, children):
        tok = children[0]
        return self.s.block_for_label(tok.value, tok.start_pos, defining=False), tok.start_pos

    def region_list(self, children):
        return children

    def attr_dict(self, children):
        return children[0]

    def CUSTOM_OP(self, tok):  # noqa: N802
        # A run of ops in custom form is read here, one after the other, without going
        # back to the grammar between them: the grammar would only hand the next one back.
        s = self.local.state
        stream = s.stream
        block = s.current_block()
        while True:
            op = s.custom_op(tok)
            if stream.parse_optional_keyword("loc") is not None:
                loc = s.sub_parse_location(stream, defer=True)
                if isinstance(loc, tuple):
                    s.deferred_locs.append((op, loc[1], loc[2]))
                else:
                    op.loc = loc
            if tok.results:
                s.define_results(op, tok.results)
            s.pending_entry_args = None
            block.append(op)
            head = next_op_head(stream.text, stream.pos)
            if head is None:
                return None
            tok, stream.pos = head

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
            raise self.s.error(f"undefined symbol alias id '{tok.value[1:]}'", tok.start_pos) from None

    def _element_pos(self, dims: Tok | None) -> int:
        """Where the element type of a shaped type being reduced starts."""
        start = dims.start_pos + len(dims.value) if dims is not None else self.s.raw_args[1].start_pos + 1
        text = self.s.stream.text
        while start < len(text) and text[start] in " \t\r\n":
            start += 1
        return start

    def _check_element(self, element: Type, dims: Tok | None, invalid: tuple, what: str) -> None:
        if isinstance(element, invalid):
            raise self.s.error(f"invalid {what} element type", self._element_pos(dims))

    def tensor_type(self, children):
        dims, element, encoding = children
        self._check_element(element, dims, _NOT_TENSOR_ELEMENTS, "tensor")
        if dims is not None and dims.value.startswith("*"):
            if encoding is not None:
                raise self.s.error("unranked tensors have no encoding", dims.start_pos)
            return UnrankedTensorType(element)
        return RankedTensorType(self._shape(dims), element, encoding)

    def memref_type(self, children):
        dims, element, *extra = children
        self._check_element(element, dims, _NOT_MEMREF_ELEMENTS, "memref")
        unranked = dims is not None and dims.value.startswith("*")
        # MLIR's reading: each attribute after the element type is a layout if it is
        # one, else the memory space, which must come last and only once. Errors are at
        # the token after the offending attribute, as MLIR reports them.
        layout = space = None
        for attr, after in extra:
            if not isinstance(attr, (AffineMapAttr, StridedLayoutAttr)):
                if space is not None:
                    raise self.s.error("multiple memory spaces specified in memref type", after)
                space = attr
                continue
            layout = attr
            if unranked:
                raise self.s.error("cannot have affine map for unranked memref type", after)
            if space is not None:
                raise self.s.error("expected memory space to be last in memref type", after)
        if not _is_memory_space(space):
            raise self.s.error("unsupported memory space Attribute", self.s.raw_args[0].start_pos)
        if unranked:
            return UnrankedMemRefType(element, space)
        shape = self._shape(dims)
        if isinstance(layout, AffineMapAttr):
            if layout.value.num_dims != len(shape):
                raise self.s.error(f"memref layout mismatch between rank and affine map: "
                                   f"{len(shape)} != {layout.value.num_dims}", self.s.raw_args[0].start_pos)
            if layout.value.is_identity():
                layout = None  # MLIR normalises an identity layout away
        elif isinstance(layout, StridedLayoutAttr):
            if len(layout.strides) != len(shape):
                raise self.s.error("expected the number of strides to match the rank",
                                   self.s.raw_args[0].start_pos)
        return MemRefType(shape, element, layout, space)

    @staticmethod
    def _dim_texts(dims: Tok | None) -> list[str]:
        """The dimensions of a DIMS token (`4x?x[8]x`, spaces allowed around `x`)."""
        return [d.strip() for d in dims.value.split("x")[:-1]] if dims is not None else []

    def _shape(self, dims: Tok | None) -> tuple[int, ...]:
        shape = []
        for d in self._dim_texts(dims):
            if d == "?":
                shape.append(-1)
                continue
            size = int(d.strip("[]"))
            if size >= 1 << 63:
                raise self.s.error("invalid dimension", dims.start_pos)
            shape.append(size)
        return tuple(shape)

    def memref_extra(self, children):
        # With where the next token starts (the attribute's last token was the last shifted).
        stream = self.s.stream
        return children[0], stream.next_token_start(stream.last_end)

    def vector_type(self, children):
        dims, element = children
        if not isinstance(element, (IntegerType, IndexType, FloatType, DialectType)):
            raise self.s.error("failed to verify 'elementType': VectorElementTypeInterface instance",
                               self.s.raw_args[0].start_pos)
        shape = self._shape(dims)
        scalable = tuple(d.startswith("[") for d in self._dim_texts(dims))
        if dims is not None and dims.value.startswith("*"):
            raise self.s.error("vector types must have a known rank", dims.start_pos)
        if any(d <= 0 for d in shape):
            raise self.s.error("vector types must have positive constant sizes but got "
                               + ", ".join(str(d) for d in shape), self.s.raw_args[0].start_pos)
        return VectorType(shape, element, scalable if any(scalable) else ())

    def tuple_type(self, children):
        return TupleType(tuple(children[0] or ()))

    def complex_type(self, children):
        if not isinstance(children[0], (IntegerType, FloatType)):
            raise self.s.error("invalid element type for complex", self._element_pos(None))
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
            if value < 0:  # a hex float is a bit pattern
                raise self.s.error("hexadecimal float literal should not have a leading minus",
                                   tok.start_pos)
            if value.bit_length() > type_.width:
                raise self.s.error("hexadecimal float constant out of range for type",
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
        return StringAttr(self.s.string_value(tok), None if isinstance(type_, NoneType) else type_)

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
        for name, value, pos in children:
            if name in entries:
                raise self.s.error(f"duplicate key '{name}' in dictionary attribute", pos)
            entries[name] = value
        return DictionaryAttr(tuple(sorted(entries.items(), key=lambda kv: kv[0])))

    def dict_entry(self, children):
        key, value = children
        name = self.s.string_value(key) if key.type == "STRING" else key.value
        if not name:
            raise self.s.error("expected valid attribute name", key.start_pos)
        return name, value if value is not None else unit, key.start_pos

    def symbol_ref(self, children):
        names = [self.s.symbol_name(tok) for tok in children]
        return SymbolRefAttr(names[0], tuple(names[1:]))

    def _read_body(self, read, tok: Tok):
        """What `read(text, offset of the keyword)` reads of the body after the keyword
        token `tok`, from the stream, which then goes on after it."""
        stream = self.local.state.stream
        try:
            value, end = read(stream.text, tok.start_pos)
        except (LiteralError, AffineParseError) as exc:
            raise self._literal_error(exc, tok.start_pos) from None
        stream.pos = stream.last_end = end
        return value

    def DENSE(self, tok):  # noqa: N802
        # The token is the keyword: the literal is read here; its type comes after it.
        return self._read_body(read_dense_literal, tok)

    def SPARSE(self, tok):  # noqa: N802
        # As DENSE: the two literals are read here, their type comes after them.
        return tok.start_pos, self._read_body(read_sparse_literal, tok)

    def sparse_attr(self, children):
        (pos, literals), type_ = children
        if not isinstance(type_, ShapedType):
            raise self.s.error("elements literal must be a shaped type", pos)
        rank = len(type_.shape)
        try:
            if literals is None:
                indices = dense_from_literal(DenseLiteral(pos), RankedTensorType((0, rank), i64))
                values = dense_from_literal(DenseLiteral(pos),
                                            RankedTensorType((0,), type_.element_type))
            else:
                # A splat of indices is one index; a splat of values, one per index.
                index_literal, value_literal = literals
                index_shape = index_literal.shape if index_literal.shape is not None \
                    else (1, rank)
                indices = dense_from_literal(index_literal, RankedTensorType(index_shape, i64))
                value_shape = value_literal.shape if value_literal.shape is not None \
                    else (index_shape[0],)
                values = dense_from_literal(value_literal,
                                            RankedTensorType(value_shape, type_.element_type))
        except ValueError as exc:
            raise self._literal_error(exc, pos) from None
        attr = SparseElementsAttr(type_, indices, values)
        problem = attr.verify()
        if problem is not None:
            raise self.s.error(problem, pos)
        return attr

    def dense_attr(self, children):
        literal, type_ = children
        try:
            return dense_from_literal(literal, type_)
        except ValueError as exc:
            raise self._literal_error(exc, literal.offset) from None

    def _literal_error(self, exc: ValueError, default: int) -> DiagnosticError:
        """A literal's error at its offset (`default` when it has none), with its notes."""
        offset = getattr(exc, "offset", None)
        pos = default if offset is None else offset
        return self.s.error(str(exc), pos, [(note, pos) for note in getattr(exc, "notes", ())])

    def dense_resource_attr(self, children):
        tok, type_ = children
        if not isinstance(type_, ShapedType):
            raise self.s.error("`dense_resource` expected a shaped type", tok.start_pos)
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
        # The token is the keyword: the body is read here, from the stream.
        return self._read_body(read_strided_layout if tok.value == "strided"
                               else read_affine_attribute, tok)

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
        name, line, col, (end_line, end_col) = children[:3] + [children[3] or (None, None)]
        for what, tok in (("line", line), ("column", col), ("line", end_line), ("column", end_col)):
            if tok is not None and tok.value.startswith("-"):
                raise self.s.error(f"expected integer {what} number in FileLineColRange",
                                   tok.start_pos)
        return FileLineColLoc(self.s.string_value(name), int(line.value),
                              int(col.value) if col is not None else 0,
                              int(end_line.value) if end_line is not None else None,
                              int(end_col.value) if end_col is not None else None)

    def file_range_end(self, children):
        return children[0], children[1]

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
        if loc is None:
            return ("alias", tok.value, tok.start_pos)  # defined later in the file
        if not isinstance(loc, Location):
            raise self.s.error(f"expected location, but found '{loc}'", tok.start_pos)
        return loc






class _ParserCache:
    """The grammar's lark parser and its driver, built (or loaded from the on-disk
    table cache) once per process, when the first text is parsed."""

    def __init__(self):
        self._driver = None
        self._callbacks: _Callbacks | None = None
        self._config = None
        self.lock = threading.Lock()

    def _build(self) -> None:
        from mlc.ir.text.grammar import load_tables
        from mlc.ir.text.lalr_driver import LALRDriver

        with self.lock:
            if self._driver is not None:
                return
            callbacks = _Callbacks()
            tables = load_tables(_Callbacks)
            self._config = tables.lexer_config()
            self._callbacks = callbacks
            # The items of a block attach themselves to it as they are reduced.
            self._driver = LALRDriver(tables, callbacks,
                                      {"region_items": _no_value, "toplevel_items": _no_value})

    def driver(self):
        if self._driver is None:
            self._build()
        return self._driver

    def callbacks(self) -> _Callbacks:
        if self._callbacks is None:
            self._build()
        return self._callbacks

    def lexer_config(self):
        if self._config is None:
            self._build()
        return self._config


def _no_value(children) -> None:
    return None


_cache = _ParserCache()


_TERMINAL_NAMES = {
    "VALUE_ID": "SSA value", "VALUE_USE": "SSA value", "CARET_ID": "block label",
    "SYMBOL": "symbol", "STRING": "string", "INT": "integer", "FLOAT": "float",
    "HEX": "hexadecimal integer", "BARE_ID": "identifier", "SIMPLE_TYPE": "type",
    "DIMS": "dimension list", "$END": "end of input", "DIALECT_TYPE": "dialect type",
    "DIALECT_ATTR": "dialect attribute", "CUSTOM_OP": "operation",
    "ATTR_ALIAS": "attribute alias", "TYPE_ALIAS": "type alias",
    "FILE_METADATA": "file metadata", "DENSE": "dense elements", "DENSE_ARRAY": "array",
    "DENSE_RESOURCE": "dense resource", "OPAQUE_BUILTIN": "attribute",
    "SPARSE": "sparse elements",
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


_NESTED_PARSE_LIMIT = 400_000


def _run(state: _ParseState, start: str):
    from mlc.ir.text.lalr_driver import ParseFailure

    driver = _cache.driver()
    callbacks = _cache.callbacks()
    previous = getattr(callbacks.local, "state", None)
    callbacks.local.state = state
    # The grammar's own nesting needs no recursion, but each region of an op in custom
    # form is a nested parse (a few Python frames per level, no C stack in CPython 3.11+).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _NESTED_PARSE_LIMIT))
    try:
        with gc_paused():
            return driver.parse(state.stream, start, state)
    except LexError as exc:
        raise state.error(exc.message, exc.offset) from None
    except ParseFailure as exc:
        raise _unexpected_token(state, exc) from None
    except RecursionError:
        raise state.error("input nests too deeply", state.stream.pos) from None
    finally:
        sys.setrecursionlimit(limit)
        callbacks.local.state = previous


# What MLIR's recursive-descent parser says where the generic syntax stops, by the LR
# items of the state the parse failed in: (rule, the last symbols before the dot or "*"
# for any, the symbol after it, message). The first entry an item of the state matches
# wins, so a construct's parts MLIR tries first (an attribute, which may be a type; a
# type; a location) come first. Symbols are rule names, declared terminals, or literal
# text.
_MLIR_EXPECTATIONS = (
    ("op_results", "*", "=", "expected '=' after SSA name"),
    ("op_results", ",", "VALUE_ID", "expected valid ssa identifier"),
    ("*", "*", "attribute", "expected attribute value"),
    ("*", "*", "type", "expected non-function type"),
    ("*", "*", "type_list", "expected non-function type"),
    ("*", "*", "_non_function_type", "expected non-function type"),
    ("*", "*", "_loc_inner", "expected location instance"),
    ("file_loc", "STRING :", "INT", "expected integer line number in FileLineColRange"),
    ("file_loc", "INT :", "INT", "expected integer column number in FileLineColRange"),
    ("file_range_end", "to", "INT", "expected either integer or `:` post `to` in "
     "FileLineColRange"),
    ("file_range_end", ":", "INT", "expected integer column number in FileLineColRange"),
    ("generic_op", "STRING", "(", "expected '(' to start operand list"),
    ("value_use_list", ",", "VALUE_USE", "expected SSA operand"),
    ("generic_op", "*", ")", "expected ')' to end operand list"),
    ("successors", "*", "successor", "expected block name"),
    ("successors", "*", "]", "expected ',' or ']'"),
    ("properties", "*", ">", "expected '>' to close properties"),
    ("region_list", "*", ")", "expected ')' to end region list"),
    ("generic_op", "*", ":", "expected ':' followed by operation type"),
    ("generic_op", ":", "function_type", "expected function type"),
    ("block_label", "*", ":", "expected ':' after block name"),
    ("block_args", "*", "block_arg", "expected SSA operand"),
    ("block_arg", "VALUE_ID", ":", "expected ':' and type for SSA operand"),
    ("block_args", "*", ")", "expected ')'"),
    ("function_type", "*", ")", "expected ')'"),
    ("function_type", ")", "->", "expected '->' in function type"),
    ("function_results", "*", ")", "expected ')'"),
    ("tensor_type", "tensor", "<", "expected '<' in tensor type"),
    ("tensor_type", "*", ">", "expected '>' in tensor type"),
    ("memref_type", "memref", "<", "expected '<' in memref type"),
    ("memref_type", "*", ">", "expected ',' or '>' in memref type"),
    ("vector_type", "vector", "<", "expected '<' in vector type"),
    ("vector_type", "*", ">", "expected '>' in vector type"),
    ("complex_type", "complex", "<", "expected '<' in complex type"),
    ("complex_type", "*", ">", "expected '>' in complex type"),
    ("tuple_type", "tuple", "<", "expected '<' in tuple type"),
    ("tuple_type", "*", ">", "expected '>' in tuple type"),
    ("array_attr", "*", "]", "expected ',' or ']'"),
    ("dictionary_attr", "*", "dict_entry", "expected attribute name"),
    ("dictionary_attr", "*", "}", "expected '}' in attribute dictionary"),
    ("symbol_ref", "::", "SYMBOL", "expected nested symbol reference identifier"),
    ("trailing_loc", "loc", "(", "expected '(' in location"),
    ("loc_attr", "loc", "(", "expected '(' in location"),
    ("trailing_loc", "*", ")", "expected ')' in location"),
    ("loc_attr", "*", ")", "expected ')' in location"),
    ("name_loc", "*", ")", "expected ')' after child location of NameLoc"),
    ("callsite_loc", "callsite", "(", "expected '(' in callsite location"),
    ("callsite_loc", "*", "at", "expected 'at' in callsite location"),
    ("callsite_loc", "*", ")", "expected ')' in callsite location"),
    ("fused_metadata", "*", ">", "expected '>' after fused location metadata"),
    ("fused_loc", "*", "[", "expected '[' in fused location"),
    ("fused_loc", "*", "]", "expected ']' in fused location"),
    ("alias_def", "ATTR_ALIAS", "=", "expected '=' in attribute alias definition"),
    ("alias_def", "TYPE_ALIAS", "=", "expected '=' in type alias definition"),
)


_BODY_KEYWORDS = frozenset(RAW_BODY_KEYWORDS)


def _mlir_expectation(items, tok) -> str | None:
    """MLIR's message for a parse that fails on `tok` in a state with LR `items`."""
    for rule, before, after, message in _MLIR_EXPECTATIONS:
        for item_rule, item_before, item_after in items:
            if after == item_after and rule in ("*", item_rule) and (
                    before in ("*", item_before) or item_before.endswith(" " + before)):
                if message == "expected '=' after SSA name" and tok.value == ":":
                    return "expected integer number of results"  # `%0:` without a count
                return message
    return None


def _unexpected_token(state: _ParseState, exc) -> Exception:
    tok = exc.token
    stream = state.stream
    if "FILE_METADATA" in exc.expected and tok.type in ("DIALECT_TYPE", "DIALECT_ATTR") \
            and "." in tok.value:
        # A top-level `!a.b = ...`: an alias may not take a dialect's name.
        what = "type" if tok.type == "DIALECT_TYPE" else "attribute"
        return state.error(f"{what} names with a '.' are reserved for dialect-defined names",
                           tok.start_pos)
    message = _mlir_expectation(_cache.driver().items.get(exc.state, ()), tok)
    if message == "expected attribute value" and tok.value in _BODY_KEYWORDS:
        message = f"expected '<' after '{tok.value}'"  # a builtin attribute without its body
    if message is None and "CUSTOM_OP" in exc.expected:
        message = "expected operation name in quotes"  # where an op may start
    if message is not None:
        return state.error(message, stream.error_pos_before(tok.start_pos))
    config = state.stream.config
    expected_terms = {t for t in exc.expected if t.isupper() or t == "$END"}
    expected = _describe_expected(expected_terms, config.punctuation_terminals,
                                  config.keyword_terminals)
    if tok.type == "$END":
        return state.error(f"unexpected end of input, expected {expected}",
                           stream.error_pos_before(tok.start_pos))
    pos = tok.start_pos
    if "\n" in stream.text[stream.last_end:pos]:
        # As MLIR reports it: what is missing belongs at the end of the previous line.
        pos = stream.error_pos_before(pos)
    return state.error(f"unexpected '{tok.value}', expected {expected}", pos)


def parse_module(text: str, ctx: Context | None = None, filename: str = "<string>",
                 source: SourceFile | None = None, base_offset: int = 0, *,
                 implicit_module: bool = True) -> Operation:
    """Parse MLIR text into a `builtin.module` (wrapping top-level ops that are not
    already a single module, as MLIR does). Raises DiagnosticError on bad input.

    `source` and `base_offset` place `text` inside a larger file (for diagnostics
    when the file is split with `// -----`). With `implicit_module=False` (MLIR's
    `--no-implicit-module`) nothing is wrapped: the input must hold one top-level
    op, which is returned whatever it is."""
    from mlc.ir.dialects.builtin import ModuleOp

    ctx = ctx or Context()
    source = source or SourceFile(filename, text)
    state = _ParseState(ctx, source, text, base_offset)
    top = _run(state, "start")
    top_scope = state.scopes[0]
    if top_scope.forward:
        placeholder = min(top_scope.forward.values(), key=lambda p: p.pos)
        raise state.error("use of undeclared SSA value name", placeholder.pos)
    for target, alias, pos in state.deferred_locs:
        loc = state.attr_aliases.get(alias)
        if loc is None:
            raise state.error("operation location alias was never defined", pos)
        if not isinstance(loc, Location):
            raise state.error(f"expected location, but found '{loc}'", pos)
        target.loc = loc
    ops = list(top.ops())
    if len(ops) == 1 and (isinstance(ops[0], ModuleOp) or not implicit_module):
        return ops[0].detach()
    if not implicit_module:
        raise state.error(f"source must contain a single top-level operation, found: "
                          f"{len(ops)}", 0)
    module = ModuleOp.build()
    for op in ops:
        module.body.append(op.detach())
    # As MLIR marks the implicit module: the start of the input, or of the chunk of a
    # split input (right after its `// -----` line, on that line).
    if base_offset > 0:
        module.loc = source.loc(base_offset - (2 if source.text[base_offset - 2:base_offset] == "\r\n" else 1))
    else:
        module.loc = FileLineColLoc(source.name, 0, 0)
    return module


def parse_type(text: str, ctx: Context | None = None) -> Type:
    """Parse one type, e.g. `tensor<2x?xf32>`."""
    return _run(_ParseState(ctx or Context(), SourceFile("<type>", text), text), "type_start")


def parse_attribute(text: str, ctx: Context | None = None) -> Attribute:
    """Parse one attribute, e.g. `dense<[1, 2]> : tensor<2xi32>`."""
    return _run(_ParseState(ctx or Context(), SourceFile("<attribute>", text), text),
                "attribute_start")


__all__ = ["parse_module", "parse_type", "parse_attribute", "simple_type", "TypeAttr"]
