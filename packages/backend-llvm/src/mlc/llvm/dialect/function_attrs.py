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


@llvm.attribute
class FramePointerKindAttr(DialectAttribute):
    """`#llvm.framePointerKind<"non-leaf">`: which functions keep a frame pointer."""

    name = "llvm.framePointerKind"
    kind: str

    @classmethod
    def parse(cls, p: AsmParser) -> FramePointerKindAttr:
        p.parse_punctuation("<")
        pos = p.current_pos()
        kind = p.parse_string()
        if kind not in FRAME_POINTER_KINDS:
            raise p.error(f"expected one of {', '.join(FRAME_POINTER_KINDS)} for frame pointer "
                          f"kind, got '{kind}'", pos)
        p.parse_punctuation(">")
        return cls(kind)

    def print(self, w) -> None:
        w.write(f'<"{self.kind}">')


@llvm.attribute
class UWTableKindAttr(DialectAttribute):
    """`#llvm.uwtableKind<sync>`: the unwind table a function has."""

    name = "llvm.uwtableKind"
    kind: str

    @classmethod
    def parse(cls, p: AsmParser) -> UWTableKindAttr:
        p.parse_punctuation("<")
        pos = p.current_pos()
        kind = p.parse_keyword()
        if kind not in UNWIND_TABLE_KINDS:
            raise p.error(f"expected one of {', '.join(UNWIND_TABLE_KINDS)} for uwtable kind, "
                          f"got '{kind}'", pos)
        p.parse_punctuation(">")
        return cls(kind)

    def print(self, w) -> None:
        w.write(f"<{self.kind}>")


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
                if not feature.startswith(("+", "-")) or "," in feature:
                    raise p.error("target features must start with '+' or '-' and contain "
                                  "no ','", pos)
                features.append(feature)
                if not p.parse_optional_comma():
                    break
            p.parse_punctuation("]")
        p.parse_punctuation(">")
        return cls(tuple(features))

    def print(self, w) -> None:
        w.write("<[" + ", ".join(f'"{f}"' for f in self.features) + "]>")
