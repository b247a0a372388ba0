"""Interoperation with MLIR's own `mlir-opt` on IR of the builtin, func and arith
dialects (and unregistered ops).

For every input below:

- mlir-opt reads mlc's output (generic and custom, with and without locations) as the
  same IR: `mlir-opt(mlc-opt(x)) == mlir-opt(x)`;
- mlc reads mlir-opt's output (custom, generic, with locations) as the same IR:
  `mlc-opt(mlir-opt(x)) == mlc-opt(x)`, up to the names of values and blocks, which
  mlir-opt chooses itself and mlc keeps as it reads them.

mlir-opt is `mlir-opt-22`, else `mlir-opt`, on PATH. Without it these tests are
skipped, except in CI (CI=true), where a missing mlir-opt fails them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

MLC_OPT = Path(sys.executable).parent / "mlc-opt"
INSTALL_HINT = ("install MLIR's tools to run them: `apt-get install mlir-22-tools` "
                "(provides mlir-opt-22)")


def find_mlir_opt() -> str | None:
    for name in ("mlir-opt-22", "mlir-opt"):
        path = shutil.which(name)
        if path:
            return path
    return None


def require_mlir_opt() -> str:
    """mlir-opt's path; else skip the test, or fail it when CI is "true"."""
    path = find_mlir_opt()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"neither mlir-opt-22 nor mlir-opt is on PATH; CI must have it: "
                        f"{INSTALL_HINT}")
        pytest.skip(f"neither mlir-opt-22 nor mlir-opt is on PATH; {INSTALL_HINT}")
    return path


@pytest.fixture(scope="module")
def mlir_opt() -> str:
    return require_mlir_opt()


# ------------------------------------------------------------------ inputs

CASES: dict[str, str] = {}

CASES["arith_float"] = """\
func.func @float_ops(%a: f32, %b: f32, %v: vector<4xf32>, %t: tensor<2x?xf64>, %h: f16, %bf: bf16) -> f32 {
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %0, %b fastmath<fast> : f32
  %2 = arith.mulf %1, %1 fastmath<nnan,ninf> : f32
  %3 = arith.divf %2, %a : f32
  %4 = arith.remf %3, %a fastmath<reassoc,contract> : f32
  %5 = arith.negf %4 : f32
  %6 = arith.maximumf %5, %a : f32
  %7 = arith.minimumf %6, %b fastmath<nsz> : f32
  %8 = arith.addf %v, %v fastmath<afn> : vector<4xf32>
  %9 = arith.mulf %t, %t : tensor<2x?xf64>
  %10 = arith.addf %h, %h : f16
  %11 = arith.mulf %bf, %bf fastmath<arcp> : bf16
  %12 = arith.cmpf oge, %7, %b : f32
  %13 = arith.cmpf uno, %v, %v fastmath<nnan> : vector<4xf32>
  %14 = arith.cmpf true, %h, %h : f16
  %15 = arith.select %12, %7, %b : f32
  %16 = arith.select %13, %v, %v : vector<4xi1>, vector<4xf32>
  return %15 : f32
}
"""

CASES["arith_int"] = """\
func.func @int_ops(%a: i32, %b: i32, %i: index, %t: tensor<4xi8>, %v: vector<2x2xi64>, %c: i1) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %0, %b overflow<nsw> : i32
  %2 = arith.muli %1, %1 overflow<nsw, nuw> : i32
  %3 = arith.divsi %2, %a : i32
  %4 = arith.divui %3, %a : i32
  %5 = arith.remsi %4, %b : i32
  %6 = arith.remui %5, %b : i32
  %7 = arith.andi %6, %a : i32
  %8 = arith.ori %7, %a : i32
  %9 = arith.xori %8, %a : i32
  %10 = arith.addi %i, %i overflow<nuw> : index
  %11 = arith.muli %t, %t : tensor<4xi8>
  %12 = arith.xori %v, %v : vector<2x2xi64>
  %13 = arith.andi %c, %c : i1
  %14 = arith.cmpi eq, %9, %a : i32
  %15 = arith.cmpi ne, %i, %i : index
  %16 = arith.cmpi slt, %t, %t : tensor<4xi8>
  %17 = arith.cmpi uge, %v, %v : vector<2x2xi64>
  %18 = arith.select %14, %9, %b : i32
  %19 = arith.select %16, %t, %t : tensor<4xi1>, tensor<4xi8>
  return %18 : i32
}
"""

