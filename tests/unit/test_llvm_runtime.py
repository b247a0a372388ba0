"""mlc.llvm's JIT and runtime on hand-written LLVM IR: targets, compilation (errors,
stage times, the cache), NativeFunction calls on numpy arrays (results against numpy,
every wrong call refused before the native code runs) and native code calling
Python functions on the caller's buffers."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from mlc.ir.diagnostics import DiagnosticError
from mlc.ir.extern import register_func, remove_func
from mlc.llvm.jit import (
    LLVMIRError,
    bind_python_function,
    compile_cache_info,
    compile_llvm_ir,
)
from mlc.llvm.native_call import ArgSpec, NativeCallError, NativeFunction, data_address
from mlc.llvm.target import Target, TargetError

N = 1000  # not a multiple of any vector width: the vectorised loops' remainders run too

SAXPY = f"""
define void @saxpy(float %a, ptr noalias %x, ptr noalias %y, ptr noalias %out) {{
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %po = getelementptr float, ptr %out, i64 %i
  %vx = load float, ptr %px, align 4
  %vy = load float, ptr %py, align 4
  %ax = fmul float %a, %vx
  %s = fadd float %ax, %vy
  store float %s, ptr %po, align 4
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, {N}
  br i1 %done, label %exit, label %loop
exit:
  ret void
}}
"""
SAXPY_SPECS = [ArgSpec("a", None, "float32"), ArgSpec("x", (N,), "float32"),
               ArgSpec("y", (N,), "float32"), ArgSpec("out", (N,), "float32", "output")]

# Sums a buffer of i32 into an i64 (exact) and one of f32 in order (as math.fsum
# within rounding): loops returning a scalar.
SUMS = f"""
define i64 @sum_i32(ptr %buf) {{
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %acc = phi i64 [0, %entry], [%acc.next, %loop]
  %p = getelementptr i32, ptr %buf, i64 %i
  %v = load i32, ptr %p, align 4
  %w = sext i32 %v to i64
  %acc.next = add i64 %acc, %w
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, {N}
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}}

