"""Dialect conversion: targets, type converters (1:1, 1:N), conversion patterns with
converted operands, materialisations, partial vs full conversion, and rollback."""

import pytest

from mlc.ir import (
    Context,
    FunctionType,
    IntegerAttr,
    TupleType,
    f32,
    i32,
    i64,
    parse_module,
    print_op,
    verify,
)
from mlc.ir.core.dialect_registry import UnknownOpError
from mlc.ir.core.ir import IRError, Operation
from mlc.ir.dialects.arith import AddFOp, SubFOp
from mlc.ir.dialects.arith.casts import ExtSIOp, TruncIOp
from mlc.ir.dialects.builtin import UnrealizedConversionCastOp
from mlc.ir.opdef.constraints import AnyAttr
from mlc.ir.opdef.declare import AttrDef, Op, OperandDef
from mlc.ir.passes.manager import run_pipeline
from mlc.ir.rewrite.adaptor import OpAdaptor, adaptor_class, make_adaptor
from mlc.ir.rewrite.conversion import (
    CAST,
    ConversionPattern,
    ConversionTarget,
    TypeConverter,
    apply_full_conversion,
    apply_partial_conversion,
)
from mlc.ir.rewrite.greedy import apply_patterns_greedily
from mlc.ir.rewrite.pattern import PatternSet, RewritePattern
from mlc.ir.testing.dialect import MiddleOp, SinkOp, SourceOp, WrapperOp
from mlc.ir.testing.dialect import test as test_dialect
from mlc.ir.testing.passes import (
    InlineWrapper,
    RewrapByMerge,
    RewrapByRegion,
    SourceToMiddle,
    is_rewrapped,
    legalize_test_setup,
    tuple_converter,
)


def _parse(text: str):
    module = parse_module(text, Context(["test"], allow_unregistered=True))
    verify(module)
    return module


def _func(module):
    return module.regions[0].blocks[0].first_op


def _body(module):
    return list(_func(module).regions[0].blocks[0].ops())


def _names(module):
    return [op.name for op in _body(module)]


def _test_setup():
    """The target and patterns of the test-legalize passes."""
    return legalize_test_setup()


# ---------------------------------------------------------------------- targets and types


def test_conversion_target_rules():
    target = ConversionTarget()
    source = SourceOp.create_from_flat([], {}, [i32])  # no operands: only its name matters
    sink = SinkOp.create_from_flat([], {}, [i32])
    middle = MiddleOp.create_from_flat([], {}, [i32])
    cast = UnrealizedConversionCastOp.create([], [i32], {})
    assert target.legality(cast) is True  # casts are always legal
    assert target.legality(source) is None  # no rule
    target.add_legal_dialect("test")
    assert target.legality(source) is True
    target.add_illegal_op("test.source")  # an op rule beats its dialect's
    assert target.legality(source) is False and target.is_illegal(source)
    target.add_dynamically_legal_op("test.sink", lambda op: op.result_types == [i64])
    assert target.legality(sink) is False
    target.add_illegal_dialect("test")
    assert target.legality(middle) is False
    target.add_dynamically_legal_dialect("test", lambda op: op.name.endswith("middle"))
    assert target.legality(middle) is True
    other = ConversionTarget()
    other.mark_unknown_ops_dynamically_legal(lambda op: op.name == "test.sink")
    assert other.legality(sink) is True and other.legality(source) is False


def test_type_converter():
    converter = TypeConverter()
    pair = TupleType((i32, f32))
    assert converter.convert_type(pair) == (pair,) and converter.is_legal(pair)
    converter.add_conversion(lambda t: list(t.types) if isinstance(t, TupleType) else None)
    assert converter.convert_type(pair) == (i32, f32)
    assert not converter.is_legal(pair) and converter.is_legal(i32)
    assert converter.convert_types([i32, pair, i64]) == [i32, i32, f32, i64]
    # Conversions added later are tried first; 1:0 drops the type.
    converter.add_conversion(lambda t: [] if t == TupleType(()) else None)
    converter.add_conversion(lambda t: i32 if t == i64 else None)
    assert converter.convert_types([i64, TupleType(()), pair]) == [i32, i32, f32]
    converter.add_conversion(lambda t: f32 if t == i64 else None)
    assert converter.convert_type(i64) == (f32,)  # the cache was cleared