CASES["arith_casts"] = """\
func.func @casts(%i: i32, %x: index, %f: f32, %h: f16, %bf: bf16, %d: f64, %l: i64, %v: vector<4xi32>, %t: tensor<2xf32>) {
  %0 = arith.index_cast %x : index to i32
  %1 = arith.index_cast %i : i32 to index
  %2 = arith.sitofp %i : i32 to f32
  %3 = arith.uitofp %i : i32 to f64
  %4 = arith.fptosi %f : f32 to i32
  %5 = arith.fptoui %f : f32 to i64
  %6 = arith.extf %h : f16 to f32
  %7 = arith.extf %bf : bf16 to f64
  %8 = arith.truncf %d : f64 to f16
  %9 = arith.extsi %i : i32 to i64
  %10 = arith.extui %i : i32 to i64
  %11 = arith.sitofp %v : vector<4xi32> to vector<4xf32>
  %12 = arith.fptosi %t : tensor<2xf32> to tensor<2xi16>
  return
}
"""

CASES["arith_constants"] = """\
func.func @constants() {
  %c0 = arith.constant 0 : index
  %c42_i32 = arith.constant 42 : i32
  %c-1_i8 = arith.constant -1 : i8
  %c-128_i8 = arith.constant -128 : i8
  %c1_i128 = arith.constant 1 : i128
  %true = arith.constant true
  %false = arith.constant false
  %cst = arith.constant 1.500000e+00 : f32
  %cst_0 = arith.constant -0.000000e+00 : f64
  %cst_1 = arith.constant 0x7FC00000 : f32
  %cst_2 = arith.constant 0xFF800000 : f32
  %cst_3 = arith.constant 3.000000e+00 : bf16
  %cst_4 = arith.constant 6.550400e+04 : f16
  %cst_5 = arith.constant 1.000000e-300 : f64
  %cst_6 = arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  %cst_7 = arith.constant dense<7> : tensor<8xi32>
  %cst_8 = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %cst_9 = arith.constant dense<"0x0100000002000000"> : tensor<2xi32>
  %cst_10 = arith.constant dense<-1> : tensor<i64>
  %cst_11 = arith.constant dense<[0x7FC00000, 1.000000e+00]> : vector<2xf32>
  %cst_12 = arith.constant dense<> : tensor<0xi32>
  return
}
"""

CASES["func"] = """\
module {
  func.func private @decl(i32, f32) -> (i1, index)
  func.func nested @nested_decl()
  func.func private @decl_attrs(i32 {foo.a = 1 : i64}, f32) -> (i1 {foo.r})
  func.func public @pub() {
    return
  }
  func.func @args(%arg0: i32 {foo.a = 1 : i64}, %arg1: memref<4xf32> {foo.b, foo.c = "x"}) -> (i32 {foo.r}, f32) attributes {foo.fn = "y"} {
    %cst = arith.constant 1.000000e+00 : f32
    %0:2 = call @multi(%arg0) : (i32) -> (i32, f32)
    %1:2 = func.call @multi(%0#0) : (i32) -> (i32, f32)
    call @pub() : () -> ()
    %2:2 = call @decl(%1#0, %cst) : (i32, f32) -> (i1, index)
    %3 = call @recursive(%2#1) {foo.call} : (index) -> index
    return %1#0, %cst : i32, f32
  }
  func.func @multi(%arg0: i32) -> (i32, f32) {
    %cst = arith.constant 2.000000e+00 : f32
    return %arg0, %cst : i32, f32
  }
  func.func @recursive(%arg0: index) -> index {
    %0 = call @recursive(%arg0) : (index) -> index
    return %0 : index
  }
}
"""

CASES["builtin_modules"] = """\
module @top attributes {foo.attr = 1 : i64, foo.s = "x"} {
  module @inner {
    func.func private @f()
  }
  module {
  }
  "builtin.module"() <{sym_name = "generic"}> ({
    func.func private @g(tensor<2xf32>) -> tensor<2xf32>
  }) {foo.k} : () -> ()
}
"""

