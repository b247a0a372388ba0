"""Custom directives of assembly formats: `custom<Name>(...)`, for the few shapes a
format cannot say (MLIR's custom directives).

A directive is one object with a parse and a print. Its parameters in the format are
references to the op's parts — `$attr`, `type($operand)`, `$operand`, `$region`,
`$successor` — and it works on their values:

    class SelectTypes(Directive):
        \"\"\"`: type` when the condition is `i1`, else `: cond_type, type`.\"\"\"

        name = "SelectTypes"

        def parse(self, p):                       # -> one value per parameter
            first = p.parse_type()
            if p.parse_optional_comma():
                return first, p.parse_type()
            return i1, first

        def print(self, w, op, condition_type, result_type):
            ...

A dialect registers its directives (`dialect.directive(SelectTypes())`); a format
finds `custom<Name>` among its op's dialect's directives, then the builtin dialect's.
"""

from __future__ import annotations

from typing import Any


class Directive:
    """A named parse/print pair for `custom<Name>(params...)` in assembly formats."""

    name: str = ""

    def parse(self, p) -> tuple[Any, ...]:  # pragma: no cover - abstract
        """Read the directive's text with the AsmParser `p`; return one value per
        parameter: an Attribute (or None) for `$attr`, a Type (a list for a variadic
        group) for `type(...)`, an unresolved operand (a list) for `$operand`, a Region
        for `$region`, a Block for `$successor`."""
        raise NotImplementedError

    def print(self, w, op, *values: Any) -> None:  # pragma: no cover - abstract
        """Write the directive's text for `op`, given its parameters' current values."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"custom<{self.name}>"
