"""Writing output files so that a failed or interrupted write never leaves a partial
or clobbered file behind."""

from __future__ import annotations

import os


def write_text_file(path: str, text: str) -> None:
    """Write `text` (UTF-8) to `path` (see :func:`write_file`)."""
    write_file(path, text.encode("utf-8"))


def write_file(path: str, data: bytes) -> None:
    """Write `data` to `path`. A regular file is written to a temporary file beside it
    and renamed into place, so the old file stays whole until the new one is; a device
    or pipe (/dev/null, /dev/stderr) is written directly, never replaced.
    OSError if the file cannot be written (the temporary file is removed)."""
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "wb") as f:
            f.write(data)
        return
    directory = os.path.dirname(os.path.abspath(path))
    temp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(temp, "wb") as f:
            f.write(data)
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
