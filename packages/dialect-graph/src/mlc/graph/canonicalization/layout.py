"""Layout-change simplifications (inverse layout_transform pairs, identity transforms)."""

PATTERNS: list = []
