"""Every flag and attribute the llvm dialect carries reaches LLVM IR: one module per
kind (instruction flags, symbol linkage and placement, function and argument
attributes, module attributes, loop metadata, typed globals), translated by mlc and by
mlir-translate-22; both texts are parsed by LLVM (llvmlite's LLVM 22) and printed by it,
and must be the same module.
"""

from __future__ import annotations

import re
import subprocess

import pytest
from llvmlite import binding as llvm

from mlc.ir import Context, parse_module
from mlc.llvm.dialect.translation import llvm_ir_as_printed, translate_to_llvm_ir
from tests.unit.test_llvm_translate import _tool

KINDS = {
    "exact": """
llvm.func @f(%a: i64, %b: i64) -> i64 {
  %0 = llvm.udiv exact %a, %b : i64
  %1 = llvm.sdiv exact %0, %b : i64
  %2 = llvm.lshr exact %1, %b : i64
  %3 = llvm.ashr exact %2, %b : i64
  llvm.return %3 : i64
}""",
    "disjoint": """
llvm.func @f(%a: i16, %b: i16) -> i16 {
  %0 = llvm.or disjoint %a, %b : i16
  %1 = llvm.or %0, %b : i16
  llvm.return %1 : i16
}""",
    "nneg": """
llvm.func @f(%a: i8) -> f64 {
  %0 = llvm.zext nneg %a : i8 to i32
  %1 = llvm.uitofp nneg %0 : i32 to f64
  llvm.return %1 : f64
}""",
    "overflow": """
llvm.func @f(%a: i64, %b: i64) -> i16 {
  %0 = llvm.add %a, %b overflow<nsw> : i64
  %1 = llvm.sub %0, %b overflow<nuw> : i64
  %2 = llvm.mul %1, %a overflow<nsw, nuw> : i64
  %3 = llvm.shl %2, %b overflow<nsw, nuw> : i64
  %4 = llvm.trunc %3 overflow<nuw> : i64 to i32
  %5 = llvm.trunc %4 overflow<nsw> : i32 to i16
  llvm.return %5 : i16
}""",
    "fastmath": """
llvm.func @g(f32) -> f32
llvm.func @f(%a: f32, %b: f32, %c: i1) -> f32 {
  %0 = llvm.fadd %a, %b {fastmathFlags = #llvm.fastmath<fast>} : f32
  %1 = llvm.fmul %0, %b {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
  %2 = llvm.fneg %1 {fastmathFlags = #llvm.fastmath<nsz>} : f32
  %3 = llvm.select %c, %2, %a {fastmathFlags = #llvm.fastmath<arcp, contract>} : i1, f32
  %4 = llvm.fcmp "olt" %3, %b {fastmathFlags = #llvm.fastmath<afn, reassoc>} : f32
  %5 = llvm.select %4, %3, %b : i1, f32
  %6 = llvm.call @g(%5) {fastmathFlags = #llvm.fastmath<nnan>} : (f32) -> f32
  llvm.return %6 : f32
}""",
    "gc-section-align": """
llvm.func @collected() attributes {garbageCollector = "statepoint-example",
                                   section = ".text.hot", alignment = 32 : i64} {
  llvm.return
}
llvm.func @declared() attributes {garbageCollector = "shadow-stack"}
llvm.mlir.global internal @placed(7 : i32) {section = ".mydata", alignment = 16 : i64} : i32
""",
    "unnamed-addr": """
llvm.mlir.global private unnamed_addr constant @u(1 : i32) {addr_space = 0 : i32} : i32
llvm.mlir.global private local_unnamed_addr constant @l(2 : i32) {addr_space = 0 : i32} : i32
llvm.func local_unnamed_addr @lf() {
  llvm.return
}
llvm.func unnamed_addr @uf() {
  llvm.return
}""",
    "linkage-visibility": """
llvm.mlir.global weak hidden @w(1 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global linkonce_odr protected @o(2 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global external @d(3 : i64) {addr_space = 0 : i32, dso_local} : i64
llvm.mlir.global external thread_local @t(4 : i64) {addr_space = 0 : i32} : i64
llvm.mlir.global external @e() {addr_space = 0 : i32} : i64
llvm.func internal @i() {
  llvm.return
}
llvm.func hidden @h() {
  llvm.return
}
llvm.func weak_odr protected @p() {
  llvm.return
}
llvm.func @local() attributes {dso_local} {
  llvm.return
}""",
    "function-attributes": """
llvm.func @passthrough() attributes {passthrough = [["alignstack", "16"],
    "null_pointer_is_valid", "noinline", ["foo", "bar"], "quux"]} {
  llvm.return
}
llvm.func @named() attributes {no_inline, no_unwind, will_return, target_cpu = "skylake",
                               tune_cpu = "generic", prefer_vector_width = "256"} {
  llvm.return
}
llvm.func @inlined() attributes {always_inline} {
  llvm.return
}
llvm.func @frozen() attributes {optimize_none, no_inline} {
  llvm.return
}
llvm.func @framed() attributes {frame_pointer = #llvm.framePointerKind<"all">,
    uwtable_kind = #llvm.uwtableKind<async>,
    target_features = #llvm.target_features<["+avx2", "-avx512f"]>} {
  llvm.return
}""",
    "argument-attributes": """
llvm.func @f(%p: !llvm.ptr {llvm.noalias, llvm.nonnull, llvm.align = 16 : i64},
             %q: !llvm.ptr {llvm.noundef, llvm.readonly, llvm.dereferenceable = 8 : i64},
             %n: i8 {llvm.zeroext}) -> (i32 {llvm.signext}) {
  %0 = llvm.sext %n : i8 to i32
  llvm.return %0 : i32
}""",
    "module": """
module attributes {llvm.data_layout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128",
                   llvm.target_triple = "x86_64-unknown-linux-gnu",
                   llvm.ident = "mlc test", llvm.module_asm = ["nop", ".globl x"]} {
  llvm.func @f() {
    llvm.return
  }
}""",
    "loop-metadata": """
#followup = #llvm.loop_annotation<disableNonforced = true>
#loop = #llvm.loop_annotation<mustProgress = true, isVectorized = false,
    vectorize = <disable = false, width = 8 : i32, followupAll = #followup>,
    interleave = <count = 2 : i32>,
    unroll = <disable = false, count = 4 : i32, runtimeDisable = true, full = false>,
    licm = <disable = true, versioningDisable = true>,
    distribute = <disable = true>, pipeline = <disable = false, initiationinterval = 3 : i32>,
    peeled = <count = 1 : i32>, unswitch = <partialDisable = true>>
// The blocks in reverse post-order, mlc's order (MLIR keeps the source's).
llvm.func @loop(%n: i32) {
  %0 = llvm.mlir.constant(0 : i32) : i32
  %1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^head(%0 : i32)
^head(%i: i32):
  %c = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %c, ^body, ^exit {loop_annotation = #loop}
^exit:
  llvm.return
^body:
  %next = llvm.add %i, %1 : i32
  llvm.br ^head(%next : i32) {loop_annotation = #loop}
}""",
    "memory": """
llvm.func @f(%p: !llvm.ptr, %q: !llvm.ptr) -> f32 {
  %0 = llvm.load volatile %p {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.store volatile %0, %q : i64, !llvm.ptr
  %1 = llvm.load %p atomic syncscope("singlethread") acquire {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %1, %q atomic release {alignment = 4 : i64} : f32, !llvm.ptr
  %2 = llvm.load %p {nontemporal} : !llvm.ptr -> f32
  llvm.store %2, %q {nontemporal} : f32, !llvm.ptr
  %3 = llvm.load %p invariant : !llvm.ptr -> f32
  %4 = llvm.load %q invariant_group : !llvm.ptr -> f32
  llvm.store %3, %q invariant_group : f32, !llvm.ptr
  %5 = llvm.fadd %3, %4 : f32
  llvm.return %5 : f32
}""",
    "call-site": """
llvm.func @g(i32) -> i32
llvm.func @f(%a: i32) -> i32 {
  %0 = llvm.call @g(%a) {no_inline} : (i32) -> i32
  %1 = llvm.call @g(%0) {convergent, no_unwind, will_return} : (i32) -> i32
  %2 = llvm.call tail @g(%1) {always_inline} : (i32) -> i32
  %3 = llvm.call @g(%2) {inline_hint} : (i32) -> i32
  llvm.return %3 : i32
}
llvm.func @streaming() attributes {arm_streaming, arm_inout_za} {
  llvm.return
}""",
    "profile-and-module-metadata": """
module attributes {llvm.commandline = "exec -o infile", llvm.dependent_libraries = ["foo", "bar"], llvm.target_triple = "x86_64-pc-windows-msvc"} {
  llvm.func external @f() attributes { nvvm.maxnreg = 10 : i32 }
  llvm.func @functionEntryCount() attributes {function_entry_count = 4242 : i64} {
    llvm.return
  }
  llvm.func @cond_br_weights(%cond : i1, %arg0 : i32,  %arg1 : i32) -> i32 {
    llvm.cond_br %cond weights([5, 10]), ^bb1, ^bb2
  ^bb1:
    llvm.return %arg0 : i32
  ^bb2:
    llvm.return %arg1 : i32
  }
  llvm.func @switch_weights(%arg0: i32) -> i32 {
    %0 = llvm.mlir.constant(19 : i32) : i32
    llvm.switch %arg0 : i32, ^bb1(%0 : i32) [
      9: ^bb2,
      99: ^bb2
    ] {branch_weights = array<i32 : 13, 17, 19>}
  ^bb1(%3: i32):
    llvm.return %3 : i32
  ^bb2:
    llvm.return %arg0 : i32
  }
}""",
    "initializer-region": """
llvm.func @target() {
  llvm.return
}
llvm.mlir.global internal constant @address() : !llvm.ptr {
  %0 = llvm.mlir.addressof @target : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.global linkonce @forward() : !llvm.ptr {
  %0 = llvm.mlir.addressof @later : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
llvm.mlir.global linkonce @later() : f32
llvm.mlir.global internal @pair() : !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)> {
  %c = llvm.mlir.constant(7 : i32) : i32
  %b = llvm.mlir.constant(3 : i8) : i8
  %0 = llvm.mlir.undef : !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)>
  %1 = llvm.mlir.addressof @pair : !llvm.ptr
  // At offset 0: MLIR's IRBuilder folds other constant GEPs to `(i8, ptr @pair, i64 N)`,
  // the same address mlc writes as the GEP itself.
  %2 = llvm.getelementptr %1[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)>
  %3 = llvm.insertvalue %c, %0[0] : !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)>
  %4 = llvm.insertvalue %2, %3[1] : !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)>
  %5 = llvm.insertvalue %b, %4[2, 1] : !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)>
  llvm.return %5 : !llvm.struct<(i32, !llvm.ptr, array<2 x i8>)>
}""",
    "global-attributes": """
llvm.mlir.global external @only() {target_specific_attrs = [["memory", "0"], ["k", "4"],
    "flag", ["key", "value"]]} : f64
llvm.mlir.global external @combined(2 : i32) {alignment = 4 : i64, section = "s",
    target_specific_attrs = ["norecurse", ["bss-section", "my_bss.1"]]} : i32
llvm.func @f() attributes {passthrough = ["nounwind"]} {
  llvm.return
}""",
    "function-metadata": """
llvm.func @hinted() attributes {work_group_size_hint = array<i32: 128, 64, 1>}
llvm.func @required() attributes {reqd_work_group_size = array<i32: 8, 8, 2>,
                                  intel_reqd_sub_group_size = 16 : i32}
llvm.func @counted() attributes {function_entry_count = 99 : i64,
                                 work_group_size_hint = array<i32: 1, 2, 3>} {
  llvm.return
}""",
    "bfloat": """
llvm.func @f(%a: bf16) -> bf16 {
  %0 = llvm.mlir.constant(3.14159 : bf16) : bf16
  %1 = llvm.fadd %a, %0 {fastmathFlags = #llvm.fastmath<fast>} : bf16
  llvm.return %1 : bf16
}""",
    "typed-globals": """
llvm.mlir.global internal @floats(dense<[1.5, -0.0, 3.0, 4.25]> : tensor<4xf32>)
    {addr_space = 0 : i32} : !llvm.array<4 x f32>
llvm.mlir.global internal constant @ints(dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>)
    {addr_space = 0 : i32} : !llvm.array<2 x array<2 x i32>>
llvm.mlir.global internal @negzero(dense<-0.0> : tensor<1xf64>)
    {addr_space = 0 : i32} : !llvm.array<1 x f64>
llvm.mlir.global internal @vec(dense<[1, 2, 3, 4]> : vector<4xi16>)
    {addr_space = 0 : i32} : vector<4xi16>
llvm.mlir.global internal constant @str("hi\\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @blob(dense_resource<weights> : vector<1x2x2xf32>)
    {addr_space = 0 : i32} : !llvm.array<1 x array<2 x vector<2 x f32>>>
llvm.func @first() -> f32 {
  %0 = llvm.mlir.addressof @floats : !llvm.ptr
  %1 = llvm.load %0 : !llvm.ptr -> f32
  llvm.return %1 : f32
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000C00000404000008000"
    }
  }
#-}""",
}