define double @sum_f32(ptr %buf, i64 %n) {{
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %acc = phi double [0.0, %entry], [%acc.next, %loop]
  %p = getelementptr float, ptr %buf, i64 %i
  %v = load float, ptr %p, align 4
  %w = fpext float %v to double
  %acc.next = fadd double %acc, %w
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [0.0, %entry], [%acc.next, %loop]
  ret double %r
}}
"""

ROWS, COLS = 3, 5
ADD_2D = f"""
define void @add2d(ptr noalias %a, ptr noalias %b, ptr noalias %out) {{
entry:
  br label %rows
rows:
  %i = phi i64 [0, %entry], [%i.next, %rows.end]
  br label %cols
cols:
  %j = phi i64 [0, %rows], [%j.next, %cols]
  %row = mul i64 %i, {COLS}
  %k = add i64 %row, %j
  %pa = getelementptr float, ptr %a, i64 %k
  %pb = getelementptr float, ptr %b, i64 %k
  %po = getelementptr float, ptr %out, i64 %k
  %va = load float, ptr %pa
  %vb = load float, ptr %pb
  %s = fadd float %va, %vb
  store float %s, ptr %po
  %j.next = add i64 %j, 1
  %j.done = icmp eq i64 %j.next, {COLS}
  br i1 %j.done, label %rows.end, label %cols
rows.end:
  %i.next = add i64 %i, 1
  %i.done = icmp eq i64 %i.next, {ROWS}
  br i1 %i.done, label %exit, label %rows
exit:
  ret void
}}
"""
ADD_2D_SPECS = [ArgSpec("a", (ROWS, COLS), "float32"), ArgSpec("b", (ROWS, COLS), "float32"),
                ArgSpec("out", (ROWS, COLS), "float32", "output")]


@pytest.fixture(scope="module")
def saxpy() -> NativeFunction:
    return compile_llvm_ir(SAXPY).function("saxpy", SAXPY_SPECS)


@pytest.fixture(scope="module")
def add2d() -> NativeFunction:
    return compile_llvm_ir(ADD_2D).function("add2d", ADD_2D_SPECS)


def random_f32(seed: int, shape) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# --- results against numpy -----------------------------------------------------------

def test_saxpy_equals_numpy(saxpy):
    x, y = random_f32(0, N), random_f32(1, N)
    out = saxpy(2.5, x, y)
    # No `contract` flag: LLVM may not fuse into an FMA, so each step rounds as numpy's.
    np.testing.assert_array_equal(out, np.float32(2.5) * x + y)


def test_saxpy_writes_a_given_output_in_place_and_returns_it(saxpy):
    x, y = random_f32(2, N), random_f32(3, N)
    out = np.full(N, np.nan, np.float32)
    assert saxpy(-1.0, x, y, out) is out
    np.testing.assert_array_equal(out, y - x)


def test_loops_returning_scalars():
    library = compile_llvm_ir(SUMS)
    ints = np.random.default_rng(4).integers(-2**31, 2**31, N, dtype=np.int32)
    sum_i32 = library.function("sum_i32", [ArgSpec("buf", (N,), "int32")], result="int64")
    total = sum_i32(ints)
    assert type(total) is np.int64 and total == int(ints.astype(np.int64).sum())
    floats = random_f32(5, N)
    sum_f32 = library.function("sum_f32", [ArgSpec("buf", (N,), "float32"),
                                           ArgSpec("n", None, "int64")], result="float64")
    np.testing.assert_allclose(sum_f32(floats, N), np.sum(floats, dtype=np.float64), rtol=1e-12)
    assert sum_f32(floats, 0) == 0.0
    assert sum_f32(floats, 3) == float(floats[0]) + float(floats[1]) + float(floats[2])


def test_2d_add_equals_numpy(add2d):
    a, b = random_f32(6, (ROWS, COLS)), random_f32(7, (ROWS, COLS))
    np.testing.assert_array_equal(add2d(a, b), a + b)
    # the same through a keyword and a C-contiguous view of a larger buffer
    rows = random_f32(8, (2 * ROWS, COLS))
    np.testing.assert_array_equal(add2d(rows[ROWS:], b=b), rows[ROWS:] + b)


def test_calls_with_other_arrays_use_their_addresses(add2d):
    # The fast path remembers each argument's last address: alternating arrays must
    # never be computed with a stale one.
    inputs = [(random_f32(10 + i, (ROWS, COLS)), random_f32(20 + i, (ROWS, COLS)))
              for i in range(3)]
    outs = [np.empty((ROWS, COLS), np.float32) for _ in range(3)]
    for _ in range(2):
        for (a, b), out in zip(inputs, outs):
            add2d(a, b, out)
            np.testing.assert_array_equal(out, a + b)
        inputs.reverse()


def test_a_reshaped_array_is_checked_again(add2d):
    a, b = random_f32(30, (ROWS, COLS)), random_f32(31, (ROWS, COLS))
    add2d(a, b)
    a.shape = (COLS, ROWS)  # same object and data, new shape: the cached address
    with pytest.raises(NativeCallError, match=r"argument 0 \('a'\) must have shape \(3, 5\)"):
        add2d(a, b)


def test_bound_arguments_are_fixed_and_kept(add2d):
    function = compile_llvm_ir(ADD_2D).function("add2d", ADD_2D_SPECS)
    weights = random_f32(40, (ROWS, COLS))
    function.bind("b", weights)
    assert function.free == ("a", "out")
    assert function.bound["b"] is weights
    a = random_f32(41, (ROWS, COLS))
    np.testing.assert_array_equal(function(a), a + weights)
    out = np.zeros((ROWS, COLS), np.float32)
    function.bind(2, out)  # a bound output is returned
    assert function(a) is out
    np.testing.assert_array_equal(out, a + weights)
    function.unbind("b").unbind("out")
    assert function.free == ("a", "b", "out")
    with pytest.raises(NativeCallError, match="argument 'b' is bound"):
        compile_llvm_ir(ADD_2D).function("add2d", ADD_2D_SPECS).bind("b", weights)(a, b=a)


def test_a_workspace_is_allocated_once():
    # out[i] = x[i] + 1 through a scratch buffer the function owns
    text = """
