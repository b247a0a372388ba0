"""Pausing Python's cyclic garbage collector around bulk IR work.

Parsing, verifying and printing create or touch hundreds of thousands of long-lived
objects and free no cycles; each automatic collection rescans every object alive, so
with the collector on these phases grow quadratically with the size of the IR.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic GC inside the block (re-enabling it only if it was on)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
