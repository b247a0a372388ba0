"""Hostile input, class by class (issue 22): files, flags, arrays, shared libraries and
params files that once crashed the process by a signal, ended in a traceback or a
foreign exception, or were accepted when they should not be. Each now ends in one clear
mlc error (exit status 1 from a tool; a `mlc.*Error` from Python), with no file left
behind. What could kill the process runs in a child process, so a regression is a
failed test with the signal named, not a dead test run."""

from __future__ import annotations

import signal
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mlc.graph import GraphBuilder
from mlc.llvm.build import build
from mlc.llvm.export import ExportError
from mlc.llvm.library_seal import SEAL_SIZE, SealError, check_elf_library, seal_library
from mlc.llvm.loader import ModuleLoadError, load_module


def run_python(program: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `program` in a fresh interpreter; fail naming the signal if one ended it."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(program)],
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode < 0:
        pytest.fail(f"the process was killed by {signal.Signals(-done.returncode).name}:\n"
                    f"{done.stderr}")
    return done


def small_model():
    b = GraphBuilder()
    x = b.param("x", (2, 3))
    w = b.const(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
    return build(b.module(b.relu(b.dense(x, w))))


@pytest.fixture(scope="module")
def exported(c_compiler, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("library") / "model.so"
    small_model().export_library(path)
    return path


# ------------------------------------------------------------------ shared libraries


def test_truncated_or_modified_libraries_are_refused_before_loading(exported, tmp_path):
    """dlopen of a truncated library died by SIGBUS: now the seal is checked first."""
    data = exported.read_bytes()
    cases = {"half": data[:len(data) // 2], "without_seal": data[:-SEAL_SIZE],
             "one_byte_short": data[:-1], "empty": b"",
             "flipped": data[:100] + bytes([data[100] ^ 0xFF]) + data[101:],
             "extended": data + b"\0" * 4096}
    for name, content in cases.items():
        (tmp_path / f"{name}.so").write_bytes(content)
        (tmp_path / f"{name}.params.npz").write_bytes(
            exported.with_name("model.params.npz").read_bytes())
    done = run_python(f"""
        from mlc.llvm.loader import ModuleLoadError, load_module
        for name in {sorted(cases)!r}:
            try:
                load_module({str(tmp_path)!r} + "/" + name + ".so")
                print(name, "LOADED")
            except ModuleLoadError as error:
                print(name, str(error).split(": ", 1)[1])
    """)
    assert done.returncode == 0, done.stderr
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert said["half"] == said["one_byte_short"] == said["empty"] == said["extended"] == (
        "refused before loading: not a library exported by mlc, or truncated: it ends "
        "without the seal export_library writes")
    assert said["without_seal"].startswith("refused before loading: not a library")
    assert said["flipped"] == ("refused before loading: the library does not have the "
                               "checksum recorded at export (modified since)")


def test_a_library_for_another_machine_is_refused(exported, tmp_path):
    payload = bytearray(exported.read_bytes()[:-SEAL_SIZE])
    machine = struct.unpack_from("<H", payload, 18)[0]
    struct.pack_into("<H", payload, 18, machine ^ 0x7F)
    (tmp_path / "other.so").write_bytes(seal_library(bytes(payload)))
    with pytest.raises(ModuleLoadError, match=f"built for ELF machine {machine ^ 0x7F}, "
                                              f"this process runs on {machine}"):
        load_module(tmp_path / "other.so")


def test_elf_headers_pointing_outside_the_file_are_refused(exported):
    payload = bytearray(exported.read_bytes()[:-SEAL_SIZE])
    program_headers = struct.unpack_from("<Q", payload, 32)[0]
    struct.pack_into("<Q", payload, 32, len(payload))
    with pytest.raises(SealError, match="program headers lie outside the file"):
        check_elf_library(bytes(payload))
    struct.pack_into("<Q", payload, 32, program_headers)
    # The first loadable segment's size made to reach past the end.
    struct.pack_into("<Q", payload, program_headers + 56 + 32, len(payload))
    with pytest.raises(SealError, match=r"its segment \d+ ends at byte \d+, past the end"):
        check_elf_library(bytes(payload))
    with pytest.raises(SealError, match="not an ELF file"):
        check_elf_library(b"MZ" + bytes(100))


def test_corrupt_truncated_or_replaced_weights_are_refused(exported, tmp_path):
    """A corrupt params file was a zipfile.BadZipFile from numpy."""
    weights = exported.with_name("model.params.npz").read_bytes()
    library = tmp_path / "model.so"
    library.write_bytes(exported.read_bytes())
    params = tmp_path / "model.params.npz"
    for content, message in [
            (weights[:len(weights) // 2], r"model.params.npz is \d+ bytes, the export wrote"),
            (weights[:40] + b"\xff" + weights[41:], "does not have the checksum recorded"),
            (b"PK\x03\x04 garbage", r"is 12 bytes, the export wrote")]:
        params.write_bytes(content)
        with pytest.raises(ModuleLoadError, match=message):
            load_module(library)
    params.unlink()
    params.mkdir()
    with pytest.raises(ModuleLoadError, match="unreadable weights"):
        load_module(library)


def test_exporting_onto_a_directory_leaves_nothing_behind(c_compiler, tmp_path):
    """It was an IsADirectoryError, leaving `.NAME.NNNN.tmp` and NAME.params.npz."""
    model = small_model()
    (tmp_path / "model.so").mkdir()
    with pytest.raises(ExportError, match="it is a directory"):
        model.export_library(tmp_path / "model.so")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.so"]
    (tmp_path / "file").write_text("")
    with pytest.raises(ExportError, match="cannot write the library"):
        model.export_library(tmp_path / "file" / "model.so")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "model.so"]
