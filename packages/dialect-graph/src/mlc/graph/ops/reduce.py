"""Reductions over axes: sum, mean, max, min, prod, argmax."""

from __future__ import annotations