def test_is_op_legal_checks_operand_and_result_types():
    converter = tuple_converter()
    module = _parse("""
    func.func @f(%t: tuple<i32, f32>, %x: i32) {
      %a = test.sink %x : i32 -> i32
      %b = test.sink %t : tuple<i32, f32> -> tuple<i32, f32>
      return
    }""")
    legal, illegal, _ = _body(module)
    assert converter.is_op_legal(legal) and not converter.is_op_legal(illegal)


class ExtendSource(ConversionPattern):
    """test.source -> test.sink, but on the converted (i32) operand."""

    root = "test.source"

    def match_and_rewrite(self, op, adaptor, rewriter):
        new = rewriter.insert(SinkOp.create_from_flat(adaptor.operands, {}, [i32], op.loc))
        rewriter.replace_op(op, new.results)
        return True


def test_custom_materialisations_are_tried_before_the_default_cast():
    module = _parse("""
    func.func @f(%x: i64, %y: i64) -> (i64, i64) {
      %a = test.source %x : i64 -> i64
      %b = test.source %y : i64 -> i64
      return %a, %b : i64, i64
    }""")
    converter = TypeConverter()
    converter.add_conversion(lambda t: i32 if t == i64 else None)
    calls = []

    def trunc(rewriter, types, inputs, loc):
        calls.append("target")
        if inputs[0].name_hint != "x":
            return None  # only for %x: %y falls back to the cast
        op = rewriter.insert(TruncIOp.create_from_flat(list(inputs), {}, list(types), loc))
        return op.results

    def ext(rewriter, types, inputs, loc):
        calls.append("source")
        op = rewriter.insert(ExtSIOp.create_from_flat(list(inputs), {}, list(types), loc))
        return op.results

    converter.add_target_materialization(trunc)
    converter.add_source_materialization(ext)
    target = ConversionTarget()
    target.add_illegal_op("test.source")
    target.add_legal_op("test.sink")
    target.add_legal_dialect("arith")
    assert apply_partial_conversion(module, target, PatternSet([ExtendSource(converter)]),
                                    converter).success
    verify(module)
    # Materialisations go right after the value they convert: the target ones of the
    # arguments at the block's start (the later one first), the source ones after the sinks.
    assert _names(module) == [CAST, "arith.trunci", "test.sink", "arith.extsi", "test.sink",
                              "arith.extsi", "func.return"]
    assert calls == ["target", "target", "source", "source"]


class SegmentedOp(Op):
    """Operand groups of every kind (declared here, registered nowhere)."""

    name = "test.segmented"
    first = OperandDef(variadic=True)
    maybe = OperandDef(optional=True)
    single = OperandDef()
    rest = OperandDef(variadic=True)
    flag = AttrDef(AnyAttr, default=IntegerAttr(7, i32))


def test_typed_adaptors_are_made_once_per_op_class():
    cls = adaptor_class(AddFOp)
    assert cls is adaptor_class(AddFOp) and issubclass(cls, OpAdaptor)
    assert cls.__name__ == "AddFOpAdaptor"
    assert adaptor_class(AddFOp) is not adaptor_class(SubFOp)
    assert adaptor_class(Operation) is OpAdaptor  # unregistered ops: the generic one


def test_typed_adaptor_reads_converted_operands_by_name():
    module = _parse("""
    func.func @f(%a: f32, %b: f32, %c: f32, %d: f32) {
      %0 = arith.addf %a, %b fastmath<fast> : f32
      return
    }""")
    a, b, c, d = _func(module).regions[0].blocks[0].args
    add = _body(module)[0]
    adaptor = make_adaptor(add, [[c], [d]])
    assert type(adaptor) is adaptor_class(AddFOp)
    assert adaptor.lhs is c and adaptor.rhs is d
    assert adaptor.operands == [c, d] and adaptor.operand_groups == [[c], [d]]
    assert adaptor.fastmath == add.fastmath and adaptor.attributes is add.attributes
    with pytest.raises(ValueError, match="needs 2 operand groups"):
        make_adaptor(add, [[c]])


