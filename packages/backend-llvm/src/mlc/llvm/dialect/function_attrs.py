"""The llvm dialect's attributes of functions that LLVM writes as function attributes:

    #llvm.framePointerKind<"non-leaf">     "frame-pointer"="non-leaf"
    #llvm.uwtableKind<sync>                uwtable(sync)
    #llvm.target_features<["+avx2", "-avx512f"]>   "target-features"="+avx2,-avx512f"
"""

from __future__ import annotations

from mlc.ir.core.attributes import DialectAttribute
from mlc.ir.text.asm_parser import AsmParser
from mlc.llvm.dialect.types import llvm

FRAME_POINTER_KINDS = ("none", "non-leaf", "all", "reserved", "non-leaf-no-reserve")
UNWIND_TABLE_KINDS = ("none", "sync", "async")


class _KindAttr(DialectAttribute):
    """An attribute holding one of `KINDS`, written `<kind>` (or `<"kind">` when
    `QUOTED`)."""

    KINDS: tuple[str, ...] = ()
    QUOTED = False
    WHAT = ""

    @classmethod
    def parse(cls, p: AsmParser):
        p.parse_punctuation("<")
        pos = p.current_pos()
        kind = p.parse_string() if cls.QUOTED else p.parse_keyword()
        if kind not in cls.KINDS:
            raise p.error(f"expected one of {', '.join(cls.KINDS)} for {cls.WHAT}, got '{kind}'",
                          pos)
        p.parse_punctuation(">")
        return cls(kind)

    def print(self, w) -> None:
        w.write(f'<"{self.kind}">' if self.QUOTED else f"<{self.kind}>")


@llvm.attribute
class FramePointerKindAttr(_KindAttr):
    """`#llvm.framePointerKind<"non-leaf">`: which functions keep a frame pointer."""

    name = "llvm.framePointerKind"
    kind: str
    KINDS = FRAME_POINTER_KINDS
    QUOTED = True
    WHAT = "frame pointer kind"
    parse = vars(_KindAttr)["parse"]  # the text layer looks for a class's own parse/print
    print = _KindAttr.print


@llvm.attribute
class UWTableKindAttr(_KindAttr):
    """`#llvm.uwtableKind<sync>`: the unwind table a function has."""

    name = "llvm.uwtableKind"
    kind: str
    KINDS = UNWIND_TABLE_KINDS
    WHAT = "uwtable kind"
    parse = vars(_KindAttr)["parse"]
    print = _KindAttr.print


@llvm.attribute
class TargetFeaturesAttr(DialectAttribute):
    """`#llvm.target_features<["+sve", "-neon"]>`: CPU features a function may use, each
    `+` or `-` and a name."""

    name = "llvm.target_features"
    features: tuple[str, ...]

    @classmethod
    def parse(cls, p: AsmParser) -> TargetFeaturesAttr:
        p.parse_punctuation("<")
        p.parse_punctuation("[")
        features: list[str] = []
        if not p.parse_optional_punctuation("]"):
            while True:
                pos = p.current_pos()
                feature = p.parse_string()
                # MLIR's checks, in its order and words.
                if not feature:
                    raise p.error("target features can not be null or empty", pos)
                if not feature.startswith(("+", "-")):
                    raise p.error("target features must start with '+' or '-'", pos)
                if "," in feature:
                    raise p.error("target features can not contain ','", pos)
                features.append(feature)
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation("]")
        p.parse_punctuation(">")
        return cls(tuple(features))

    def print(self, w) -> None:
        w.write("<[" + ", ".join(f'"{f}"' for f in self.features) + "]>")
