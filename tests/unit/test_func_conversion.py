"""The library's function-signature conversion (mlc.ir.dialects.func.conversion):
func.func arguments and results, entry block arguments, func.call and func.return,
1:1, 1:N and 1:0, with materialisations where unconverted ops meet converted values.

The oracle is MLIR's own: `mlir-opt-22 --test-decompose-call-graph-types` decomposes
tuples (recursively) across call graphs with MLIR's populateFunctionOpInterface-,
Call- and Return- type conversion patterns; on IR where no materialisation is needed
mlc's conversion must print what it prints (both normalised by mlir-opt).
"""

from __future__ import annotations

import subprocess

import pytest

from mlc.ir import (
    Context,
    FunctionType,
    TupleType,
    f32,
    i8,
    i16,
    i32,
    i64,
    parse_module,
    print_op,
    verify,
)
from mlc.ir.dialects.builtin import ModuleOp
from mlc.ir.dialects.func.conversion import (
    CallSignatureConversion,
    FuncSignatureConversion,
    ReturnTypeConversion,
    add_function_signature_legality,
    populate_function_signature_conversion,
)
from mlc.ir.rewrite.conversion import (
    ConversionTarget,
    TypeConverter,
    apply_full_conversion,
    apply_partial_conversion,
)
from mlc.ir.rewrite.pattern import PatternSet
from mlc.ir.testing.passes import signature_conversion_setup, tuple_converter


def convert(text: str, full: bool = True):
    """`text` after the function-signature conversion with tuple_converter()."""
    module = parse_module(text, Context(allow_unregistered=True))
    verify(module)
    converter = tuple_converter()
    target, patterns = signature_conversion_setup(converter)
    apply = apply_full_conversion if full else apply_partial_conversion
    result = apply(module, target, patterns, converter)
    assert result.success, [d.message for d in result.diagnostics]
    verify(module)
    return module


def test_populate_adds_the_three_patterns():
    patterns = PatternSet()
    populate_function_signature_conversion(patterns, tuple_converter())
    assert [type(p) for p in patterns] == [FuncSignatureConversion, CallSignatureConversion,
                                           ReturnTypeConversion]
    assert [p.root for p in patterns] == ["func.func", "func.call", "func.return"]


CALL_GRAPH = """\
func.func private @ext(tuple<i32, f32>, i8) -> (tuple<>, tuple<i64, tuple<i16>>)
func.func @f(%t: tuple<i32, f32>, %e: tuple<>, %b: i8) -> (tuple<i64, tuple<i16>>, i8) {
  %0:2 = call @ext(%t, %b) : (tuple<i32, f32>, i8) -> (tuple<>, tuple<i64, tuple<i16>>)
  %1:2 = call @f(%t, %0#0, %b) : (tuple<i32, f32>, tuple<>, i8) -> (tuple<i64, tuple<i16>>, i8)
  return %0#1, %1#1 : tuple<i64, tuple<i16>>, i8
}
"""


def test_arguments_results_calls_and_returns_one_to_n_and_one_to_zero():
    module = convert(CALL_GRAPH)
    assert print_op(module) == """\
module {
  func.func private @ext(i32, f32, i8) -> (i64, i16)
  func.func @f(%t: i32, %t_0: f32, %b: i8) -> (i64, i16, i8) {
    %0:2 = call @ext(%t, %t_0, %b) : (i32, f32, i8) -> (i64, i16)
    %1:3 = call @f(%t, %t_0, %b) : (i32, f32, i8) -> (i64, i16, i8)
    return %0#0, %0#1, %1#2 : i64, i16, i8
  }
}
"""
    ext, f = module.regions[0].blocks[0].ops()
    assert f.type == FunctionType((i32, f32, i8), (i64, i16, i8))
    assert [a.index for a in f.entry_block.args] == [0, 1, 2]


def test_argument_and_result_attributes_follow_each_type_they_become():
    module = convert("""
    func.func private @g(tuple<i32, f32> {test.a = 1}, tuple<> {test.b}, i8 {test.c})
        -> (tuple<i64, i16> {test.r}, i8)
    """)
    assert print_op(module) == """\
module {
  func.func private @g(i32 {test.a = 1 : i64}, f32 {test.a = 1 : i64}, i8 {test.c}) -> (i64 {test.r}, i16 {test.r}, i8)
}
"""