def test_typed_adaptor_of_variadic_optional_and_one_to_n_groups():
    module = _parse("""
    func.func @f(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32) {
      return
    }""")
    a, b, c, d, e = _func(module).regions[0].blocks[0].args
    with_maybe = SegmentedOp.build([a, b], c, d, [e], result_types=[])
    # `single` converted 1:2, `first`'s second value 1:0, the rest 1:1.
    adaptor = make_adaptor(with_maybe, [[a], [], [c], [d, a], [e]])
    assert adaptor.first == [a] and adaptor.maybe is c
    assert adaptor.single == [d, a] and adaptor.rest == [e]
    assert adaptor.operands == [a, c, d, a, e]
    assert adaptor.flag == IntegerAttr(7, i32)  # the declared default
    without = SegmentedOp.build([], None, d, [a, b, c], result_types=[])
    adaptor = make_adaptor(without, [[d], [a], [b], [c]])
    assert adaptor.first == [] and adaptor.maybe is None
    assert adaptor.single is d and adaptor.rest == [a, b, c]
    for op in (with_maybe, without):
        op.drop_all_references()


def test_conversion_patterns_refuse_the_greedy_driver():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      return %a : i32
    }""")
    with pytest.raises(TypeError, match="conversion driver"):
        apply_patterns_greedily(module, PatternSet([SourceToMiddle()]))


# ---------------------------------------------------------------------- legalization


def test_a_chain_of_patterns_reaches_legality():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      %b = test.middle %a : i32 -> i32
      %c = arith.addi %b, %a : i32
      return %c : i32
    }""")
    target, patterns, converter = _test_setup()
    result = apply_full_conversion(module, target, patterns, converter)
    assert result.success and result.diagnostics == []
    verify(module)
    ops = _body(module)
    assert [op.name for op in ops] == ["test.sink", "test.sink", "arith.addi", "func.return"]
    x = _func(module).regions[0].blocks[0].args[0]
    assert ops[0].operands == [x]
    assert ops[1].operands == [ops[0].results[0]]
    assert ops[2].operands == [ops[1].results[0], ops[0].results[0]]


def test_test_legalize_passes_run_the_chain():
    text = """
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      return %a : i32
    }"""
    for pipeline in ("test-legalize-partial", "test-legalize-full"):
        module = _parse(text)
        assert run_pipeline(module, pipeline).success
        assert _names(module) == ["test.sink", "func.return"]


def test_one_to_n_type_conversion_with_block_signature():
    module = _parse("""
    func.func @f(%x: i32, %t: tuple<i32, f32>) -> i32 {
      test.use_tuple %t : tuple<i32, f32>
      return %x : i32
    }""")
    assert run_pipeline(module, "test-legalize-full").success
    func = _func(module)
    args = func.regions[0].blocks[0].args
    assert [a.type for a in args] == [i32, i32, f32]
    assert [a.index for a in args] == [0, 1, 2]
    assert func.attributes["function_type"].value == FunctionType((i32, i32, f32), (i32,))
    use, ret = _body(module)
    assert use.name == "test.use_parts" and use.operands == args[1:]
    assert ret.operands == [args[0]]
    assert "tuple" not in print_op(module)


def test_target_materialisation_for_an_operand_of_an_illegal_type():
    module = _parse("""
    func.func @f() {
      %t = "test.make"() : () -> tuple<i32, f32>
      test.use_tuple %t : tuple<i32, f32>
      return
    }""")
    target, patterns, converter = _test_setup()
    assert apply_partial_conversion(module, target, patterns, converter).success
    verify(module)
    make, cast, use, _ = _body(module)
    assert cast.name == CAST
    assert cast.operands == [make.results[0]] and cast.result_types == [i32, f32]
    assert use.name == "test.use_parts" and use.operands == cast.results


class SourceToSinkI32(ConversionPattern):
    """test.source on i64 -> test.sink on i32 (converted operands and results)."""

    root = "test.source"

    def match_and_rewrite(self, op, adaptor, rewriter):
        types = self.type_converter.convert_types(op.result_types)
        new = rewriter.insert(SinkOp.create_from_flat(adaptor.operands, {}, types, op.loc))
        rewriter.replace_op(op, new.results)
        return True


