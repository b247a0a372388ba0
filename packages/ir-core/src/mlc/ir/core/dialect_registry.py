"""Dialects group ops, types, attributes and canonicalization patterns; a Context
holds the loaded ones, and every registry lives on one or the other: two Contexts
with different dialects loaded see different ops and patterns.

A dialect registers its parts next to their definitions:

    arith = Dialect("arith", "Integer and floating-point arithmetic.")

    @arith.op
    class AddFOp(Op): ...

    arith.add_canonicalization_patterns([DagPattern("AddIAddConstant", ...), ...])

Packages make dialects discoverable through the `mlc.dialects` entry-point group
(name: the dialect's namespace, value: `module:attribute`), so a Context can load a
dialect the first time it meets its namespace, importing nothing else. The module an
entry point names completes the dialect: importing it declares the ops and registers
their canonicalization patterns.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import TYPE_CHECKING

from mlc.ir.core.attributes import Attribute, DialectAttribute, DialectType, Location, Type

if TYPE_CHECKING:
    from mlc.ir.core.ir import Operation
    from mlc.ir.opdef.declare import Op
    from mlc.ir.opdef.directive import Directive
    from mlc.ir.rewrite.pattern import RewritePattern

ENTRY_POINT_GROUP = "mlc.dialects"


class Dialect:
    """A namespace of ops, types and attributes, and the canonicalization patterns of
    its ops. A dialect that `allows_unknown_ops` (MLIR's allowUnknownOperations) takes
    a generic op of a name it does not declare as an unregistered op."""

    allows_unknown_ops = False

    def __init__(self, name: str, summary: str = "", semantics: str | None = None):
        self.name = name
        self.summary = summary
        # The module registering what the ops compute with the interpreter
        # (mlc.ir.interpreter.impl), imported when an op of the dialect first runs.
        self.semantics = semantics
        self.ops: dict[str, type[Op]] = {}
        self.types: dict[str, type[DialectType]] = {}
        self.attributes: dict[str, type[DialectAttribute]] = {}
        self.directives: dict[str, Directive] = {}
        self.canonicalization_patterns: list[RewritePattern] = []

    def verify_value_attribute(self, op: Operation, kind: str, index: int, name: str,
                               attr: Attribute) -> str | None:
        """Why `attr`, an attribute of this dialect (named `name`) on argument or result
        (`kind`) `index` of `op`, a function, is invalid there, or None (MLIR's
        verifyRegionArgAttribute and verifyRegionResultAttribute). Any is valid unless
        a dialect says otherwise."""
        return None

    def op(self, cls: type[Op]) -> type[Op]:
        """Class decorator registering an op of this dialect."""
        op_def = cls.op_def
        if op_def.dialect_name != self.name:
            raise ValueError(f"op '{op_def.name}' does not belong to dialect '{self.name}'")
        op_def.dialect = self
        self.ops[op_def.name] = cls
        return cls

    def type(self, cls: type[DialectType]) -> type[DialectType]:
        """Class decorator registering a type `!dialect.mnemonic` (its annotated
        parameters make it a frozen dataclass; see :mod:`mlc.ir.opdef.params`)."""
        cls = self._declared(cls, "type")
        self.types[cls.name] = cls
        return cls

    def attribute(self, cls: type[DialectAttribute]) -> type[DialectAttribute]:
        """Class decorator registering an attribute `#dialect.mnemonic`."""
        cls = self._declared(cls, "attribute")
        self.attributes[cls.name] = cls
        return cls

    def _declared(self, cls, kind: str):
        from mlc.ir.opdef.params import caller_namespace, declare_parameters

        if not cls.name.startswith(self.name + "."):
            raise ValueError(f"{kind} '{cls.name}' does not belong to dialect '{self.name}'")
        cls = declare_parameters(cls, caller_namespace(3))
        cls.dialect = self
        return cls

    def directive(self, directive: Directive) -> Directive:
        """Register a custom directive (`custom<Name>(...)`) for this dialect's formats."""
        self.directives[directive.name] = directive
        return directive

    def add_canonicalization_patterns(self, patterns: Iterable[RewritePattern]) -> None:
        """Register patterns the `canonicalize` pass applies, where they are defined.
        Each is rooted at an op of this dialect (or at any op) and named uniquely in it."""
        from mlc.ir.rewrite.pattern import PatternError

        known = {p.name for p in self.canonicalization_patterns}
        for pattern in patterns:
            if pattern.root is not None and pattern.root not in self.ops:
                raise PatternError(f"pattern '{pattern.name}' is rooted at '{pattern.root}', "
                                   f"which is not an op of dialect '{self.name}'")
            if pattern.name in known:
                raise PatternError(f"pattern '{pattern.name}' is already registered on "
                                   f"dialect '{self.name}'")
            known.add(pattern.name)
            self.canonicalization_patterns.append(pattern)

    def canonicalization_pattern(self, cls: type[RewritePattern]) -> type[RewritePattern]:
        """Class decorator registering a code pattern (one instance) like
        :meth:`add_canonicalization_patterns`."""
        self.add_canonicalization_patterns([cls()])
        return cls

    def unknown_type_message(self, mnemonic: str) -> str | None:
        """What the parser says of `!dialect.<mnemonic>` when the dialect has no such
        type; None for the generic words."""
        return None

    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        """An op producing `value` of `type_`, for folding; None if the dialect has none."""
        return None

    def __repr__(self) -> str:
        return f"<Dialect {self.name}>"


class _CoreEntry:
    """The core dialects, found even when mlc.ir runs from a source tree."""

    def __init__(self, name: str, value: str):
        self.name = name
        self.value = value


# Each core dialect is a package; importing it imports the modules that declare its
# ops and register their patterns, so the dialect it gives is complete.
_CORE_DIALECTS = {name: f"mlc.ir.dialects.{name}:{name}" for name in (
    "builtin", "func", "arith", "math", "ub", "vector", "cf", "memref", "scf")}


def _entry_for(namespace: str):
    """The entry point of the dialect named `namespace` (the core's first), or None."""
    core = _CORE_DIALECTS.get(namespace)
    return _CoreEntry(namespace, core) if core else available_dialects().get(namespace)


def _complete(dialect: Dialect) -> None:
    """Import the module the entry point of `dialect`'s namespace names (if any): the
    ops may have been imported alone, without the patterns that module registers."""
    entry = _entry_for(dialect.name)
    if entry is not None:
        import_module(entry.value.partition(":")[0])


def _available_entry_points() -> dict:
    from importlib.metadata import entry_points

    found = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    found.update((name, _CoreEntry(name, value)) for name, value in _CORE_DIALECTS.items())
    return found


_entry_point_cache: dict | None = None


def available_dialects() -> dict:
    """Entry points of every installed dialect, by namespace (read once per process)."""
    global _entry_point_cache
    if _entry_point_cache is None:
        _entry_point_cache = _available_entry_points()
    return _entry_point_cache


_imported_dialects: dict[str, Dialect] = {}


def _import_dialect(namespace: str) -> Dialect:
    """The dialect object of `namespace`, imported through its entry point (once:
    conversion patterns look op classes up by name for every op they build)."""
    dialect = _imported_dialects.get(namespace)
    if dialect is not None:
        return dialect
    entry = _entry_for(namespace)
    if entry is None:
        raise KeyError(f"no dialect named '{namespace}' is installed")
    module_name, _, attr = entry.value.partition(":")
    dialect = _imported_dialects[namespace] = getattr(import_module(module_name), attr)
    return dialect


class UnknownOpError(LookupError):
    """An op or dialect name that no installed dialect declares."""


def lookup_dialect(dialect: Dialect | str) -> Dialect:
    """The installed dialect `dialect` names (a Dialect is returned as it is),
    imported on first use; an UnknownOpError names a namespace nothing installs."""
    if isinstance(dialect, Dialect):
        return dialect
    try:
        return _import_dialect(dialect)
    except KeyError:
        raise UnknownOpError(f"unknown dialect '{dialect}': no dialect of that name is "
                             "installed") from None


def lookup_op_class(op: type[Op] | str) -> type[Op]:
    """The declared op class `op` names (a declared class is returned as it is),
    importing its dialect on first use; an UnknownOpError says what is unknown."""
    if isinstance(op, type):
        op_def = getattr(op, "op_def", None)
        if op_def is None or op_def.cls is not op:
            raise UnknownOpError(f"'{op.__name__}' is not a declared op class")
        return op
    namespace, dot, _ = op.partition(".")
    if not dot:
        raise UnknownOpError(f"unknown op '{op}': op names read 'dialect.op'")
    try:
        dialect = _import_dialect(namespace)
    except KeyError:
        raise UnknownOpError(f"unknown op '{op}': no dialect '{namespace}' is installed") from None
    cls = dialect.ops.get(op)
    if cls is None:
        raise UnknownOpError(f"unknown op '{op}': dialect '{namespace}' declares no such op")
    return cls


class Context:
    """The loaded dialects, parsing options, and resource blobs of a session."""

    def __init__(self, dialects: Iterable[Dialect | str] = (), *,
                 allow_unregistered: bool = False, load_on_demand: bool = True):
        self.dialects: dict[str, Dialect] = {}
        self.allow_unregistered = allow_unregistered
        self.load_on_demand = load_on_demand
        # dense_resource blobs by handle, as MLIR keeps them in its context.
        self.resources: dict[str, tuple[int, bytes]] = {}  # handle -> (alignment, data)
        self._ops: dict[str, type[Op]] = {}
        self._failed: set[str] = set()
        self.load("builtin")
        for dialect in dialects:
            self.load(dialect)

    def load(self, dialect: Dialect | str) -> Dialect:
        """Load a dialect object, or one by namespace through its entry point."""
        if isinstance(dialect, str):
            if dialect in self.dialects:
                return self.dialects[dialect]
            dialect = _import_dialect(dialect)
        else:
            _complete(dialect)
        assert isinstance(dialect, Dialect)
        if dialect.name not in self.dialects:
            self.dialects[dialect.name] = dialect
            self._ops.update(dialect.ops)
        return dialect

    def load_all_available(self) -> None:
        for name in sorted(available_dialects()):
            self.load(name)

    def try_load(self, namespace: str) -> Dialect | None:
        """The dialect for `namespace`, loading it on demand; None if there is none."""
        dialect = self.dialects.get(namespace)
        if dialect is not None or not self.load_on_demand or namespace in self._failed:
            return dialect
        if namespace in _CORE_DIALECTS or namespace in available_dialects():
            return self.load(namespace)
        self._failed.add(namespace)
        return None

    def available_namespaces(self) -> list[str]:
        """The namespaces of the dialects this context has or can load, sorted."""
        names = set(self.dialects)
        if self.load_on_demand:
            names |= set(_CORE_DIALECTS) | set(available_dialects())
        return sorted(names)

    def get_op_class(self, name: str) -> type[Op] | None:
        cls = self._ops.get(name)
        if cls is None and "." in name and self.try_load(name.split(".", 1)[0]) is not None:
            cls = self._ops.get(name)
        return cls

    def get_type_class(self, name: str) -> type[DialectType] | None:
        dialect = self.try_load(name.split(".", 1)[0])
        return dialect.types.get(name) if dialect is not None else None

    def get_attr_class(self, name: str) -> type[DialectAttribute] | None:
        dialect = self.try_load(name.split(".", 1)[0])
        return dialect.attributes.get(name) if dialect is not None else None

    @property
    def op_classes(self) -> dict[str, type[Op]]:
        return dict(self._ops)

    def canonicalization_patterns(self) -> list[RewritePattern]:
        """The canonicalization patterns of the loaded dialects, by dialect name and
        then in the order each dialect registered them."""
        return [pattern for name in sorted(self.dialects)
                for pattern in self.dialects[name].canonicalization_patterns]
