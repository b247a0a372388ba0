"""The seal of an exported library: what lets the loader check a file before the
dynamic loader maps it.

A shared library is mapped, not read: `dlopen` of a truncated file maps pages past its
end, and touching them kills the process with SIGBUS; a corrupted one may jump
anywhere. So the loader never hands an unchecked file to `dlopen`. At export the
library's bytes get a trailer, the seal:

    [the ELF file][b"MLCSEAL1"][size of the ELF file: u64 LE][SHA-256 of the ELF file]

(the dynamic loader ignores bytes after what the ELF headers describe). Before loading,
`read_sealed_library` reads the whole file, checks the seal (a truncated file has
none, a modified one another checksum), then the ELF header (class, byte order, type
and machine of this process; every program segment inside the file), and returns the
checked bytes; the loader maps a private copy of exactly those bytes, so the file
changing afterwards cannot matter. Other files a library needs (its weights) are
checked by the size and checksum its metadata records (`file_digest`).

This module imports only the standard library: a deployment runs it without the
compiler.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import struct
import sys
import tempfile
from pathlib import Path

__all__ = ["SEAL_MAGIC", "SEAL_SIZE", "SealError", "seal_library", "read_sealed_library",
           "check_elf_library", "file_digest", "check_digest", "digest_of_file", "load_checked"]

SEAL_MAGIC = b"MLCSEAL1"
_SEAL = struct.Struct("<8sQ32s")
SEAL_SIZE = _SEAL.size
"""Bytes the seal adds to a library (48)."""


class SealError(ValueError):
    """A file that is not what its seal or recorded digest says it should be."""


def file_digest(data: bytes) -> dict[str, object]:
    """The size and SHA-256 of `data`, as metadata records them."""
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def check_digest(data: bytes, digest: object, what: str) -> None:
    """SealError unless `data` has the size and SHA-256 `digest` (from file_digest)
    records."""
    if not isinstance(digest, dict) or not isinstance(digest.get("size"), int) \
            or not isinstance(digest.get("sha256"), str):
        raise SealError(f"the metadata records no valid digest of {what}")
    if len(data) != digest["size"]:
        raise SealError(f"{what} is {len(data)} bytes, the export wrote {digest['size']} "
                        "(truncated or replaced since)")
    if hashlib.sha256(data).hexdigest() != digest["sha256"]:
        raise SealError(f"{what} does not have the checksum recorded at export (modified "
                        "since)")


def seal_library(data: bytes) -> bytes:
    """`data` (a linked shared library) followed by its seal."""
    return data + _SEAL.pack(SEAL_MAGIC, len(data), hashlib.sha256(data).digest())


def read_sealed_library(path: Path) -> bytes:
    """The library in the file at `path` (without its seal), checked as the module
    docstring says; SealError saying what is wrong, OSError if it cannot be read."""
    data = path.read_bytes()
    if len(data) < SEAL_SIZE or data[-SEAL_SIZE:-SEAL_SIZE + len(SEAL_MAGIC)] != SEAL_MAGIC:
        raise SealError("not a library exported by mlc, or truncated: it ends without the "
                        "seal export_library writes")
    magic, size, checksum = _SEAL.unpack(data[-SEAL_SIZE:])
    payload = data[:-SEAL_SIZE]
    if size != len(payload):
        raise SealError(f"the library is {len(payload)} bytes, its seal says {size} "
                        "(truncated or extended since export)")
    if hashlib.sha256(payload).digest() != checksum:
        raise SealError("the library does not have the checksum recorded at export "
                        "(modified since)")
    if sys.platform.startswith("linux"):
        check_elf_library(payload)
    return payload


# ------------------------------------------------------------------ ELF

_ELF_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")
_ET_DYN = 3
_PT_LOAD = 1


def _host_machine() -> int | None:
    """The ELF machine number of this process (from its own executable), None when it
    cannot be read."""
    try:
        with open("/proc/self/exe", "rb") as exe:
            header = exe.read(20)
    except OSError:
        return None
    if len(header) < 20 or header[:4] != b"\x7fELF":
        return None
    return struct.unpack("<H" if header[5] == 1 else ">H", header[18:20])[0]


def check_elf_library(data: bytes) -> None:
    """SealError unless `data` is a 64-bit little-endian ELF shared object for this
    machine whose headers and loadable segments lie inside it."""
    if len(data) < _ELF_HEADER.size or data[:4] != b"\x7fELF":
        raise SealError("not an ELF file")
    if data[4] != 2 or data[5] != 1 or sys.byteorder != "little" or struct.calcsize("P") != 8:
        raise SealError("not a 64-bit little-endian ELF file, which this machine runs")
    (_, e_type, e_machine, _, _, e_phoff, e_shoff, _, _, e_phentsize, e_phnum,
     e_shentsize, e_shnum, _) = _ELF_HEADER.unpack_from(data)
    if e_type != _ET_DYN:
        raise SealError(f"not a shared object (ELF type {e_type})")
    host = _host_machine()
    if host is not None and e_machine != host:
        raise SealError(f"built for ELF machine {e_machine}, this process runs on {host}")
    if e_phentsize != _PROGRAM_HEADER.size or e_phnum == 0 \
            or e_phoff + e_phnum * e_phentsize > len(data):
        raise SealError("its program headers lie outside the file")
    if e_shnum and e_shoff + e_shnum * e_shentsize > len(data):
        raise SealError("its section headers lie outside the file")
    for i in range(e_phnum):
        p_type, _, p_offset, _, _, p_filesz, _, _ = _PROGRAM_HEADER.unpack_from(
            data, e_phoff + i * e_phentsize)
        if p_type == _PT_LOAD and p_offset + p_filesz > len(data):
            raise SealError(f"its segment {i} ends at byte {p_offset + p_filesz}, past the "
                            f"end of the file ({len(data)} bytes)")


def digest_of_file(path: Path) -> dict[str, object]:
    """file_digest of the file at `path`, read in pieces (weights may be large)."""
    sha = hashlib.sha256()
    size = 0
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            sha.update(chunk)
            size += len(chunk)
    return {"size": size, "sha256": sha.hexdigest()}


def load_checked(data: bytes, name: str) -> ctypes.CDLL:
    """`dlopen` a private copy of `data` (checked library bytes), so that what runs is
    what was checked: a new file in a new private directory, removed once mapped; where
    the temporary directory forbids mapping code (mounted noexec), an anonymous memory
    file (Linux) kept open for the process's life, as the library is never unloaded
    and its name must not be reused. OSError when neither loads."""
    mode = os.RTLD_NOW | os.RTLD_LOCAL  # a symbol nothing defines fails here, not mid-call
    directory = tempfile.mkdtemp(prefix="mlc-library-")
    target = os.path.join(directory, name)
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o700)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        return ctypes.CDLL(target, mode=mode)
    except OSError as first:
        if not hasattr(os, "memfd_create"):
            raise
        descriptor = os.memfd_create(name, getattr(os, "MFD_CLOEXEC", 1))
        with open(descriptor, "wb", closefd=False) as stream:
            stream.write(data)
        try:
            library = ctypes.CDLL(f"/proc/self/fd/{descriptor}", mode=mode)
        except OSError:
            os.close(descriptor)
            raise first from None
        _KEPT_OPEN.append(descriptor)
        return library
    finally:
        if os.path.exists(target):
            os.unlink(target)
        os.rmdir(directory)


_KEPT_OPEN: list[int] = []