CASES["types"] = """\
func.func private @integers(i1, i8, i32, i64, i1024, si8, ui16)
func.func private @floats(f16, bf16, f32, f64)
func.func private @misc(index, none)
func.func private @tensors(tensor<f32>, tensor<0xf32>, tensor<2x?x4xf32>, tensor<4xf32, "enc">)
func.func private @memrefs(memref<f32>, memref<4x?xf32>, memref<4x?xf32, strided<[?, 1], offset: ?>>, memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<2xf32, "gpu">)
func.func private @vectors(vector<4xf32>, vector<2x3xi1>, vector<4xindex>)
func.func private @tuples(tuple<>, tuple<i32, f32>, tuple<tuple<>, i32>)
func.func private @functions(() -> (), (i32) -> f32, (i32, f32) -> (f32, i1), (i32) -> ((i32) -> i32))
"""

CASES["attributes"] = """\
"foo.op"() {
  i = 42 : i8, j = -1 : i64, k = 5 : index, u = 2 : ui8, s = -2 : si8,
  b = true, c = false,
  f = 1.500000e+00 : f64, g = 1.000000e-01 : f32, h = 0x7F800000 : f32, bf = 1.000000e+00 : bf16,
  str = "tab\\09nl\\0Aquote\\22backslash\\\\", empty = "", utf8 = "caf\\C3\\A9",
  unit_attr, unit2 = unit,
  sym = @f, nested = @outer::@inner::@leaf, quoted = @"with space",
  ty = i32, fty = (i32) -> (), dty = !foo.ty,
  arr = [1, "two", 3.000000e+00 : f16, @sym, i32, [], unit], nest = [[@a], {k = [1]}],
  dict = {x = 1 : i64, y = "s", z = {}},
  da = array<i32: 1, 2, 3>, df = array<f32: 1.000000e+00, 2.500000e+00>, de = array<i64>, db = array<i1: true, false>,
  d1 = dense<1.000000e+00> : tensor<2x3xf32>, d2 = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>,
  d3 = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, d4 = dense<[true, false]> : tensor<2xi1>,
  d5 = dense<[1, 2]> : tensor<2xindex>, d6 = dense<[[1.500000e+00, 2.500000e+00]]> : vector<1x2xf16>,
  map = affine_map<(d0) -> (d0 + 1)>, strided = strided<[?, 1], offset: ?>,
  dattr = #foo.attr<"x", 1>, opaque = #foo<"opaque">
} : () -> ()
"""

CASES["locations"] = """\
func.func @f(%arg0: i32 loc("arg.mlir":1:5)) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32 loc("f.mlir":1:2)
  %1 = arith.addi %0, %arg0 : i32 loc("name"("f.mlir":3:4))
  %2 = arith.addi %1, %arg0 : i32 loc(fused["a.mlir":1:1, "b.mlir":2:2])
  %3 = arith.addi %2, %arg0 : i32 loc(fused<"meta">["a.mlir":1:1])
  %4 = arith.addi %3, %arg0 : i32 loc(callsite("callee.mlir":1:1 at "caller.mlir":2:2))
  %5 = arith.addi %4, %arg0 : i32 loc(unknown)
  %6 = arith.addi %5, %arg0 : i32 loc(#loc1)
  %7 = arith.addi %6, %arg0 : i32 loc(#loc2)
  %8 = arith.addi %7, %arg0 : i32
  return %8 : i32 loc("ret.mlir":9:9)
} loc("fn.mlir":1:1)
#loc1 = loc("alias.mlir":7:7)
#loc2 = loc(callsite(#loc1 at "n"("n.mlir":3:3)))
"""

CASES["resources"] = """\
func.func @f() -> tensor<2xi32> {
  %cst = arith.constant dense_resource<blob1> : tensor<2xi32>
  %cst_0 = arith.constant dense_resource<blob2> : tensor<3xf32>
  return %cst : tensor<2xi32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000100000002000000",
      blob2: "0x040000000000803F0000004000004040"
    }
  }
#-}
"""