define void @via_scratch(ptr %x, ptr %scratch, ptr %out) {
  %v = load <4 x float>, ptr %x
  %w = fadd <4 x float> %v, <float 1.0, float 1.0, float 1.0, float 1.0>
  store <4 x float> %w, ptr %scratch
  %s = load <4 x float>, ptr %scratch
  store <4 x float> %s, ptr %out
  ret void
}
"""
    specs = [ArgSpec("x", (4,), "float32"), ArgSpec("scratch", (4,), "float32", "workspace"),
             ArgSpec("out", (4,), "float32", "output")]
    function = compile_llvm_ir(text).function("via_scratch", specs)
    assert function.free == ("x", "out")
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(function(x), x + 1)
    scratch = function.bound["scratch"]
    np.testing.assert_array_equal(function(x + 10), x + 11)
    assert function.bound["scratch"] is scratch
    np.testing.assert_array_equal(scratch, x + 11)


# --- wrong calls ---------------------------------------------------------------------

@pytest.mark.parametrize("make_args, message", [
    (lambda x, y: (2.0, x), r"saxpy\(\) takes 4 arguments \(a, x, y, out\), or 3 without "
                            r"the outputs \(a, x, y\); got 2"),
    (lambda x, y: (2.0, x, y, y.copy(), y), "takes 4 arguments .*got 5"),
    (lambda x, y: (2.0, x.astype(np.float64), y), r"argument 1 \('x'\) must have dtype "
                                                  "float32, not float64"),
    (lambda x, y: (2.0, x[:-1], y), r"argument 1 \('x'\) must have shape \(1000,\), not \(999,\)"),
    (lambda x, y: (2.0, x, y.reshape(10, 100)), r"argument 2 \('y'\) must have shape"),
    (lambda x, y: (2.0, np.repeat(x, 2)[::2], y), r"argument 1 \('x'\) must be C-contiguous"),
    (lambda x, y: (2.0, x, y, np.broadcast_to(np.float32(0), (N,)).copy().__array__()[::-1]),
     r"argument 3 \('out'\) must be C-contiguous"),
    (lambda x, y: (2.0, list(x), y), r"argument 1 \('x'\) must be a numpy.ndarray "
                                     r"\(float32\[1000\]\), not list"),
    (lambda x, y: ("2", x, y), r"argument 0 \('a'\) must be a real number \(float32\), not str"),
    (lambda x, y: (None, x, y), r"argument 0 \('a'\) must be a real number"),
    (lambda x, y: (2.0, x, y.astype(">f4")), r"argument 2 \('y'\) must have dtype float32"),
])
def test_wrong_calls_raise_before_the_call(saxpy, make_args, message):
    x, y = random_f32(50, N), random_f32(51, N)
    with pytest.raises(NativeCallError, match=message) as raised:
        saxpy(*make_args(x, y))
    assert isinstance(raised.value, TypeError) and isinstance(raised.value, ValueError)


def test_a_read_only_output_is_refused_and_left_alone(saxpy):
    x, y = random_f32(52, N), random_f32(53, N)
    out = np.zeros(N, np.float32)
    out.flags.writeable = False
    with pytest.raises(NativeCallError, match=r"argument 3 \('out'\) is written by the call "
                                              r"\(output\) but the array is read-only"):
        saxpy(2.0, x, y, out)
    assert not out.any()
    frozen_input = x.copy()
    frozen_input.flags.writeable = False  # inputs may be read-only
    np.testing.assert_array_equal(saxpy(2.0, frozen_input, y), np.float32(2) * x + y)


def test_wrong_keywords(saxpy):
    x, y = random_f32(54, N), random_f32(55, N)
    with pytest.raises(NativeCallError, match=r"saxpy\(\) has no argument 'z'"):
        saxpy(2.0, x, y, z=y)
    with pytest.raises(NativeCallError, match="argument 'x' given twice"):
        saxpy(2.0, x, y, x=x)
    with pytest.raises(NativeCallError, match=r"missing argument 'y' \(float32\[1000\]\)"):
        saxpy(2.0, x, out=y)


def test_integer_scalars_are_range_checked():
    library = compile_llvm_ir(SUMS)
    sum_f32 = library.function("sum_f32", [ArgSpec("buf", (N,), "float32"),
                                           ArgSpec("n", None, "int64")], result="float64")
    buffer = random_f32(56, N)
    with pytest.raises(NativeCallError, match=r"argument 1 \('n'\) = 18446744073709551616 "
                                              "does not fit in int64"):
        sum_f32(buffer, 2**64)
    with pytest.raises(NativeCallError, match=r"argument 1 \('n'\) must be an integer"):
        sum_f32(buffer, 3.0)
    assert sum_f32(buffer, np.int32(2)) == float(buffer[0]) + float(buffer[1])


def test_bad_specs_are_refused():
    with pytest.raises(ValueError, match="role must be one of input, output, inout, param, workspace"):
        ArgSpec("x", (2,), "float32", "weights")
    with pytest.raises(ValueError, match="unknown dtype"):
        ArgSpec("x", (2,), "floot32")
    with pytest.raises(ValueError, match="a float16 scalar cannot be passed by value"):
        ArgSpec("x", None, "float16")
    with pytest.raises(ValueError, match="non-negative ints"):
        ArgSpec("x", (2, -1), "float32")
    with pytest.raises(ValueError, match="argument names must be unique"):
        NativeFunction(1, [ArgSpec("x", (2,), "float32"), ArgSpec("x", (2,), "float32")])
    with pytest.raises(ValueError, match="cannot return 'float16'"):
        NativeFunction(1, [], result="float16")
    with pytest.raises(NativeCallError, match="cannot bind argument 'x' to None"):
        NativeFunction(1, [ArgSpec("x", (2,), "float32", "output")]).bind("x", None)
    assert ArgSpec.from_json(ArgSpec("w", (2, 3), "f4", "param").to_json()) == \
        ArgSpec("w", (2, 3), "float32", "param")


# --- compilation -------------------------------------------------------------------

def test_parse_errors_are_located():
    with pytest.raises(LLVMIRError) as raised:
        compile_llvm_ir("define void @f() {\n  ret i32 0\n}\n", name="bad.ll")
    assert str(raised.value) == ("bad.ll:2:7: error: invalid LLVM IR: value doesn't match "
                                 "function result type 'void'")
    assert isinstance(raised.value, DiagnosticError)  # the tools render it as any other


def test_verifier_errors_name_the_function():
    text = ("define i32 @fine() {\n  ret i32 0\n}\n\n"
            "define i32 @broken(i32 %a) {\nentry:\n"
            "  %y = add i32 %x, 1\n  %x = add i32 %a, 1\n  ret i32 %y\n}\n")
    with pytest.raises(LLVMIRError) as raised:
        compile_llvm_ir(text, name="dominance.ll")
    first_line = str(raised.value).splitlines()[0]
    assert first_line == ("dominance.ll:5:1: error: invalid LLVM IR: in function @broken: "
                          "Instruction does not dominate all uses!")


def test_an_undefined_symbol_is_an_error_not_a_crash():
    text = "declare void @nowhere_defined(ptr)\ndefine void @f(ptr %p) {\n" \
           "  call void @nowhere_defined(ptr %p)\n  ret void\n}\n"
    with pytest.raises(LLVMIRError, match="@nowhere_defined declared but defined nowhere"):
        compile_llvm_ir(text)


def test_library_functions_and_code():
    library = compile_llvm_ir(SAXPY)
    assert library.functions == ["saxpy"]
    with pytest.raises(LookupError, match=r"defines no function @nope \(it defines: saxpy\)"):
        library.address("nope")
    assert "saxpy:" in library.assembly()
    if sys.platform.startswith("linux"):
        assert library.object_code()[:4] == b"\x7fELF"
    assert "define void @saxpy" in library.llvm_ir()


def test_identical_modules_compile_once():
    text = SAXPY.replace("@saxpy", "@saxpy_cached")
    before = compile_cache_info()
    first = compile_llvm_ir(text)
    again = compile_llvm_ir(text)
    after = compile_cache_info()
    assert again is first
    assert (after.misses - before.misses, after.hits - before.hits) == (1, 1)
    other_target = compile_llvm_ir(text, Target(opt_level=1))
    assert other_target is not first and other_target.target.opt_level == 1


def test_stage_times_are_reported():
    library = compile_llvm_ir(SAXPY.replace("@saxpy", "@saxpy_timed"), Target(opt_level=2))
    names = [name for name, _ in library.timings.stages()]
    assert names == ["LLVM parse+verify", "LLVM optimise -O2", "LLVM codegen"]
    assert all(seconds > 0 for _, seconds in library.timings.stages())
    report = library.timings.report()
    assert report.splitlines()[0] == "  ----Wall Time----  ----Name----"
    assert report.splitlines()[-1].endswith("(100.0%)  Total")


# --- targets ---------------------------------------------------------------------

def test_host_target_and_overrides():
    host = Target()
    assert host.opt_level == 3 and host.cpu and host.features
    assert host.describe() == f"{host.triple}, cpu {host.cpu}, -O3"
    generic = Target(cpu="x86-64", features="+sse2,-avx", opt_level=0) \
        if host.triple.startswith("x86_64") else Target(opt_level=0)
    x, y = random_f32(60, N), random_f32(61, N)
    out = compile_llvm_ir(SAXPY, generic).function("saxpy", SAXPY_SPECS)(3.0, x, y)
    np.testing.assert_array_equal(out, np.float32(3) * x + y)


@pytest.mark.parametrize("arguments, message", [
    ({"cpu": "no-such-cpu"}, "unknown target CPU 'no-such-cpu'"),
    ({"features": "+no-such-feature"}, "unknown target feature '\\+no-such-feature'"),
    ({"features": "avx2"}, "target feature 'avx2' must be '\\+name' \\(enable\\) or '-name'"),
    ({"opt_level": 4}, "optimisation level must be 0, 1, 2 or 3, not 4"),
    ({"cpu": ""}, "a target CPU is a non-empty name"),
])
def test_bad_targets(arguments, message, capfd):
    with pytest.raises(TargetError, match=message):
        Target(**arguments)
    assert capfd.readouterr().err == ""  # LLVM's own warning is not shown


# --- native code calling Python ------------------------------------------------------

CALLS_FILL = """
declare void @"test_runtime.fill"(ptr, ptr)