def as_llvm_prints_it(text: str) -> str:
    """`text` parsed and verified by LLVM, printed by it with local names numbered; the
    module's name and source file (which name the tools, not the program) left out, and
    each phi's entries sorted (their order, which means nothing, follows each tool's
    walk of the predecessors)."""
    module = llvm.parse_assembly(text)
    module.verify()
    printed = llvm_ir_as_printed(module)
    printed = re.sub(r"^(; ModuleID|source_filename) .*\n", "", printed, flags=re.MULTILINE)
    return re.sub(r"(phi \S+ )(\[.*\])$",
                  lambda m: m[1] + ", ".join(sorted(re.findall(r"\[[^\]]*\]", m[2]))),
                  printed, flags=re.MULTILINE)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_translation_keeps_what_mlir_translate_keeps(kind):
    source = KINDS[kind]
    ours = as_llvm_prints_it(translate_to_llvm_ir(parse_module(source, Context())))
    done = subprocess.run([_tool("mlir-translate"), "--mlir-to-llvmir"], input=source,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert ours == as_llvm_prints_it(done.stdout)


def test_each_kind_shows_in_the_text():
    """The comparison above cannot pass by both sides dropping a kind: each kind's mark
    is in mlc's text (checked by hand against LLVM's LangRef spelling)."""
    marks = {"exact": "udiv exact", "disjoint": "or disjoint", "nneg": "uitofp nneg",
             "overflow": "trunc nuw i64", "fastmath": "fmul nnan ninf",
             "gc-section-align": 'gc "statepoint-example"',
             "unnamed-addr": "local_unnamed_addr constant",
             "linkage-visibility": "weak hidden global",
             "function-attributes": '"foo"="bar"', "argument-attributes": "noalias",
             "module": 'target datalayout = "e-m:e', "loop-metadata": "llvm.loop.unroll.count",
             "typed-globals": "[4 x float] [float 1.5", "bfloat": "fadd fast bfloat %0, 0xR4049",
             "memory": "load atomic float, ptr %0 syncscope", "call-site": "tail call i32 @g",
             "profile-and-module-metadata": '!"branch_weights", i32 13, i32 17, i32 19',
             "initializer-region": "{ i32 7, ptr @pair, [2 x i8] [i8 undef, i8 3] }",
             "global-attributes": '{ norecurse "bss-section"="my_bss.1" }',
             "function-metadata": "declare !reqd_work_group_size"}
    assert set(marks) == set(KINDS)
    for kind, mark in marks.items():
        text = as_llvm_prints_it(translate_to_llvm_ir(parse_module(KINDS[kind], Context())))
        assert mark in text, (kind, text)


def test_no_typed_pointers_at_o0(tmp_path):
    """LLVM 22 reads opaque pointers only: mlc-translate's -O0 text has no `T*`."""
    from mlc.tools.translate import main

    source = tmp_path / "g.mlir"
    source.write_text(KINDS["typed-globals"])
    out = tmp_path / "g.ll"
    assert main([str(source), "-o", str(out)]) == 0
    text = out.read_text()
    assert "ptr @floats" in text and not re.search(r"\]\*|\w\*", text)


def test_without_an_implicit_module_the_input_is_one_op():
    from mlc.ir.diagnostics import DiagnosticError

    op = parse_module("llvm.func @f()\n", Context(), implicit_module=False)
    assert op.name == "llvm.func"
    with pytest.raises(DiagnosticError, match="single top-level operation, found: 2"):
        parse_module("llvm.func @f()\nllvm.func @g()\n", Context(), implicit_module=False)


def test_a_tensor_initializer_fills_an_array_of_vectors():
    """mlir-translate-22 writes a tensor<1x2x2xf32> initializer of an array of vectors as
    nested arrays, which LLVM rejects; mlc writes the vectors, in order."""
    source = KINDS["typed-globals"].replace("dense_resource<weights> : vector<1x2x2xf32>",
                                            "dense_resource<weights> : tensor<1x2x2xf32>")
    text = as_llvm_prints_it(translate_to_llvm_ir(parse_module(source, Context())))
    assert ("[2 x <2 x float>] [<2 x float> <float 1.000000e+00, float -2.000000e+00>, "
            "<2 x float> <float 3.000000e+00") in text