CASES["unregistered"] = """\
func.func @branches(%arg0: i32, %arg1: i1) -> i32 {
  %0:2 = "foo.two"(%arg0) : (i32) -> (i32, f32)
  %1 = arith.addi %0#0, %0#0 : i32
  "foo.cond_br"(%arg1) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  "foo.br"() [^bb3] : () -> ()
^bb2:
  "foo.br"() [^bb3] : () -> ()
^bb3:
  %2 = "foo.use"(%0#1, %1) {attr = 1 : i64} : (f32, i32) -> i32
  return %2 : i32
}
func.func @regions(%arg0: index) {
  %0 = "foo.region"() ({
    %1 = "foo.val"() : () -> i32
    "foo.yield"(%1) : (i32) -> ()
  }, {
  ^bb0(%arg1: index, %arg2: f32):
    "foo.yield"() : () -> ()
  }) {k = "v"} : () -> i64
  "foo.sink"(%0, %arg0) : (i64, index) -> ()
  return
}
%top = "foo.top"() : () -> !foo.type<"x">
"""

# Inputs on which mlc has known bugs: name -> (input, {check: reason}).
BUG_CASES: dict[str, tuple[str, dict[str, str]]] = {}

BUG_CASES["unrealized_cast"] = ("""\
func.func @casts(%arg0: i32) -> f32 {
  %0 = builtin.unrealized_conversion_cast %arg0 : i32 to f32
  %1:2 = builtin.unrealized_conversion_cast %arg0, %0 : i32, f32 to i64, f64
  return %0 : f32
}
""", dict.fromkeys(
    ["mlir_reads_our_generic", "mlir_reads_our_generic_with_locations", "mlir_reads_our_custom",
     "we_read_mlir_custom", "we_read_mlir_generic", "we_read_mlir_with_locations",
     "we_read_mlir_generic_with_locations"],
    "BUG: the custom form of builtin.unrealized_conversion_cast does not parse ('cannot infer "
    "the result types')"))

BUG_CASES["trunci"] = ("""\
func.func @f(%arg0: i64) {
  %0 = arith.trunci %arg0 : i64 to i8
  return
}
""", {"we_read_mlir_generic": "BUG: arith.trunci lacks MLIR 22's overflowFlags property: "
                             "mlir-opt's <{overflowFlags = ...}> becomes a discardable "
                             "attribute",
      "we_read_mlir_generic_with_locations": "BUG: arith.trunci lacks MLIR 22's overflowFlags "
                                             "property"})

BUG_CASES["name_locations"] = ("""\
func.func @f(%arg0: i32 loc("x")) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32 loc("name")
  return %0 : i32 loc(fused["a", "b"("c":1:2)])
}
""", dict.fromkeys(
    ["mlir_reads_our_generic", "mlir_reads_our_generic_with_locations", "mlir_reads_our_custom",
     "we_read_mlir_custom", "we_read_mlir_generic", "we_read_mlir_with_locations",
     "we_read_mlir_generic_with_locations"],
    "BUG: a name location without a child location, loc(\"name\"), is an internal error"))

BUG_CASES["unregistered_properties"] = ("""\
%0 = "foo.props"() <{prop = 1 : i32}> {d = "x"} : () -> i8
""", dict.fromkeys(
    ["mlir_reads_our_generic", "mlir_reads_our_generic_with_locations", "mlir_reads_our_custom"],
    "BUG: properties of unregistered ops are merged into their attribute dictionary"))

BUG_CASES["leading_dynamic_dims"] = ("""\
func.func private @f(tensor<?xf32>, tensor<*xf32>, memref<*xi8>)
""", dict.fromkeys(
    ["mlir_reads_our_generic", "mlir_reads_our_generic_with_locations", "mlir_reads_our_custom",
     "we_read_mlir_custom", "we_read_mlir_generic", "we_read_mlir_with_locations",
     "we_read_mlir_generic_with_locations"],
    "BUG: shapes starting with '?' or '*' do not lex"))

BUG_CASES["signless_int_canonical"] = ("""\
func.func @f() -> i8 {
  %c-1_i8 = arith.constant 255 : i8
  return %c-1_i8 : i8
}
""", dict.fromkeys(
    ["we_read_mlir_custom", "we_read_mlir_generic", "we_read_mlir_with_locations",
     "we_read_mlir_generic_with_locations"],
    "BUG: signless integers keep their spelling (255 : i8) instead of MLIR's signed value "
    "(-1 : i8), so mlc's print of mlir-opt's output differs"))

UNREGISTERED = {"attributes", "unregistered", "unregistered_properties"}

CHECKS = ["mlir_reads_our_generic", "mlir_reads_our_generic_with_locations",
          "mlir_reads_our_custom", "we_read_mlir_custom", "we_read_mlir_generic",
          "we_read_mlir_with_locations", "we_read_mlir_generic_with_locations"]