define void @main(ptr %x, ptr %out) {
  call void @"test_runtime.fill"(ptr %x, ptr %out)
  ret void
}
"""
FILL_SPECS = [ArgSpec("x", (4, 3), "float32"), ArgSpec("out", (4, 3), "float32", "output")]


@pytest.fixture
def registered():
    names = []

    def register(name, function):
        register_func(name, function, override=True)
        names.append(name)

    yield register
    for name in names:
        remove_func(name)


def test_native_code_calls_a_registered_function_on_the_callers_buffers(registered):
    seen = {}

    def fill(x, out):
        seen.update(x=data_address(x), out=data_address(out), x_writeable=x.flags.writeable)
        np.multiply(x, 2, out=out)  # writes the caller's buffer: no copy back

    registered("test_runtime.fill", fill)
    bind_python_function("test_runtime.fill", FILL_SPECS)
    main = compile_llvm_ir(CALLS_FILL).function("main", FILL_SPECS)
    x = random_f32(70, (4, 3))
    out = np.zeros((4, 3), np.float32)
    assert main(x, out) is out
    np.testing.assert_array_equal(out, 2 * x)
    assert seen == {"x": data_address(x), "out": data_address(out), "x_writeable": False}


def test_an_exception_in_a_callback_is_raised_after_the_native_call(registered):
    calls = []

    def fails(x, out):
        calls.append(1)
        out[...] = 7
        raise ZeroDivisionError("inside the callback")

    registered("test_runtime.fails", fails)
    bind_python_function("test_runtime.fails", FILL_SPECS)
    main = compile_llvm_ir(CALLS_FILL.replace("test_runtime.fill", "test_runtime.fails")
                           ).function("main", FILL_SPECS)
    x = random_f32(71, (4, 3))
    with pytest.raises(ZeroDivisionError, match="inside the callback") as raised:
        main(x)
    assert raised.value.__notes__ == ["raised in the Python function 'test_runtime.fails', "
                                      "called from native code of 'main'"]
    # the process carries on, and the next call does not see the old error
    out = np.zeros((4, 3), np.float32)
    with pytest.raises(ZeroDivisionError):
        main(x, out)
    assert len(calls) == 2 and (out == 7).all()


def test_a_callback_returning_a_scalar(registered):
    text = """
declare float @"test_runtime.norm"(ptr, i32)

define float @twice_norm(ptr %x) {
  %n = call float @"test_runtime.norm"(ptr %x, i32 3)
  %r = fmul float %n, 2.0
  ret float %r
}
"""
    registered("test_runtime.norm", lambda x, n: float(np.sqrt((x[:n] ** 2).sum())))
    bind_python_function("test_runtime.norm", [ArgSpec("x", (5,), "float32"),
                                               ArgSpec("n", None, "int32")], result="float32")
    function = compile_llvm_ir(text).function("twice_norm", [ArgSpec("x", (5,), "float32")],
                                              result="float32")
    assert function(np.array([3, 4, 12, 100, 100], np.float32)) == np.float32(26)


def test_binding_an_unregistered_function_is_an_error():
    with pytest.raises(LookupError, match="no Python function is registered as "
                                          "'test_runtime.unknown'"):
        bind_python_function("test_runtime.unknown", FILL_SPECS)
