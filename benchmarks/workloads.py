"""Benchmark workloads: MLIR text that mlc-opt, xdsl-opt and mlir-opt all read.

Every workload is one function

    func.func @main(%arg0: f32, %arg1: f32) -> f32 {
      %0 = arith.constant 2.500000e+00 : f32
      %1 = arith.mulf %arg0, %0 : f32
      ...
      func.return %N-1 : f32
    }

with exactly N `arith` ops, in custom syntax with explicit dialect prefixes
(`func.return`, which xdsl needs). Generation is deterministic: the same kind, size
and seed always give the same text.

Kinds:

* ``arith``: a mix of `arith.constant` and `arith.addf/mulf/subf` whose operands
  are drawn from the last `WINDOW` values. It is not built to fold: it measures the
  parser, verifier and printer on a plain straight-line body. (Passes still find
  work in it: many results are never used, so their ops are dead, and a few ops
  combine two constants.)
* ``folding``: patterns a canonicalizer simplifies: chains of constant-constant
  arithmetic, `x * 1.0`, `x - 0.0` and repeated identical constants, stitched into
  a live chain that depends on the arguments (so the function does not fold to a
  single constant).

Files are written on demand to `benchmarks/.work/` (gitignored):

    python benchmarks/workloads.py                 # the standard sizes, both kinds
    python benchmarks/workloads.py folding 1000    # one workload, to stdout
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
WORK_DIR = BENCH_DIR / ".work"

STANDARD_SIZES = (1_000, 10_000, 100_000)
SEED = 20240601
WINDOW = 20  # operands come from the last WINDOW values
CONSTANT_FRACTION = 0.2  # share of arith.constant in the `arith` kind
BINARY_OPS = ("arith.addf", "arith.mulf", "arith.subf")

HEADER = "func.func @main(%arg0: f32, %arg1: f32) -> f32 {\n"
ARGS = ("%arg0", "%arg1")

# The smallest input every tool accepts: used to measure start-up time.
TRIVIAL = "func.func @f() {\n  func.return\n}\n"


def format_f32(value: float) -> str:
    """A float literal in the form MLIR prints (`2.500000e+00`)."""
    return f"{value:.6e}"


def _random_constant(rng: random.Random) -> float:
    """A constant exactly representable in f32 that never makes an op fold trivially
    (not 0.0, not 1.0)."""
    value = 0.0
    while value in (0.0, 1.0, -1.0):
        value = rng.randint(-32, 32) / 8
    return value


class _Body:
    """The ops of a function body under construction, one SSA value per op."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __len__(self) -> int:
        return len(self.lines)

    def constant(self, value: float) -> str:
        return self._emit(f"arith.constant {format_f32(value)} : f32")

    def binary(self, op: str, lhs: str, rhs: str) -> str:
        return self._emit(f"{op} {lhs}, {rhs} : f32")

    def _emit(self, text: str) -> str:
        name = f"%{len(self.lines)}"
        self.lines.append(f"  {name} = {text}\n")
        return name

    def function(self, result: str) -> str:
        return HEADER + "".join(self.lines) + f"  func.return {result} : f32\n}}\n"


def arith_chain(n: int, seed: int = SEED) -> str:
    """`n` ops: constants and addf/mulf/subf over the last `WINDOW` values."""
    rng = random.Random(seed)
    body = _Body()
    recent: list[str] = list(ARGS)
    for _ in range(n):
        if rng.random() < CONSTANT_FRACTION:
            value = body.constant(_random_constant(rng))
        else:
            value = body.binary(rng.choice(BINARY_OPS), rng.choice(recent), rng.choice(recent))
        recent.append(value)
        if len(recent) > WINDOW:
            recent.pop(0)
    return body.function(recent[-1])


# Values that the `folding` kind repeats, so constant deduplication has work to do.
REPEATED_CONSTANTS = (2.0, 0.5, 3.0)


def _const_chain(body: _Body, rng: random.Random, x: str) -> str:
    """c1 op c2 op c1 ...: a constant subtree that folds to one constant, then x op it."""
    folded = body.constant(_random_constant(rng))
    for _ in range(rng.randint(1, 3)):
        other = body.constant(_random_constant(rng))
        folded = body.binary(rng.choice(BINARY_OPS), folded, other)
    return body.binary(rng.choice(BINARY_OPS), x, folded)


def _mul_one(body: _Body, rng: random.Random, x: str) -> str:
    """x * 1.0, which folds to x."""
    return body.binary("arith.mulf", x, body.constant(1.0))


def _sub_zero(body: _Body, rng: random.Random, x: str) -> str:
    """x - 0.0, which folds to x."""
    return body.binary("arith.subf", x, body.constant(0.0))


def _repeated_constant(body: _Body, rng: random.Random, x: str) -> str:
    """x op c with c one of a few values seen many times (deduplicated by CSE)."""
    return body.binary(rng.choice(BINARY_OPS), x, body.constant(rng.choice(REPEATED_CONSTANTS)))


def _live_op(body: _Body, rng: random.Random, x: str, recent: list[str]) -> str:
    """A plain op on live values, which stays."""
    return body.binary(rng.choice(BINARY_OPS), x, rng.choice(recent))


FOLDING_PATTERNS = (_const_chain, _mul_one, _sub_zero, _repeated_constant)


def folding_chain(n: int, seed: int = SEED) -> str:
    """`n` ops of foldable patterns applied to a live chain over the arguments.

    Each pattern extends the chain from its latest value, so every live
    (argument-dependent) value feeds the result: folding has work to do, while dead
    code elimination alone does not, and the function still computes something from
    its arguments after folding. The last pattern is cut off where the op count
    reaches `n`; the function returns the latest live value.
    """
    rng = random.Random(seed)
    body = _Body()
    live: list[str] = list(ARGS)
    while len(body) < n:
        x = live[-1]
        if rng.random() < 0.25:
            value = _live_op(body, rng, x, live[-WINDOW:])
        else:
            value = rng.choice(FOLDING_PATTERNS)(body, rng, x)
        if len(body) <= n:
            live.append(value)
    del body.lines[n:]
    return body.function(live[-1])


GENERATORS: dict[str, Callable[[int, int], str]] = {
    "arith": arith_chain,
    "folding": folding_chain,
}


def generate(kind: str, n: int, seed: int = SEED) -> str:
    """The text of workload `kind` with `n` arith ops."""
    try:
        generator = GENERATORS[kind]
    except KeyError:
        raise ValueError(f"unknown workload kind {kind!r}; known: {', '.join(GENERATORS)}") from None
    return generator(n, seed)


def _write_if_changed(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def workload_path(kind: str, n: int, work_dir: Path = WORK_DIR) -> Path:
    """The file holding workload `kind` of size `n`, (re)generated if missing or stale."""
    return _write_if_changed(work_dir / f"{kind}-{n}.mlir", generate(kind, n))


def trivial_path(work_dir: Path = WORK_DIR) -> Path:
    """The file holding `TRIVIAL`."""
    return _write_if_changed(work_dir / "trivial.mlir", TRIVIAL)


def main(argv: list[str]) -> int:
    if not argv:
        for kind in GENERATORS:
            for n in STANDARD_SIZES:
                print(workload_path(kind, n))
        return 0
    if len(argv) != 2 or not argv[1].isdigit():
        print(f"usage: workloads.py [{'|'.join(GENERATORS)} N]", file=sys.stderr)
        return 2
    sys.stdout.write(generate(argv[0], int(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