def _i64_to_i32():
    converter = TypeConverter()
    converter.add_conversion(lambda t: i32 if t == i64 else None)
    target = ConversionTarget()
    target.add_illegal_op("test.source")
    target.add_legal_op("test.sink")
    return target, PatternSet([SourceToSinkI32(converter)]), converter


def test_source_materialisation_for_legal_users_of_converted_values():
    module = _parse("""
    func.func @f(%x: i64) -> i64 {
      %a = test.source %x : i64 -> i64
      %b = test.source %a : i64 -> i64
      "test.keep"(%b) : (i64) -> ()
      return %b : i64
    }""")
    target, patterns, converter = _i64_to_i32()
    assert apply_partial_conversion(module, target, patterns, converter).success
    verify(module)
    assert _names(module) == [CAST, "test.sink", "test.sink", CAST, "test.keep", "func.return"]
    to_new, sink_a, sink_b, back, keep, ret = _body(module)
    assert to_new.result_types == [i32]  # target materialisation of the unconverted %x
    assert sink_b.operands == sink_a.results  # converted users see converted values
    assert back.operands == sink_b.results and back.result_types == [i64]
    assert keep.operands == back.results and ret.operands == back.results
    # Nothing cancels out here: reconcile-unrealized-casts must fail.
    result = run_pipeline(module, "reconcile-unrealized-casts")
    assert not result.success
    assert len(result.diagnostics) == 2


def test_source_materialisation_that_cancels_out_is_reconciled():
    module = _parse("""
    func.func @f(%t: tuple<i32, f32>) {
      %a, %b = "builtin.unrealized_conversion_cast"(%t) : (tuple<i32, f32>) -> (i32, f32)
      test.use_parts %a, %b : i32, f32
      return
    }""")
    assert run_pipeline(module, "test-legalize-partial").success
    casts = [op for op in _body(module) if op.name == CAST]
    assert len(casts) == 2
    args = _func(module).regions[0].blocks[0].args
    materialised = casts[0]
    assert materialised.operands == list(args)
    assert materialised.result_types == [TupleType((i32, f32))]
    assert run_pipeline(module, "reconcile-unrealized-casts").success
    verify(module)
    assert _names(module) == ["test.use_parts", "func.return"]
    assert _body(module)[0].operands == list(args)


def test_legal_op_using_a_converted_block_argument_gets_a_cast():
    module = _parse("""
    func.func @f(%t: tuple<i32, f32>) {
      test.use_tuple %t : tuple<i32, f32>
      %s = test.sink %t : tuple<i32, f32> -> tuple<i32, f32>
      return
    }""")
    assert run_pipeline(module, "test-legalize-partial").success
    cast, parts, sink, _ = _body(module)
    args = _func(module).regions[0].blocks[0].args
    assert cast.name == CAST and cast.operands == list(args)
    assert sink.operands == cast.results and parts.operands == list(args)
    result = run_pipeline(module, "reconcile-unrealized-casts")
    assert not result.success


# ---------------------------------------------------------------------- failure and rollback


_WITH_UNKNOWN = """
func.func @f(%x: i32, %t: tuple<i32, f32>) {
  %a = test.source %x : i32 -> i32
  test.unknown %a : i32
  %b = test.middle %a : i32 -> i32
  test.use_tuple %t : tuple<i32, f32>
  test.unknown %b : i32
  return
}
"""


def test_partial_conversion_keeps_ops_without_a_rule():
    module = _parse(_WITH_UNKNOWN)
    target, patterns, converter = _test_setup()
    assert apply_partial_conversion(module, target, patterns, converter).success
    verify(module)
    assert _names(module) == ["test.sink", "test.unknown", "test.sink", "test.use_parts",
                              "test.unknown", "func.return"]


def test_full_conversion_fails_on_them_and_leaves_the_ir_untouched():
    module = _parse(_WITH_UNKNOWN)
    before = print_op(module)
    ops_before = list(module.walk())
    target, patterns, converter = _test_setup()
    result = apply_full_conversion(module, target, patterns, converter)
    assert not result.success
    assert print_op(module) == before
    assert list(module.walk()) == ops_before  # the very same op objects
    assert [(d.severity, d.message, d.loc.line, d.loc.column) for d in result.diagnostics] == [
        ("error", "failed to legalize operation 'test.unknown'", 4, 3),
        ("error", "failed to legalize operation 'test.unknown'", 7, 3),
    ]


