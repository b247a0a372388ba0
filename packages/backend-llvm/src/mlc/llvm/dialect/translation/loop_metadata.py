"""`#llvm.loop_annotation<...>` as LLVM's loop metadata: the `!llvm.loop` node of the
loop's latch branch, a distinct node that names itself first, then one node per hint
(`!{!"llvm.loop.unroll.count", i32 4}`), in the order MLIR's LoopAnnotationTranslation
writes them. A follow-up (`followupAll = #llvm.loop_annotation<...>`) is a loop node of
its own. llvmlite's metadata cannot name itself, so the loop node writes its own text.

    node = loop_metadata(t, op.attributes["loop_annotation"], op.loc)
    branch.set_metadata("llvm.loop", node)
"""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.attributes import Attribute, IntegerAttr, Location
from mlc.llvm.dialect.translation.core import ModuleTranslation, translation_error
from mlc.llvm.dialect.types import LoopAnnotationAttr


class _LoopNode(ir.values.MDValue):
    """`!N = distinct !{!N, hints...}`: a loop's identity and its hints."""

    def descr(self, buf):
        references = [self.get_reference(), *(op.get_reference() for op in self.operands)]
        buf += (f"distinct !{{{', '.join(references)}}}", "\n")


# A hint: (parameter, node name, how its value is written):
#   "unit"      a node of the name alone, if the value is true
#   "unit-not"  ... if the value is false
#   "enable"    `!{name, i1 !value}` (MLIR's `disable = false` is `enable, i1 true`)
#   "bool"      `!{name, i1 value}`
#   "i32"       `!{name, i32 value}`
#   "followup"  `!{name, !loop-node}`
_Hint = tuple[str, str, str]
_HINTS: dict[str, tuple[_Hint, ...]] = {
    "llvm.loop_vectorize": (
        ("disable", "llvm.loop.vectorize.enable", "enable"),
        ("predicateEnable", "llvm.loop.vectorize.predicate.enable", "bool"),
        ("scalableEnable", "llvm.loop.vectorize.scalable.enable", "bool"),
        ("width", "llvm.loop.vectorize.width", "i32"),
        ("followupVectorized", "llvm.loop.vectorize.followup_vectorized", "followup"),
        ("followupEpilogue", "llvm.loop.vectorize.followup_epilogue", "followup"),
        ("followupAll", "llvm.loop.vectorize.followup_all", "followup")),
    "llvm.loop_interleave": (("count", "llvm.loop.interleave.count", "i32"),),
    "llvm.loop_unroll": (
        ("disable", "llvm.loop.unroll.disable", "unit"),
        ("disable", "llvm.loop.unroll.enable", "unit-not"),
        ("count", "llvm.loop.unroll.count", "i32"),
        ("runtimeDisable", "llvm.loop.unroll.runtime.disable", "bool"),
        ("full", "llvm.loop.unroll.full", "unit"),
        ("followupUnrolled", "llvm.loop.unroll.followup_unrolled", "followup"),
        ("followupRemainder", "llvm.loop.unroll.followup_remainder", "followup"),
        ("followupAll", "llvm.loop.unroll.followup_all", "followup")),
    "llvm.loop_unroll_and_jam": (
        ("disable", "llvm.loop.unroll_and_jam.disable", "unit"),
        ("disable", "llvm.loop.unroll_and_jam.enable", "unit-not"),
        ("count", "llvm.loop.unroll_and_jam.count", "i32"),
        ("followupOuter", "llvm.loop.unroll_and_jam.followup_outer", "followup"),
        ("followupInner", "llvm.loop.unroll_and_jam.followup_inner", "followup"),
        ("followupRemainderOuter", "llvm.loop.unroll_and_jam.followup_remainder_outer",
         "followup"),
        ("followupRemainderInner", "llvm.loop.unroll_and_jam.followup_remainder_inner",
         "followup"),
        ("followupAll", "llvm.loop.unroll_and_jam.followup_all", "followup")),
    "llvm.loop_licm": (
        ("disable", "llvm.licm.disable", "unit"),
        ("versioningDisable", "llvm.loop.licm_versioning.disable", "unit")),
    "llvm.loop_distribute": (
        ("disable", "llvm.loop.distribute.enable", "enable"),
        ("followupCoincident", "llvm.loop.distribute.followup_coincident", "followup"),
        ("followupSequential", "llvm.loop.distribute.followup_sequential", "followup"),
        ("followupFallback", "llvm.loop.distribute.followup_fallback", "followup"),
        ("followupAll", "llvm.loop.distribute.followup_all", "followup")),
    "llvm.loop_pipeline": (
        ("disable", "llvm.loop.pipeline.disable", "bool"),
        ("initiationinterval", "llvm.loop.pipeline.initiationinterval", "i32")),
    "llvm.loop_peeled": (("count", "llvm.loop.peeled.count", "i32"),),
    "llvm.loop_unswitch": (("partialDisable", "llvm.loop.unswitch.partial.disable", "unit"),),
}
# The annotation's own hints, then its option groups, in MLIR's order.
_ANNOTATION_HINTS: tuple[_Hint, ...] = (
    ("disableNonforced", "llvm.loop.disable_nonforced", "unit"),
    ("mustProgress", "llvm.loop.mustprogress", "unit"),
    ("isVectorized", "llvm.loop.isvectorized", "i32"),
)
_OPTION_GROUPS = ("vectorize", "interleave", "unroll", "unrollAndJam", "licm", "distribute",
                  "pipeline", "peeled", "unswitch")


