"""A dialect written as a new author would write it, in this file and nothing else:
declared types and attributes, an op whose format uses a directive of the dialect's
own, and an op that parses and prints itself (a `for` that binds its induction
variable) — all through the parser/printer API mlc's own dialects use."""

from __future__ import annotations

import enum

import pytest

from mlc.ir import (
    Context,
    DiagnosticError,
    Dialect,
    DialectAttribute,
    DialectType,
    IndexType,
    IntegerType,
    Op,
    OperandDef,
    PrintOptions,
    RegionDef,
    ResultDef,
    Type,
    parse_attribute,
    parse_module,
    parse_type,
    print_op,
    verify,
)
from mlc.ir.opdef.directive import Directive
from mlc.ir.opdef.traits import IsTerminator, SingleBlock
from mlc.ir.text import AsmParser, Printer

tst = Dialect("tst", "A dialect declared in a test file.")


# ------------------------------------------------------------- types, attributes


@tst.type
class PtrType(DialectType):
    """An opaque pointer: `!tst.ptr`."""

    name = "tst.ptr"


@tst.type
class StructType(DialectType):
    """A struct of element types: `!tst.struct<(i32, !tst.ptr)>`."""

    name = "tst.struct"
    fields: tuple[Type, ...]
    assembly_format = "`<` `(` $fields `)` `>`"


@tst.type
class ArrayType(DialectType):
    """A fixed-size array: `!tst.array<4 x f32>`."""

    name = "tst.array"
    size: int
    element: Type
    assembly_format = "`<` $size `x` $element `>`"


class Kind(enum.Enum):
    FAST = "fast"
    PRECISE = "precise"


@tst.attribute
class KindAttr(DialectAttribute):
    """How to compute: `#tst.kind<fast>`, with an optional note."""

    name = "tst.kind"
    kind: Kind
    note: str | None = None
    assembly_format = "`<` $kind (`,` $note^)? `>`"


TYPES = ["!tst.ptr", "!tst.struct<(i32, !tst.ptr)>", "!tst.struct<()>",
         "!tst.struct<(!tst.struct<(f32)>, tensor<2x!tst.ptr>)>", "!tst.array<4 x f32>",
         "!tst.array<0 x !tst.array<2 x i1>>"]


@pytest.mark.parametrize("text", TYPES)
def test_declared_types_round_trip(text):
    ctx = Context([tst])
    parsed = parse_type(text, ctx)
    assert str(parsed) == text
    assert parse_type(str(parsed), ctx) == parsed


def test_declared_types_are_frozen_dataclasses_of_their_parameters():
    struct = parse_type("!tst.struct<(i32, !tst.ptr)>", Context([tst]))
    assert struct == StructType((IntegerType(32), PtrType()))
    assert hash(struct) == hash(StructType((IntegerType(32), PtrType())))
    assert ArrayType(4, IndexType()).element == IndexType()
    with pytest.raises(AttributeError):
        struct.fields = ()  # type: ignore[misc]


def test_declared_enum_attribute_round_trips():
    ctx = Context([tst])
    assert parse_attribute("#tst.kind<fast>", ctx) == KindAttr(Kind.FAST)
    assert str(KindAttr(Kind.PRECISE, "why")) == '#tst.kind<precise, "why">'
    assert parse_attribute('#tst.kind<precise, "why">', ctx) == KindAttr(Kind.PRECISE, "why")


def test_types_and_attributes_round_trip_in_custom_and_generic_form():
    # (The op is of an unregistered dialect: a registered one refuses ops it lacks.)
    text = ('func.func @f(%p: !tst.ptr, %s: !tst.struct<(i32, !tst.ptr)>) -> !tst.array<4 x f32>'
            ' attributes {k = #tst.kind<fast>} {\n'
            '  %0 = "other.make"(%p, %s) : (!tst.ptr, !tst.struct<(i32, !tst.ptr)>) '
            '-> !tst.array<4 x f32>\n'
            '  return %0 : !tst.array<4 x f32>\n}\n')
    module = parse_module(text, Context([tst], allow_unregistered=True))
    custom = print_op(module)
    generic = print_op(module, PrintOptions(generic=True))
    for printed in (custom, generic):
        again = parse_module(printed, Context([tst], allow_unregistered=True))
        assert print_op(again) == custom
        assert print_op(again, PrintOptions(generic=True)) == generic
    assert "!tst.struct<(i32, !tst.ptr)>" in generic and "#tst.kind<fast>" in generic