def test_first_failure_only_stops_where_mlir_stops():
    module = _parse(_WITH_UNKNOWN)
    before = print_op(module)
    target, patterns, converter = _test_setup()
    result = apply_full_conversion(module, target, patterns, converter, first_failure_only=True)
    assert not result.success
    assert print_op(module) == before
    assert [(d.message, d.loc.line) for d in result.diagnostics] == [
        ("failed to legalize operation 'test.unknown'", 4)]


def test_full_conversion_pass_reports_every_op():
    module = _parse(_WITH_UNKNOWN)
    before = print_op(module)
    result = run_pipeline(module, "test-legalize-full")
    assert not result.success
    assert print_op(module) == before
    assert [d.loc.line for d in result.diagnostics] == [4, 7]
    assert run_pipeline(module, "test-legalize-partial").success


def test_illegal_op_without_a_pattern_fails_partial_conversion_too():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      %b = test.middle %a : i32 -> i32
      %c = test.middle %b : i32 -> i32
      return %c : i32
    }""")
    before = print_op(module)
    target, _, converter = _test_setup()
    patterns = PatternSet([SourceToMiddle()])  # nothing turns test.middle into a sink
    result = apply_partial_conversion(module, target, patterns, converter)
    assert not result.success
    assert print_op(module) == before
    # The source fails too: the middle its pattern creates cannot be legalized.
    message = "failed to legalize operation '{}' that was explicitly marked illegal"
    assert [(d.message, d.loc.line) for d in result.diagnostics] == [
        (message.format("test.source"), 3), (message.format("test.middle"), 4),
        (message.format("test.middle"), 5)]


def test_an_illegal_op_a_pattern_creates_must_be_legalized_too():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      return %a : i32
    }""")
    before = print_op(module)
    target, _, converter = _test_setup()
    result = apply_partial_conversion(module, target, PatternSet([SourceToMiddle()]), converter)
    assert not result.success
    assert print_op(module) == before
    assert [d.loc.line for d in result.diagnostics] == [3]


class Swap(ConversionPattern):
    """source <-> middle, forever."""

    root = None

    def match_and_rewrite(self, op, adaptor, rewriter):
        cls = MiddleOp if op.name == "test.source" else SourceOp
        new = rewriter.insert(cls.create_from_flat([op.operand(0)], {}, op.result_types, op.loc))
        rewriter.replace_op(op, new.results)
        return True


def test_a_cycle_of_patterns_fails_instead_of_looping():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      return %a : i32
    }""")
    before = print_op(module)
    target, _, converter = _test_setup()
    result = apply_partial_conversion(module, target, PatternSet([Swap()]), converter)
    assert not result.success
    assert print_op(module) == before


class Refuse(ConversionPattern):
    """Applies to nothing (higher benefit: tried first)."""

    root = "test.source"
    benefit = 10

    def match_and_rewrite(self, op, adaptor, rewriter):
        return False


class PlainSourceToSink(RewritePattern):
    """An ordinary pattern works under the conversion driver too."""

    root = "test.source"

    def match_and_rewrite(self, op, rewriter):
        new = rewriter.insert(SinkOp.create_from_flat([op.operand(0)], {}, op.result_types,
                                                      op.loc))
        rewriter.replace_op(op, new.results)
        return True


def test_the_next_pattern_is_tried_when_one_declines():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      return %a : i32
    }""")
    target, _, converter = _test_setup()
    result = apply_partial_conversion(module, target, PatternSet([PlainSourceToSink(), Refuse()]),
                                      converter)
    assert result.success
    verify(module)
    assert _names(module) == ["test.sink", "func.return"]


def test_ops_erased_by_a_pattern_take_their_regions_along():
    module = _parse("""
    func.func @f(%x: i32) {
      "test.wrapper"() ({
        %a = test.source %x : i32 -> i32
        "test.keep"(%a) : (i32) -> ()
      }) : () -> ()
      return
    }""")

    class EraseWrapper(ConversionPattern):
        root = "test.wrapper"

        def match_and_rewrite(self, op, adaptor, rewriter):
            rewriter.erase_op(op)
            return True

    target, patterns, converter = _test_setup()
    target.add_illegal_op("test.wrapper")
    patterns.add(EraseWrapper())
    # test.keep has no rule, but full conversion does not ask: it went with the wrapper.
    assert apply_full_conversion(module, target, patterns, converter).success
    verify(module)
    assert _names(module) == ["func.return"]