def test_unconverted_users_and_producers_get_materialisations():
    module = convert("""
    func.func @f(%t: tuple<i32, f32>) -> tuple<i32, f32> {
      "test.keep"(%t) : (tuple<i32, f32>) -> ()
      %m = "test.make"() : () -> tuple<i32, f32>
      %r = call @f(%m) : (tuple<i32, f32>) -> tuple<i32, f32>
      "test.keep"(%r) : (tuple<i32, f32>) -> ()
      return %r : tuple<i32, f32>
    }""", full=False)
    assert print_op(module) == """\
module {
  func.func @f(%t: i32, %t_0: f32) -> (i32, f32) {
    %0 = builtin.unrealized_conversion_cast %t, %t_0 : i32, f32 to tuple<i32, f32>
    "test.keep"(%0) : (tuple<i32, f32>) -> ()
    %m = "test.make"() : () -> tuple<i32, f32>
    %1:2 = builtin.unrealized_conversion_cast %m : tuple<i32, f32> to i32, f32
    %r:2 = call @f(%1#0, %1#1) : (i32, f32) -> (i32, f32)
    %2 = builtin.unrealized_conversion_cast %r#0, %r#1 : i32, f32 to tuple<i32, f32>
    "test.keep"(%2) : (tuple<i32, f32>) -> ()
    return %r#0, %r#1 : i32, f32
  }
}
"""


def test_one_to_one_conversion_of_every_block_argument():
    converter = TypeConverter()
    converter.add_conversion(lambda t: i32 if t == i64 else None)
    module = parse_module("""
    func.func @f(%x: i64, %y: i16) -> i64 {
      %0 = call @f(%x, %y) : (i64, i16) -> i64
      return %0 : i64
    }""")
    target = ConversionTarget()
    target.add_legal_op(ModuleOp)
    add_function_signature_legality(target, converter)
    patterns = PatternSet()
    populate_function_signature_conversion(patterns, converter)
    assert apply_full_conversion(module, target, patterns, converter).success
    verify(module)
    assert print_op(module) == """\
module {
  func.func @f(%x: i32, %y: i16) -> i32 {
    %0 = call @f(%x, %y) : (i32, i16) -> i32
    return %0 : i32
  }
}
"""


# ---------------------------------------------------------------------- against mlir-opt

ORACLE_CASES = {
    "call_graph": CALL_GRAPH,
    "nested": """\
func.func @id(%a: tuple<tuple<i1, tuple<>>, i32>) -> tuple<tuple<i1, tuple<>>, i32> {
  return %a : tuple<tuple<i1, tuple<>>, i32>
}
func.func @twice(%a: tuple<tuple<i1, tuple<>>, i32>, %n: index) -> (index, tuple<tuple<i1, tuple<>>, i32>) {
  %0 = call @id(%a) : (tuple<tuple<i1, tuple<>>, i32>) -> tuple<tuple<i1, tuple<>>, i32>
  %1 = call @id(%0) : (tuple<tuple<i1, tuple<>>, i32>) -> tuple<tuple<i1, tuple<>>, i32>
  return %n, %1 : index, tuple<tuple<i1, tuple<>>, i32>
}
""",
    "no_tuples": """\
func.func @plain(%a: i32) -> i32 {
  %0 = call @plain(%a) : (i32) -> i32
  return %0 : i32
}
""",
}


def mlir_normalised(mlir_opt: str, text: str, *flags: str) -> str:
    run = subprocess.run([mlir_opt, *flags, "-"], input=text, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def check_against_mlir_opt(mlir_opt: str, text: str) -> None:
    """mlc's conversion of `text` is what mlir-opt's --test-decompose-call-graph-types
    gives, both printed by mlir-opt."""
    expected = mlir_normalised(mlir_opt, text, "--test-decompose-call-graph-types")
    ours = mlir_normalised(mlir_opt, print_op(convert(text)))
    assert ours == expected


@pytest.mark.parametrize("case", sorted(ORACLE_CASES))
def test_signature_conversion_matches_mlir_opt(mlir_opt, case):
    check_against_mlir_opt(mlir_opt, ORACLE_CASES[case])


def test_i8_and_i16_are_left_alone():
    assert tuple_converter().convert_types([i8, TupleType((i16, TupleType(()))), i64]) == \
        [i8, i16, i64]