@pytest.mark.parametrize("text, message, column", [
    ("!tst.array<4 f32>", "expected 'x'", 13),
    ("!tst.struct<(i32, )>", "expected non-function type", 18),
    ("!tst.struct<i32>", "expected '('", 13),
    ("!tst.array<x x f32>", "expected integer value", 12),
    ("!tst.nope", "dialect 'tst' has no type 'tst.nope'", 1),
])
def test_declared_type_errors_are_located(text, message, column):
    with pytest.raises(DiagnosticError) as info:
        parse_type(text, Context([tst]))
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.loc.column == column


def test_declared_enum_errors_are_located():
    with pytest.raises(DiagnosticError, match="expected Kind to be one of: fast, precise") as info:
        parse_attribute("#tst.kind<slow>", Context([tst]))
    assert info.value.diagnostics[0].loc.column == 11


# -------------------------------------------- an op with the dialect's own directive


class SwappedTypes(Directive):
    """`: result_type from operand_type` — the two types in the other order."""

    name = "SwappedTypes"

    def parse(self, p: AsmParser):
        result = p.parse_type()
        p.parse_keyword("from")
        return p.parse_type(), result

    def print(self, w: Printer, op, operand_type, result_type) -> None:
        w.type(result_type)
        w.write(" from ")
        w.type(operand_type)


tst.directive(SwappedTypes())


@tst.op
class ConvertOp(Op):
    """Converts a value: `tst.convert %x : f32 from i32`."""

    name = "tst.convert"
    input = OperandDef()
    output = ResultDef()
    assembly_format = "$input attr-dict `:` custom<SwappedTypes>(type($input), type($output))"


def test_dialect_directive_parses_and_prints():
    text = ("func.func @f(%x: i32) -> f32 {\n"
            "  %0 = tst.convert %x : f32 from i32\n"
            "  return %0 : f32\n}\n")
    module = parse_module(text, Context([tst]))
    convert = next(op for op in module.walk() if isinstance(op, ConvertOp))
    assert convert.input.type == IntegerType(32) and str(convert.output.type) == "f32"
    printed = print_op(module)
    assert "%0 = tst.convert %x : f32 from i32" in printed
    assert print_op(parse_module(printed, Context([tst]))) == printed


@tst.op
class SplitOp(Op):
    """Results in groups: `%head, %rest:2 = tst.split %x : ...`."""

    name = "tst.split"
    input = OperandDef()
    head = ResultDef()
    rest = ResultDef(variadic=True)
    assembly_format = "$input attr-dict `:` type($input) `->` type($head) `,` type($rest)"


def test_results_are_named_as_declared_unless_the_input_names_them():
    # MLIR's printer names the results of an op with several result groups by the
    # groups' declared names (a variadic group as `%name:count`); names given in the
    # input are kept, one by one or grouped as given; the generic form numbers them.
    text = ("func.func @f(%x: i32) -> (i32, i32, i32, i32) {\n"
            "  %0:3 = tst.split %x : i32 -> i32, i32, i32\n"
            "  %1:2 = tst.split %x : i32 -> i32, i32\n"
            "  %a, %b:2 = tst.split %x : i32 -> i32, i32, i32\n"
            "  return %0#2, %1#1, %b#1, %a : i32, i32, i32, i32\n}\n")
    printed = print_op(parse_module(text, Context([tst])))
    assert "  %head, %rest:2 = tst.split %x : i32 -> i32, i32, i32\n" in printed
    assert "  %head_0, %rest_1 = tst.split %x : i32 -> i32, i32\n" in printed
    assert "  %a, %b:2 = tst.split %x : i32 -> i32, i32, i32\n" in printed
    assert "return %rest#1, %rest_1, %b#1, %a : i32, i32, i32, i32" in printed
    assert print_op(parse_module(printed, Context([tst]))) == printed
    generic = print_op(parse_module(text, Context([tst])), PrintOptions(generic=True))
    assert '%0:3 = "tst.split"(%x)' in generic and '%1:2 = "tst.split"(%x)' in generic


