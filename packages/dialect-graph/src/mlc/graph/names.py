"""Unique names for kernels and resource handles."""

from __future__ import annotations


def unique_name(name: str, taken) -> str:
    """`name`, or `name_1`, `name_2`... : the first not in `taken`."""
    candidate, counter = name, 0
    while candidate in taken:
        counter += 1
        candidate = f"{name}_{counter}"
    return candidate

