"""The file metadata section: `{-# dialect_resources: {...}, external_resources: {...} #-}`.

MLIR keeps large constants (`dense_resource<handle>`) as hex blobs in this section, at
the top level of the file, possibly several times and between ops. This reads one
section with the parser API, where its `{-#` token was met, into the context's blob
table (handle -> (alignment, bytes)); other dialects' and external resources are
checked for shape and kept out of the way.
"""

from __future__ import annotations

import re

from mlc.ir.text.asm_parser import AsmParser
from mlc.ir.text.lexer import SKIP_RE

# Strings as "unrolled loops" ([^"\\]* runs in one step), not one alternation per
# character: blobs are tens of megabytes of hex.
_STRING = re.compile(SKIP_RE + r'("[^"\\\n]*(?:\\.[^"\\\n]*)*")')
_KEY = re.compile(SKIP_RE + r'([A-Za-z_][\w$.\-]*|"[^"\\\n]*(?:\\.[^"\\\n]*)*")')
_HEX_BLOB = re.compile(r'"0x([0-9a-fA-F]*)"\Z')


def parse_file_metadata(p: AsmParser, blobs: dict[str, tuple[int, bytes]]) -> None:
    """Read the rest of a section whose `{-#` was just read, adding builtin blobs to
    `blobs`."""
    while True:
        key = _key(p, "file metadata dictionary")
        p.parse_punctuation(":")
        if key == "dialect_resources":
            _dictionary(p, "resource", lambda dialect: _blobs(p, dialect, blobs))
        elif key == "external_resources":
            _dictionary(p, "resource", lambda _: _dictionary(p, "resource",
                                                              lambda _: _value(p)))
        else:
            raise p.error(f"unknown key '{key}' in file metadata dictionary",
                          p.error_pos_before(p.pos) - len(key))
        if p.parse_optional_punctuation("#-}"):
            return
        if not p.parse_optional_punctuation(","):
            raise p.expected("',' or '#-}'")


def _key(p: AsmParser, where: str) -> str:
    m = _KEY.match(p.text, p.pos)
    if m is None:
        raise p.expected(f"identifier key for '{where}' entry")
    p.pos = p.last_end = m.end()
    key = m.group(1)
    return p.state.string_value_at(key, m.start(1)) if key.startswith('"') else key


def _dictionary(p: AsmParser, what: str, entry) -> None:
    """`{ key: <entry>, ... }`, `entry(key)` reading each value."""
    p.parse_punctuation("{")
    if p.parse_optional_punctuation("}"):
        return
    while True:
        key = _key(p, what)
        p.parse_punctuation(":")
        entry(key)
        if p.parse_optional_punctuation("}"):
            return
        if not p.parse_optional_punctuation(","):
            raise p.expected("',' or '}'")


def _value(p: AsmParser) -> None:
    """A resource value another dialect or tool owns: a string, a bool or a blob."""
    if p.parse_optional_keyword(("true", "false")) is None:
        _string(p)


def _string(p: AsmParser) -> tuple[str, int]:
    m = _STRING.match(p.text, p.pos)
    if m is None:
        raise p.expected("string, bool or hex blob as resource value")
    p.pos = p.last_end = m.end()
    return m.group(1), m.start(1)


def _blobs(p: AsmParser, dialect: str, blobs: dict[str, tuple[int, bytes]]) -> None:
    if dialect != "builtin":
        _dictionary(p, "resource", lambda _: _value(p))
        return

    def blob(handle: str) -> None:
        text, pos = _string(p)
        m = _HEX_BLOB.match(text)
        if m is None or len(m.group(1)) % 2 or len(m.group(1)) < 8:
            raise p.error(f"expected hex string blob for key '{handle}'", pos)
        raw = bytes.fromhex(m.group(1))
        alignment = int.from_bytes(raw[:4], "little")
        if alignment == 0 or alignment & (alignment - 1):
            raise p.error(f"expected hex string blob for key '{handle}' to encode alignment "
                          f"in first 4 bytes, but got non-power-of-2 value: {alignment}", pos)
        blobs[handle] = (alignment, raw[4:])

    _dictionary(p, "resource", blob)
