"""Where mlc keeps what it learns once per machine and reuses across processes: the
compile caches (object code by LLVM IR and target, whole builds by model and options)
and measured figures such as a target's peak.

`MLC_CACHE_DIR` names the folder (default `$XDG_CACHE_HOME/mlc`, else `~/.cache/mlc`);
`MLC_CACHE=0` turns every persistent cache off. Files are written whole, then renamed
into place, so concurrent processes never read a partial file and never both half-write
one.

Cache entries (:func:`store_entry`, :func:`load_entry`) are single files: a header
(JSON, with the SHA-256 of the payload) and named blobs. An entry whose checksum does
not match is a miss and is deleted, so a truncated or damaged file is never handed to
the loader. Entries together stay under `MLC_CACHE_SIZE` bytes (default 2 GiB;
suffixes K, M, G): storing one evicts the least recently used.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import warnings
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "read_json", "write_atomically", "update_json", "store_entry",
           "load_entry", "cache_size_limit", "ENTRY_KINDS"]

ENTRY_KINDS = ("objects", "builds")
"""The folders of cache entries: object code by LLVM IR (mlc.llvm.jit), builds by model
(mlc.llvm.build_cache)."""

_MAGIC = b"MLC-CACHE-ENTRY-1\n"
_DEFAULT_SIZE = 2 << 30


def cache_dir() -> Path | None:
    """The cache folder (created on demand), or None when caching is off or the folder
    cannot be made."""
    if os.environ.get("MLC_CACHE", "1").strip() in ("0", "off", "false", "no"):
        return None
    base = os.environ.get("MLC_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "mlc")
    path = Path(base)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def write_atomically(path: Path, data: bytes) -> bool:
    """Write `data` to `path` through a temporary file in the same folder and a rename;
    False (nothing written) when the file system refuses."""
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.replace(temp, path)
        return True
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
        return False


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in `path`, or {} when it is missing or not a JSON object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def update_json(name: str, key: str, value: Any) -> None:
    """Set `key` in the JSON object cached as `name` (nothing when caching is off)."""
    folder = cache_dir()
    if folder is None:
        return
    path = folder / name
    data = read_json(path)
    data[key] = value
    write_atomically(path, json.dumps(data, indent=1, sort_keys=True).encode())


def cache_size_limit() -> int:
    """The bytes all cache entries may take: `MLC_CACHE_SIZE` (a number of bytes, or
    with a K, M or G suffix), default 2 GiB. ValueError when it is not a size."""
    text = os.environ.get("MLC_CACHE_SIZE", "").strip()
    if not text:
        return _DEFAULT_SIZE
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1].upper(), 1)
    digits = text[:-1] if scale != 1 else text
    try:
        value = int(float(digits) * scale)
    except ValueError:
        raise ValueError(f"MLC_CACHE_SIZE={text!r} is not a size (bytes, or with a K, M or "
                         "G suffix)") from None
    if value < 0:
        raise ValueError(f"MLC_CACHE_SIZE={text!r} is negative")
    return value


def _entry_path(kind: str, key: str) -> Path | None:
    if kind not in ENTRY_KINDS:
        raise ValueError(f"unknown cache entry kind {kind!r}")
    folder = cache_dir()
    if folder is None:
        return None
    return folder / kind / key


def store_entry(kind: str, key: str, header: dict[str, Any], blobs: dict[str, bytes]) -> bool:
    """Keep `header` (JSON-serialisable) and the named `blobs` as the entry `key` of
    `kind`; False when caching is off or the file system refuses (a cache never fails
    a build). Evicts the least recently used entries beyond the size limit."""
    path = _entry_path(kind, key)
    if path is None:
        return False
    digest = hashlib.sha256()
    sizes = []
    for name, blob in blobs.items():
        digest.update(blob)
        sizes.append([name, len(blob)])
    head = json.dumps({"header": header, "blobs": sizes, "sha256": digest.hexdigest()},
                      sort_keys=True).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    data = b"".join([_MAGIC, struct.pack("<Q", len(head)), head, *blobs.values()])
    if not write_atomically(path, data):
        return False
    try:
        limit = cache_size_limit()
    except ValueError as exc:  # the entry is kept; the setting is reported
        warnings.warn(f"{exc}; the cache is not trimmed", stacklevel=2)
        return True
    _evict(limit, keep=path)
    return True


def load_entry(kind: str, key: str) -> tuple[dict[str, Any], dict[str, bytes]] | None:
    """The header and blobs stored as `key` of `kind`, or None (a miss) when there is
    none, caching is off, or the file is not a whole entry (then it is deleted)."""
    path = _entry_path(kind, key)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    entry = _parse_entry(data)
    if entry is None:
        try:
            path.unlink()
        except OSError:
            pass
        return None
    try:
        os.utime(path)  # recently used: evicted last
    except OSError:
        pass
    return entry


def _parse_entry(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]] | None:
    start = len(_MAGIC) + 8
    if len(data) < start or not data.startswith(_MAGIC):
        return None
    (length,) = struct.unpack_from("<Q", data, len(_MAGIC))
    try:
        head = json.loads(data[start:start + length])
        sizes = [(str(name), int(size)) for name, size in head["blobs"]]
        header, checksum = head["header"], head["sha256"]
    except (ValueError, KeyError, TypeError):
        return None
    offset = start + length
    if offset + sum(size for _, size in sizes) != len(data) or not isinstance(header, dict):
        return None
    if hashlib.sha256(memoryview(data)[offset:]).hexdigest() != checksum:
        return None
    blobs = {}
    for name, size in sizes:
        blobs[name] = data[offset:offset + size]
        offset += size
    return header, blobs


def _evict(limit: int, keep: Path) -> None:
    """Delete the least recently used entries until all fit in `limit` bytes (never
    `keep`, the entry just stored). Entries another process deletes meanwhile are
    skipped."""
    folder = cache_dir()
    if folder is None:
        return
    entries = []
    for kind in ENTRY_KINDS:
        try:
            with os.scandir(folder / kind) as found:
                for item in found:
                    if item.name.startswith("."):
                        continue
                    try:
                        stat = item.stat()
                    except OSError:
                        continue
                    entries.append((stat.st_mtime, stat.st_size, Path(item.path)))
        except OSError:
            continue
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        if path == keep:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
