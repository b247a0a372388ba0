"""What one call of JIT-compiled code costs from Python, by way of passing the arrays.

    .venv/bin/python benchmarks/llvm_call_overhead.py [--calls N] [--repeat R]

The function called does nothing (`ret void`), so the figures are the cost of getting
from Python to native code and back with three float32 arrays (bare pointers). The
first rows are the ways to hand ctypes the data addresses; the last ones are
mlc.llvm's NativeFunction, which checks each array (type, dtype, shape, contiguity,
writeability) before the call and reads addresses the fastest way measured here
(numpy's struct field, and a per-argument cache of the last array's address).
Prints a markdown table: best of R runs of N calls, microseconds per call.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import platform
import sys
import time
from collections.abc import Callable

import numpy as np

from mlc.llvm.jit import compile_llvm_ir
from mlc.llvm.native_call import ArgSpec, data_address

NOTHING = """
define void @nothing(ptr noalias %x, ptr noalias %y, ptr noalias %out) {
  ret void
}
"""
SHAPE = (64,)


def per_call(call: Callable[[], object], calls: int, repeat: int) -> float:
    """Best microseconds per call over `repeat` runs of `calls` calls."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(calls):
            call()
        best = min(best, time.perf_counter() - started)
    return best / calls * 1e6


def cases() -> list[tuple[str, Callable[[], object]]]:
    library = compile_llvm_ir(NOTHING)
    address = library.address("nothing")
    pointer3 = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
    raw = pointer3(address)
    x, y, out = (np.zeros(SHAPE, np.float32) for _ in range(3))
    others = [np.zeros(SHAPE, np.float32) for _ in range(3)]
    px, py, pout = (a.ctypes.data for a in (x, y, out))

    checked = pointer3(address)
    ndpointer = np.ctypeslib.ndpointer(np.float32, 1, SHAPE, "C_CONTIGUOUS")
    checked.argtypes = [ndpointer, ndpointer, ndpointer]

    specs = [ArgSpec("x", SHAPE, "float32"), ArgSpec("y", SHAPE, "float32"),
             ArgSpec("out", SHAPE, "float32", "output")]
    function = library.function("nothing", specs)
    bound = library.function("nothing", specs).bind("y", y)
    alternate = [(x, y, out), tuple(others)]
    turn = [0]

    def fresh_arrays() -> object:
        # A different set of arrays on every call: the address cache never hits.
        turn[0] ^= 1
        return function(*alternate[turn[0]])

    def interface(a: np.ndarray) -> int:
        return a.__array_interface__["data"][0]

    return [
        ("ctypes, addresses cached as ints (the floor)", lambda: raw(px, py, pout)),
        ("ctypes, `arr.ctypes.data` per call", lambda: raw(x.ctypes.data, y.ctypes.data,
                                                           out.ctypes.data)),
        ("ctypes, `arr.__array_interface__['data'][0]` per call",
         lambda: raw(interface(x), interface(y), interface(out))),
        ("ctypes, numpy's data field read through ctypes per call",
         lambda: raw(data_address(x), data_address(y), data_address(out))),
        ("ctypes, `np.ctypeslib.ndpointer` argtypes (checks dtype/shape)",
         lambda: checked(x, y, out)),
        ("NativeFunction, checked, same arrays each call", lambda: function(x, y, out)),
        ("NativeFunction, checked, other arrays each call", fresh_arrays),
        ("NativeFunction, `y` bound, same arrays", lambda: bound(x, out)),
        ("NativeFunction, output allocated (`f(x, y)`)", lambda: function(x, y)),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    rows = [(name, per_call(call, args.calls, args.repeat)) for name, call in cases()]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Measured {time.strftime('%Y-%m-%d')} on {platform.system()} "
          f"{platform.machine()}, Python {platform.python_version()}, numpy "
          f"{np.__version__}; load average {load:.2f}. Three float32[{SHAPE[0]}] arrays, "
          f"best of {args.repeat} x {args.calls} calls.\n")
    print("| way of calling | µs per call |")
    print("|:---|---:|")
    for name, micros in rows:
        print(f"| {name} | {micros:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