def test_test_legalize_with_a_tuple_result():
    module = _parse("""
    func.func @f(%t: tuple<i32, f32>) -> tuple<i32, f32> {
      return %t : tuple<i32, f32>
    }""")
    result = run_pipeline(module, "test-legalize-partial")
    assert result.success, [d.message for d in result.diagnostics]


# ---------------------------------------------------------------------- checked at construction


def test_targets_take_op_classes_and_names_and_check_them():
    target = ConversionTarget()
    target.add_legal_op(SinkOp, "test.middle")
    target.add_illegal_op(SourceOp)
    target.add_dynamically_legal_op((AddFOp, "arith.subf"), lambda op: False)
    assert target.legality(SinkOp.create_from_flat([], {}, [i32])) is True
    assert target.legality(MiddleOp.create_from_flat([], {}, [i32])) is True
    assert target.legality(SourceOp.create_from_flat([], {}, [i32])) is False
    with pytest.raises(UnknownOpError, match="conversion target: unknown op 'test.nope': "
                                             "dialect 'test' declares no such op"):
        target.add_legal_op(SinkOp, "test.nope")
    with pytest.raises(UnknownOpError, match="conversion target: unknown op 'nodialect.op': "
                                             "no dialect 'nodialect' is installed"):
        target.add_illegal_op("nodialect.op")
    with pytest.raises(UnknownOpError, match="unknown op 'sink': op names read 'dialect.op'"):
        target.add_dynamically_legal_op("sink", lambda op: True)
    with pytest.raises(UnknownOpError, match="conversion target: 'int' is not a declared op "
                                             "class"):
        target.add_legal_op(int)
    with pytest.raises(UnknownOpError, match="conversion target: unknown dialect 'nodialect'"):
        target.add_legal_dialect("arith", "nodialect")
    target.add_legal_dialect(test_dialect)  # a Dialect object works too


def test_conversion_patterns_check_their_root_and_signature_when_defined():
    class ByName(ConversionPattern):
        root = "test.source"

        def match_and_rewrite(self, op, adaptor, rewriter):
            return False

    assert ByName.root == "test.source" and ByName.op_class is SourceOp
    assert ConversionPattern.op_class is None

    class ByClass(ConversionPattern):
        root = SourceOp

    assert ByClass.root == "test.source" and ByClass.op_class is SourceOp

    with pytest.raises(UnknownOpError, match="conversion pattern 'Misspelt': unknown op "
                                             "'test.sorce': dialect 'test' declares no such op"):
        class Misspelt(ConversionPattern):
            root = "test.sorce"

    with pytest.raises(TypeError, match=r"conversion pattern 'TwoArguments': match_and_rewrite "
                                        r"takes \(op, adaptor, rewriter\), not \(op, rewriter\)"):
        class TwoArguments(ConversionPattern):
            root = SourceOp

            def match_and_rewrite(self, op, rewriter):
                return False

    with pytest.raises(TypeError, match="'FourArguments'.*not \\(op, adaptor, rewriter, extra\\)"):
        class FourArguments(ConversionPattern):
            def match_and_rewrite(self, op, adaptor, rewriter, extra):
                return False


# ---------------------------------------------------------------------- tentative changes