def test_a_directive_of_another_dialect_is_not_visible():
    other = Dialect("other", "")

    with pytest.raises(Exception, match="unknown custom directive 'SwappedTypes'"):
        @other.op
        class UsesForeign(Op):
            name = "other.uses"
            input = OperandDef()
            assembly_format = "$input attr-dict `:` custom<SwappedTypes>(type($input), type($input))"

        from mlc.ir.text.format import op_parser

        op_parser(UsesForeign)


# ------------------------------------------------- an op that parses itself by hand


@tst.op
class ForOp(Op):
    """A counted loop whose header binds its induction variable:
    `tst.for %i = %lb to %ub step %s { ... }` (all `index`)."""

    name = "tst.for"
    lower = OperandDef(IndexType())
    upper = OperandDef(IndexType())
    step = OperandDef(IndexType())
    body = RegionDef(single_block=True)
    traits = (SingleBlock,)

    @classmethod
    def parse(cls, p: AsmParser) -> ForOp:
        """`tst.for %i = %lb to %ub step %s [attributes {...}] { body }`"""
        iv = p.parse_argument()
        iv.type = IndexType()
        p.parse_punctuation("=")
        lower = p.parse_operand()
        p.parse_keyword("to")
        upper = p.parse_operand()
        p.parse_keyword("step")
        step = p.parse_operand()
        attrs = p.parse_optional_attr_dict_with_keyword()
        body = p.parse_region([iv], cls)
        index = IndexType()
        operands = p.resolve_operands([lower, upper, step], [index] * 3)
        return cls.create(operands, (), attrs, [body])  # type: ignore[return-value]

    def print(self, w: Printer) -> None:
        w.write(" ")
        w.value(self.body.blocks[0].args[0])
        w.write(" = ")
        w.value(self.lower)
        w.write(" to ")
        w.value(self.upper)
        w.write(" step ")
        w.value(self.step)
        w.attr_dict(self, frozenset(), keyword=True)
        w.write(" ")
        w.region(self.body, print_entry_args=False)


@tst.op
class YieldOp(Op):
    """Ends a loop body."""

    name = "tst.yield"
    traits = (IsTerminator,)
    assembly_format = "attr-dict"


LOOPS = """func.func @f(%lb: index, %ub: index, %n: i32) {
  tst.for %i = %lb to %ub step %lb {
    tst.for %j = %i to %ub step %lb attributes {unroll = 2 : i64} {
      %0 = arith.addi %i, %j : index
      tst.yield
    }
    tst.yield
  }
  return
}
"""


def test_hand_written_op_binds_its_induction_variable():
    module = parse_module(LOOPS, Context([tst]))
    verify(module)
    loops = [op for op in module.walk() if isinstance(op, ForOp)]
    assert len(loops) == 2
    outer, inner = loops
    assert inner.lower is outer.body.blocks[0].args[0]
    add = next(op for op in module.walk() if op.name == "arith.addi")
    assert add.operands == [outer.body.blocks[0].args[0], inner.body.blocks[0].args[0]]
    assert inner.attributes["unroll"].value == 2
    printed = print_op(module)
    assert "tst.for %i = %lb to %ub step %lb {" in printed
    assert "tst.for %j = %i to %ub step %lb attributes {unroll = 2 : i64} {" in printed
    assert print_op(parse_module(printed, Context([tst]))) == printed
    generic = print_op(module, PrintOptions(generic=True))
    assert print_op(parse_module(generic, Context([tst]))) == printed