# Bug cases fixed since they were filed, by case and check (all of them, so far).
FIXED: dict[str, set[str]] = {name: set(bugs) for name, (_, bugs) in BUG_CASES.items()}


def _params(check: str):
    params = [pytest.param(name, id=name) for name in CASES]
    for name, (_, bugs) in BUG_CASES.items():
        bugs = {k: v for k, v in bugs.items() if k not in FIXED.get(name, ())}
        # Only where mlir-opt runs: without it, these skip (or fail in CI) like the rest.
        marks = ([pytest.mark.xfail(find_mlir_opt() is not None, strict=True, reason=bugs[check])]
                 if check in bugs else [])
        params.append(pytest.param(name, id=name, marks=marks))
    return params


# ------------------------------------------------------------------ helpers


def source(name: str) -> str:
    return CASES[name] if name in CASES else BUG_CASES[name][0]


def dialect_flags(name: str) -> list[str]:
    return ["--allow-unregistered-dialect"] if name in UNREGISTERED else []


def run_tool(argv: list[str], stdin: str | None = None) -> str:
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, (f"{' '.join(map(str, argv))} failed "
                                    f"({result.returncode}):\n{result.stderr}")
    assert "Traceback" not in result.stderr
    return result.stdout


def mlc(path_or_text: Path | str, *flags: str) -> str:
    if isinstance(path_or_text, Path):
        return run_tool([str(MLC_OPT), str(path_or_text), *flags])
    return run_tool([str(MLC_OPT), "-", *flags], stdin=path_or_text)


def mlir(mlir_opt: str, path_or_text: Path | str, *flags: str) -> str:
    if isinstance(path_or_text, Path):
        return run_tool([mlir_opt, str(path_or_text), *flags])
    return run_tool([mlir_opt, "-", *flags], stdin=path_or_text)


_VALUE_RE = re.compile(r"%[A-Za-z0-9_$.\-]+")
_RESULTS_RE = re.compile(r"^\s*(%[^=\"]*?) = ")


def normalize_names(text: str) -> str:
    """Every value renamed %v0, %v1, ... in the order of the definitions.

    A definition is a result before ` = ` at the start of a line, or an argument
    (`%x: type`); a use takes the name of the latest definition of its name (a use
    before any definition gets a fresh name). mlir-opt names values itself where mlc
    keeps the names it reads; this maps the same IR to the same text. Block names are
    kept: the inputs use mlir-opt's (^bb0, ^bb1, ...).
    """
    current: dict[str, str] = {}
    count = 0

    def fresh(name: str) -> str:
        nonlocal count
        current[name] = f"%v{count}"
        count += 1
        return current[name]

    out = []
    for line in text.split("\n"):
        results = _RESULTS_RE.match(line)
        defs_end = results.end(1) if results else 0
        pieces = []
        pos = 0
        for m in _VALUE_RE.finditer(line):
            name = m.group()
            is_def = m.start() < defs_end or line.startswith(": ", m.end())
            pieces.append(line[pos:m.start()])
            if is_def or name not in current:
                pieces.append(fresh(name))
            else:
                pieces.append(current[name])
            pos = m.end()
        pieces.append(line[pos:])
        out.append("".join(pieces))
    return "\n".join(out)


@pytest.fixture
def input_file(tmp_path, request) -> Path:
    name = request.node.callspec.params["name"]
    path = tmp_path / f"{name}.mlir"
    path.write_text(source(name), encoding="utf-8")
    return path


# ------------------------------------------------------------------ mlir-opt reads mlc


