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
        key_pos = p.current_pos()
        key = _key(p, "file metadata dictionary")
        p.parse_punctuation(":")
        if key == "dialect_resources":
            _dictionary(p, "resource", lambda dialect, pos: _blobs(p, dialect, blobs, pos),
                        with_pos=True)
        elif key == "external_resources":
            _dictionary(p, "resource", lambda _: _dictionary(p, "resource",
                                                              lambda _: _value(p), quoted_keys=True))
        else:
            raise p.error(f"unknown key '{key}' in file metadata dictionary", key_pos)
        if p.parse_optional_punctuation("#-}"):
            return
        if not p.parse_optional_punctuation(","):
            raise p.expected("',' or '#-}'")


def _key(p: AsmParser, where: str, quoted: bool = False) -> str:
    """An entry's key: an identifier, or (`quoted`: a resource's handle) a string."""
    m = _KEY.match(p.text, p.pos)
    if m is None or (not quoted and m.group(1).startswith('"')):
        # At the token, not after the text before it: MLIR's resource parser says so.
        message = f"expected identifier key in {where}" if where == "file metadata dictionary" \
            else f"expected identifier key for '{where}' entry"
        pos = p.current_pos()
        raise p.error(message, pos if pos < len(p.text) else max(len(p.text) - 1, 0))
    p.pos = p.last_end = m.end()
    key = m.group(1)
    return p.state.string_value_at(key, m.start(1)) if key.startswith('"') else key


def _dictionary(p: AsmParser, what: str, entry, quoted_keys: bool = False,
                with_pos: bool = False) -> None:
    """`{ key: <entry>, ... }`, `entry(key)` (`entry(key, where the key is)` with
    `with_pos`) reading each value; keys are identifiers (dialect names), or strings
    too with `quoted_keys` (resource handles)."""
    p.parse_punctuation("{")
    if p.parse_optional_punctuation("}"):
        return
    while True:
        key_pos = p.current_pos()
        key = _key(p, what, quoted_keys)
        p.parse_punctuation(":")
        if with_pos:
            entry(key, key_pos)
        else:
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


# Dialects whose resources are blobs (MLIR's builtin and test dialects); mlc keeps
# builtin's, the only ones its attributes refer to, and checks the others.
_BLOB_DIALECTS = ("builtin", "test")


def _blobs(p: AsmParser, dialect: str, blobs: dict[str, tuple[int, bytes]], dialect_pos: int) -> None:
    if dialect not in _BLOB_DIALECTS:
        if p.state.ctx.try_load(dialect) is None:
            raise p.error(f"dialect '{dialect}' is unknown", dialect_pos)
        # mlc's other dialects have no resources (MLIR's OpAsmDialectInterface): their
        # section is an error, at what follows its `{`.
        p.parse_punctuation("{")
        raise p.error(f"unexpected 'resource' section for dialect '{dialect}'", p.current_pos())

    def blob(handle: str) -> None:
        pos = p.current_pos()
        m = _STRING.match(p.text, p.pos)
        hex_digits = _HEX_BLOB.match(m.group(1)) if m is not None else None
        if hex_digits is None or len(hex_digits.group(1)) % 2:
            raise p.error(f"expected hex string blob for key '{handle}'", pos)
        p.pos = p.last_end = m.end()
        raw = bytes.fromhex(hex_digits.group(1))
        if len(raw) < 4:
            raise p.error(f"expected hex string blob for key '{handle}' to encode alignment "
                          "in first 4 bytes", pos)
        alignment = int.from_bytes(raw[:4], "little")
        if alignment == 0 or alignment & (alignment - 1):
            raise p.error(f"expected hex string blob for key '{handle}' to encode alignment "
                          f"in first 4 bytes, but got non-power-of-2 value: {alignment}", pos)
        if dialect == "builtin":
            blobs[handle] = (alignment, raw[4:])

    _dictionary(p, "resource", blob, quoted_keys=True)