def test_induction_variable_is_scoped_to_the_body():
    text = LOOPS.replace("  return\n", "  %x = arith.addi %i, %i : index\n  return\n")
    with pytest.raises(DiagnosticError, match="use of undeclared SSA value name"):
        parse_module(text, Context([tst]))


@pytest.mark.parametrize("bad, message, line, column", [
    ("tst.for %i = %lb %ub step %lb {", "expected 'to'", 2, 19),
    ("tst.for %i = %lb to %ub step %lb\n", "expected '{' to begin a region", 2, 35),
    ("tst.for %i#1 = %lb to %ub step %lb {", "expected identifier without '#'", 2, 11),
    ("tst.for %i = %n to %ub step %lb {",
     "use of value '%n' expects different type than prior uses: 'index' vs 'i32'", 2, 16),
])
def test_hand_written_parse_errors_are_located(bad, message, line, column):
    text = LOOPS.replace("tst.for %i = %lb to %ub step %lb {", bad, 1)
    with pytest.raises(DiagnosticError) as info:
        parse_module(text, Context([tst]))
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert (diag.loc.line, diag.loc.column) == (line, column)


def test_an_op_with_both_a_format_and_parse_is_refused():
    with pytest.raises(TypeError, match="both an assembly_format and parse/print"):
        class Both(Op):
            name = "tst.both"
            assembly_format = "attr-dict"

            @classmethod
            def parse(cls, p):
                raise NotImplementedError

            def print(self, w):
                raise NotImplementedError


def test_the_dialect_guide_example_runs_as_written(capsys):
    """The complete dialect in packages/ir-core/README.md parses, verifies and prints."""
    import pathlib
    import re

    guide = pathlib.Path(__file__).resolve().parents[2] / "packages/ir-core/README.md"
    program = re.search(r"```python\n(.*?)```", guide.read_text(), re.S).group(1)
    exec(compile(program, str(guide), "exec"), {})  # noqa: S102 - our own documentation
    printed = capsys.readouterr().out
    assert "%b = toy.box %x rounding<up> : f32 -> !toy.box<f32>" in printed


def test_every_installed_op_with_a_custom_form_compiles_to_parse_and_print_functions():
    """No op falls back to an interpreted path: each format is generated code."""
    from mlc.ir.text.format import op_parser, op_printer

    ctx = Context()
    ctx.load_all_available()
    checked = 0
    for cls in ctx.op_classes.values():
        if not cls.op_def.has_custom_form:
            continue
        parse, print_ = op_parser(cls), op_printer(cls)
        assert callable(parse) and callable(print_), cls.op_def.name
        if cls.op_def.assembly_format is not None:
            generated = getattr(parse, "source", None) or parse.__wrapped__.source
            assert "def parse(p, pos)" in generated
            assert "def print_custom(op, p)" in print_.source
        checked += 1
    assert checked > 80  # builtin, func, arith, graph, test


@pytest.mark.parametrize("fmt, message", [
    ("$input", "'attr-dict' directive not found"),
    ("$input attr-dict attr-dict", "'attr-dict' appears more than once"),
    ("$input attr-dict custom<Nope>()", "unknown custom directive 'Nope'"),
    ("$nope attr-dict", "no operand, result, attribute, region, successor or parameter named"),
    ("attr-dict", "the type of operand 'input' is neither written by the format nor implied"),
    ("($input)? attr-dict : type($input)", "optional group without anchor"),
])
def test_format_mistakes_are_reported_when_compiled(fmt, message):
    from mlc.ir.text import FormatError
    from mlc.ir.text.format import op_parser

    bad = Dialect("bad", "")

    @bad.op
    class BadOp(Op):
        name = "bad.op"
        input = OperandDef()
        assembly_format = fmt

    with pytest.raises(FormatError, match=message):
        op_parser(BadOp)
