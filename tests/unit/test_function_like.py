"""func.func and llvm.func answer the same questions through the FunctionLike
interface (MLIR's FunctionOpInterface)."""

from mlc.ir import Context, parse_module
from mlc.ir.interfaces.function_like import FunctionLike, functions_in, is_function
from mlc.llvm.dialect import ops as _llvm  # noqa: F401 (declares llvm.func)

SOURCE = """
func.func private @ext(i32) -> f32
func.func @f(%a: i32, %b: f32) -> (f32, i32) {
  return %b, %a : f32, i32
}
llvm.func @g(%p: !llvm.ptr {llvm.noalias}) {
  llvm.return
}
llvm.func @h(i64) -> i64
llvm.mlir.global internal constant @c(1 : i32) : i32
"""


def test_functions_of_both_dialects_answer_alike():
    module = parse_module(SOURCE, Context(["func", "llvm"]))
    functions = functions_in(module)
    assert [FunctionLike.get(f).symbol(f) for f in functions] == ["ext", "f", "g", "h"]
    ext, f, g, h = functions
    fn = FunctionLike.get(f)
    assert [str(t) for t in fn.argument_types(f)] == ["i32", "f32"]
    assert [str(t) for t in fn.result_types(f)] == ["f32", "i32"]
    assert fn.arguments(f) == list(f.regions[0].blocks[0].args)
    assert not fn.is_declaration(f) and fn.visibility(f) == "public"
    assert FunctionLike.get(ext).is_declaration(ext) and FunctionLike.get(ext).visibility(ext) == "private"
    llvm_fn = FunctionLike.get(g)
    assert llvm_fn.result_types(g) == []  # void
    assert set(llvm_fn.argument_attributes(g, 0)) == {"llvm.noalias"}
    assert [str(t) for t in FunctionLike.get(h).result_types(h)] == ["i64"]
    assert FunctionLike.get(h).arguments(h) == []


def test_a_global_is_not_a_function():
    module = parse_module(SOURCE, Context(["func", "llvm"]))
    last = list(module.regions[0].blocks[0].ops())[-1]
    assert not is_function(last)