@pytest.mark.parametrize("name", _params("mlir_reads_our_generic"))
def test_mlir_reads_our_generic(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    ours = mlc(input_file, "--print-op-generic", *flags)
    assert mlir(mlir_opt, ours, *flags) == mlir(mlir_opt, input_file, *flags)
    assert (mlir(mlir_opt, ours, "--mlir-print-op-generic", *flags)
            == mlir(mlir_opt, input_file, "--mlir-print-op-generic", *flags))


@pytest.mark.parametrize("name", _params("mlir_reads_our_generic_with_locations"))
def test_mlir_reads_our_generic_with_locations(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    ours = mlc(input_file, "--print-op-generic", "--print-debuginfo", *flags)
    assert (mlir(mlir_opt, ours, "--mlir-print-debuginfo", *flags)
            == mlir(mlir_opt, input_file, "--mlir-print-debuginfo", *flags))


@pytest.mark.parametrize("name", _params("mlir_reads_our_custom"))
def test_mlir_reads_our_custom(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    ours = mlc(input_file, *flags)
    assert mlir(mlir_opt, ours, *flags) == mlir(mlir_opt, input_file, *flags)


# ------------------------------------------------------------------ mlc reads mlir-opt


@pytest.mark.parametrize("name", _params("we_read_mlir_custom"))
def test_we_read_mlir_custom(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    theirs = mlir(mlir_opt, input_file, *flags)
    assert normalize_names(mlc(theirs, *flags)) == normalize_names(mlc(input_file, *flags))
    assert (normalize_names(mlc(theirs, "--print-op-generic", *flags))
            == normalize_names(mlc(input_file, "--print-op-generic", *flags)))


@pytest.mark.parametrize("name", _params("we_read_mlir_generic"))
def test_we_read_mlir_generic(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    theirs = mlir(mlir_opt, input_file, "--mlir-print-op-generic", *flags)
    assert normalize_names(mlc(theirs, *flags)) == normalize_names(mlc(input_file, *flags))
    assert (normalize_names(mlc(theirs, "--print-op-generic", *flags))
            == normalize_names(mlc(input_file, "--print-op-generic", *flags)))


@pytest.mark.parametrize("name", _params("we_read_mlir_with_locations"))
def test_we_read_mlir_with_locations(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    theirs = mlir(mlir_opt, input_file, "--mlir-print-debuginfo", *flags)
    assert (normalize_names(mlc(theirs, "--print-debuginfo", *flags))
            == normalize_names(mlc(input_file, "--print-debuginfo", *flags)))


@pytest.mark.parametrize("name", _params("we_read_mlir_generic_with_locations"))
def test_we_read_mlir_generic_with_locations(mlir_opt, input_file, name):
    flags = dialect_flags(name)
    theirs = mlir(mlir_opt, input_file, "--mlir-print-op-generic", "--mlir-print-debuginfo",
                  *flags)
    assert (normalize_names(mlc(theirs, "--print-op-generic", "--print-debuginfo", *flags))
            == normalize_names(mlc(input_file, "--print-op-generic", "--print-debuginfo",
                                   *flags)))


# ------------------------------------------------------------------ the helpers themselves


def test_normalize_names():
    a = ("func.func @f(%arg0: i32) {\n  %cst = arith.constant 1 : i32\n"
         "  %0:2 = \"x.y\"(%cst, %arg0) : (i32, i32) -> (i32, i32)\n  return %0#1 : i32\n}\n"
         "func.func @g(%arg0: i32) {\n  %cst = arith.constant 2 : i32\n  return %cst : i32\n}\n")
    b = ("func.func @f(%x: i32) {\n  %0 = arith.constant 1 : i32\n"
         "  %1:2 = \"x.y\"(%0, %x) : (i32, i32) -> (i32, i32)\n  return %1#1 : i32\n}\n"
         "func.func @g(%arg0: i32) {\n  %0 = arith.constant 2 : i32\n  return %0 : i32\n}\n")
    assert normalize_names(a) == normalize_names(b)
    assert normalize_names("%a, %b = x\ny %a") != normalize_names("%a, %b = x\ny %b")
    assert normalize_names("%0, %c-1_i8 = x\n y %0#1") == "%v0, %v1 = x\n y %v0#1"


def test_missing_mlir_opt_skips_or_fails_in_ci():
    """The fixture's policy, with PATH emptied: a skip naming the install command, or
    (CI=true) a failure."""
    script = (
        "import os, sys, pytest\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "os.environ['PATH'] = ''\n"
        "import test_mlir_interop as t\n"
        "assert t.find_mlir_opt() is None\n"
        "try:\n"
        "    t.require_mlir_opt()\n"
        "except BaseException as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    here = str(Path(__file__).parent)
    for ci, expected in (("", "Skipped"), ("true", "Failed")):
        env = dict(os.environ, CI=ci)
        result = subprocess.run([sys.executable, "-c", script, here], capture_output=True,
                                text=True, env=env, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(expected), result.stdout
        assert "apt-get install mlir-22-tools" in result.stdout