def loop_metadata(t: ModuleTranslation, annotation: Attribute, loc: Location | None
                  ) -> ir.values.MDValue:
    """The `!llvm.loop` node of `annotation`, one per distinct annotation in the module
    (two latches of one loop share it, as in MLIR)."""
    if not isinstance(annotation, LoopAnnotationAttr):
        raise translation_error(f"expected a #llvm.loop_annotation, got {annotation}", loc)
    cached = t.loop_nodes.get(annotation)
    if cached is not None:
        return cached
    for unsupported in ("parallelAccesses", "startLoc", "endLoc"):
        if annotation.get(unsupported) is not None:
            raise translation_error(f"cannot translate the loop annotation's '{unsupported}' "
                                    "(access groups and debug locations are not translated)",
                                    loc)
    hints = _hint_nodes(t, annotation, _ANNOTATION_HINTS, loc)
    for group in _OPTION_GROUPS:
        options = annotation.get(group)
        if options is not None:
            hints += _hint_nodes(t, options, _HINTS[options.name], loc)
    node = _LoopNode(t.module, hints, name=str(len(t.module.metadata)))
    t.loop_nodes[annotation] = node
    return node


def _hint_nodes(t: ModuleTranslation, attr, hints: tuple[_Hint, ...], loc
                ) -> list[ir.values.MDValue]:
    module = t.module
    nodes = []
    for parameter, name, form in hints:
        value = attr.get(parameter)
        if value is None:
            continue
        operands: list = [ir.MetaDataString(module, name)]
        if form == "followup":
            operands.append(loop_metadata(t, value, loc))
        else:
            if not isinstance(value, IntegerAttr):
                raise translation_error(f"loop hint '{parameter}' must be an integer or a "
                                        f"boolean, got {value}", loc)
            number = value.value
            if form == "unit" and not number or form == "unit-not" and number:
                continue
            if form == "enable":
                operands.append(ir.Constant(ir.IntType(1), int(not number)))
            elif form == "bool":
                operands.append(ir.Constant(ir.IntType(1), int(bool(number))))
            elif form == "i32":
                operands.append(ir.Constant(ir.IntType(32), number))
        nodes.append(module.add_metadata(operands))
    return nodes
