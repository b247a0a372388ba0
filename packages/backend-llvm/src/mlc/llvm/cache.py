"""Where mlc keeps what it learns once per machine and reuses across processes: the
compile cache (object code by LLVM IR and target) and measured figures such as a
target's peak.

`MLC_CACHE_DIR` names the folder (default `$XDG_CACHE_HOME/mlc`, else `~/.cache/mlc`);
`MLC_CACHE=0` turns every persistent cache off. Files are written whole, then renamed
into place, so concurrent processes never read a partial file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "read_json", "write_atomically", "update_json"]


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
