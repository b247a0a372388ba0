"""onnxruntime, the reference the ONNX benchmarks compare mlc with, in its own venv
(`benchmarks/.work/ort-venv`, created on first use; never a dependency of mlc), with
the onnx mlc pins so both read the same test cases.

    python = ort_python()                       # Path, or a reason string
    result = run_json(python, SCRIPT, *args)    # a script's JSON stdout, or a reason
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

WORK_DIR = Path(__file__).resolve().parent / ".work"
ORT_VENV = WORK_DIR / "ort-venv"


def _requirements() -> list[str]:
    import onnx

    return ["onnxruntime", "numpy", f"onnx=={onnx.__version__}"]


def ort_python() -> Path | str:
    """The ort venv's python, creating or completing the venv on first use; a reason
    string when onnxruntime cannot be installed (no network, say)."""
    python = ORT_VENV / "bin" / "python"
    import onnx

    check = [str(python), "-c", f"import onnxruntime, numpy, onnx; "
                                f"assert onnx.__version__ == {onnx.__version__!r}"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    print(f"installing onnxruntime into {ORT_VENV} (first run only) ...", file=sys.stderr)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ORT_VENV)], check=True)
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", *_requirements()],
                          capture_output=True, text=True)
    if done.returncode != 0 or subprocess.run(check, capture_output=True).returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["?"]
        return f"onnxruntime could not be installed: {last[0]}"
    return python


def run_json(python: Path, script: str | Path, *args: str, timeout: float | None = None,
             threads: int = 1) -> dict | str:
    """Run `script` (source text, or a file) with the ort venv's `python` and
    `threads` OpenMP threads (0: the runtime's default); its stdout parsed as JSON, or
    a reason string when it fails."""
    command = [str(python), str(script)] if isinstance(script, Path) else \
        [str(python), "-c", script]
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)} if threads else dict(os.environ)
    try:
        done = subprocess.run([*command, *args], capture_output=True, text=True, timeout=timeout,
                              env=env)
    except subprocess.TimeoutExpired:
        return f"onnxruntime took longer than {timeout} s"
    if done.returncode != 0:
        return "onnxruntime failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(done.stdout)