def test_a_pattern_whose_results_cannot_be_legalized_is_undone_and_the_next_tried():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      %b = test.source %a : i32 -> i32
      return %b : i32
    }""")

    class SourceToMiddleFirst(ConversionPattern):
        root = SourceOp
        benefit = 2

        def match_and_rewrite(self, op, adaptor, rewriter):
            rewriter.replace_op_with_new(op, MiddleOp, adaptor.input, result_types=op.result_types)
            return True

    target, _, converter = _test_setup()
    patterns = PatternSet([SourceToMiddleFirst(), PlainSourceToSink()])  # no middle -> sink
    assert apply_full_conversion(module, target, patterns, converter).success
    verify(module)
    assert _names(module) == ["test.sink", "test.sink", "func.return"]
    x = _func(module).regions[0].blocks[0].args[0]
    first, second, ret = _body(module)
    assert first.operands == [x] and second.operands == first.results
    assert ret.operands == second.results
    assert len(x.uses) == 1  # the undone test.middle ops left no use behind


def test_a_pattern_must_change_its_root():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      return %a : i32
    }""")

    class Claims(ConversionPattern):
        root = SourceOp

        def match_and_rewrite(self, op, adaptor, rewriter):
            return True

    target, _, converter = _test_setup()
    with pytest.raises(IRError, match="pattern 'Claims' reported success on 'test.source' but "
                                      "did not replace, erase or modify it"):
        apply_partial_conversion(module, target, PatternSet([Claims()]), converter)


def test_an_erased_op_still_in_use_fails_the_conversion_and_changes_nothing():
    module = _parse("""
    func.func @f(%x: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      %b = test.sink %a : i32 -> i32
      return %b : i32
    }""")
    before = print_op(module)

    class EraseSource(ConversionPattern):
        root = SourceOp

        def match_and_rewrite(self, op, adaptor, rewriter):
            rewriter.erase_op(op)
            return True

    target, _, converter = _test_setup()
    result = apply_partial_conversion(module, target, PatternSet([EraseSource()]), converter)
    assert not result.success
    assert [(d.message, d.loc.line) for d in result.diagnostics] == [
        ("'test.source' was erased but its result #0 is still used by 'test.sink'", 4)]
    assert print_op(module) == before


_NESTED = """
func.func @f(%x: i32, %t: tuple<i32, f32>) -> i32 {
  %a = test.source %x : i32 -> i32
  test.wrapper {
    %b = test.middle %a : i32 -> i32
    test.use_tuple %t : tuple<i32, f32>
    test.unknown %b : i32
  }
  %c = test.source %a : i32 -> i32
  return %c : i32
}
"""


@pytest.mark.parametrize("pattern", [InlineWrapper, RewrapByRegion, RewrapByMerge])
def test_moved_ops_and_blocks_go_back_on_failure(pattern):
    module = _parse(_NESTED)
    before = print_op(module)
    ops_before = list(module.walk())
    blocks_before = [block for op in ops_before for r in op.regions for block in r.blocks]
    target, patterns, converter = _test_setup()
    target.add_dynamically_legal_op(WrapperOp, is_rewrapped)
    patterns.add(pattern())
    result = apply_full_conversion(module, target, patterns, converter)
    assert not result.success  # on test.unknown, after the moves
    assert [d.message for d in result.diagnostics] == [
        "failed to legalize operation 'test.unknown'"]
    assert print_op(module) == before
    assert list(module.walk()) == ops_before
    assert [block for op in module.walk() for r in op.regions for block in r.blocks] == \
        blocks_before
    # The same input converts once test.unknown may stay.
    result = apply_partial_conversion(module, target, patterns, converter)
    assert result.success
    verify(module)
    text = print_op(module)
    assert "test.unknown" in text and "test.source" not in text and "tuple" not in text
    assert ("test.wrapper" in text) == (pattern is not InlineWrapper)
    assert text.count("test.wrapper") <= 1


def test_replace_all_uses_with_under_conversion_is_tentative_too():
    module = _parse("""
    func.func @f(%x: i32, %y: i32) -> i32 {
      %a = test.source %x : i32 -> i32
      test.unknown %a : i32
      return %a : i32
    }""")
    before = print_op(module)

    class ForwardOperand(ConversionPattern):
        root = SourceOp

        def match_and_rewrite(self, op, adaptor, rewriter):
            y = op.parent.args[1]
            rewriter.replace_all_uses_with(op.results[0], y)
            rewriter.erase_op(op)
            return True

    target, _, converter = _test_setup()
    patterns = PatternSet([ForwardOperand()])
    assert not apply_full_conversion(module, target, patterns, converter).success
    assert print_op(module) == before
    assert apply_partial_conversion(module, target, patterns, converter).success
    verify(module)
    assert _names(module) == ["test.unknown", "func.return"]
    y = _func(module).regions[0].blocks[0].args[1]
    assert [op.operands for op in _body(module)] == [[y], [y]]
