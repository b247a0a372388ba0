"""What every op's translation to LLVM IR shares: the registry that keys each op's
translation by its class (MLIR's `llvmBuilder` on the op, dispatched as its
`LLVMTranslationDialectInterface` does), types and constants in llvmlite's terms, and the
state of a module's and a function's translation that the registered handlers write to.

A family of ops registers its translation beside the others of its family:

    @translates(L.FNegOp)
    def _fneg(t: FunctionTranslation, op: L.FNegOp, args: list) -> ir.Value:
        return t.builder.fneg(args[0], flags=fastmath(op))

An op found in a function's body is translated by the handler of its class; an op at
the top of the module (a function, a global) by its `translates_at_module_level`
handler. `registered_translations()` lists both, so a test can check that every op of
the dialect has one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from llvmlite import ir

from mlc.ir.analysis.dominance import reverse_postorder
from mlc.ir.core.attributes import (
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    FloatAttr,
    FloatType,
    IntegerAttr,
    IntegerType,
    Location,
    StringAttr,
    Type,
    TypeAttr,
    VectorType,
)
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.opdef.declare import Op
from mlc.llvm.dialect.types import (
    LLVMArrayType,
    LLVMFastMathFlags,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
    llvm,
)


class TranslationError(Exception):
    """An op or type with no LLVM IR counterpart; `diagnostics` say where."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def translation_error(message: str, loc: Location | None) -> TranslationError:
    """A TranslationError of one diagnostic at `loc`."""
    return TranslationError([Diagnostic("error", message, loc)])


# ------------------------------------------------------------------ the registry

InstructionHandler = Callable[["FunctionTranslation", Operation, list], "ir.Value | None"]
ModuleLevelHandler = Callable[["ModuleTranslation", Operation], None]
_INSTRUCTIONS: dict[type[Op], InstructionHandler] = {}
_MODULE_LEVEL: dict[type[Op], ModuleLevelHandler] = {}


def _register(table: dict, op_classes: Sequence[type[Op]], handler) -> None:
    for cls in op_classes:
        op_def = getattr(cls, "op_def", None)
        if op_def is None or op_def.dialect is not llvm:
            raise TypeError(f"{cls!r} is not an op of the llvm dialect: only its ops translate "
                            "to LLVM IR")
        if cls in _INSTRUCTIONS or cls in _MODULE_LEVEL:
            raise TypeError(f"'{op_def.name}' has two translations to LLVM IR")
        table[cls] = handler


def translates(*op_classes: type[Op]) -> Callable[[InstructionHandler], InstructionHandler]:
    """Register `handler(t, op, args)` as the translation of the ops of `op_classes` in a
    function's body: it emits their instructions with `t.builder` from `args` (the
    operands' LLVM values) and returns the result's value (None for no result)."""
    def register(handler: InstructionHandler) -> InstructionHandler:
        _register(_INSTRUCTIONS, op_classes, handler)
        return handler
    return register


def translates_at_module_level(*op_classes: type[Op]
                               ) -> Callable[[ModuleLevelHandler], ModuleLevelHandler]:
    """Register `handler(t, op)` as the translation of the ops of `op_classes` at the top
    of a module (a function's declaration, a global): it adds their symbol to `t`."""
    def register(handler: ModuleLevelHandler) -> ModuleLevelHandler:
        _register(_MODULE_LEVEL, op_classes, handler)
        return handler
    return register


def registered_translations() -> dict[type[Op], Callable]:
    """Every op class with a translation to LLVM IR, with its handler (import
    :mod:`mlc.llvm.dialect.translation` first: it registers the families)."""
    return {**_INSTRUCTIONS, **_MODULE_LEVEL}


def module_level_handler(op: Operation) -> ModuleLevelHandler | None:
    """The handler translating `op` at the top of a module, if it has one."""
    return _MODULE_LEVEL.get(type(op))


# ------------------------------------------------------------------ types

class BFloatType(ir.types._BaseFloatType):
    """LLVM's `bfloat` (MLIR's bf16), which llvmlite lacks: constants as LLVM writes
    them, `0xR` and the 16 bits (the f32 rounded to nearest even, as MLIR's APFloat)."""

    null = "0.0"
    intrinsic_name = "bf16"

    def __str__(self) -> str:
        return "bfloat"

    def format_constant(self, value) -> str:
        bits = int(np.array(value, dtype=np.float32).view(np.uint32))
        if np.isnan(np.float32(value)):
            return f"0xR{(bits >> 16) | 0x40:04X}"  # a quiet NaN stays a NaN
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return f"0xR{rounded & 0xFFFF:04X}"


BFloatType._create_instance()
_FLOATS = {"f16": ir.HalfType, "bf16": BFloatType, "f32": ir.FloatType, "f64": ir.DoubleType}


def llvm_type(type_: Type, loc: Location | None = None) -> ir.Type:
    """The llvmlite type of an llvm-dialect-compatible type."""
    if isinstance(type_, IntegerType):
        return ir.IntType(type_.width)
    if isinstance(type_, FloatType) and type_.name in _FLOATS:
        return _FLOATS[type_.name]()
    if isinstance(type_, VectorType) and len(type_.shape) == 1 and not any(type_.scalable):
        return ir.VectorType(llvm_type(type_.element_type, loc), type_.shape[0])
    if isinstance(type_, LLVMPointerType):
        return ir.PointerType(addrspace=type_.address_space)
    if isinstance(type_, LLVMArrayType):
        return ir.ArrayType(llvm_type(type_.element, loc), type_.size)
    if isinstance(type_, LLVMStructType):
        # An identified struct is emitted as the literal struct of its body (the same
        # layout); an opaque one has no body to emit.
        if type_.opaque:
            raise translation_error(f"type {type_} is an opaque struct, which mlc-translate "
                                    "does not emit", loc)
        return ir.LiteralStructType([llvm_type(t, loc) for t in type_.fields],
                                    packed=type_.packed)
    if isinstance(type_, LLVMVoidType):
        return ir.VoidType()
    if isinstance(type_, LLVMFunctionType):
        return ir.FunctionType(llvm_type(type_.result, loc),
                               [llvm_type(t, loc) for t in type_.params], var_arg=type_.vararg)
    raise translation_error(f"type {type_} has no LLVM IR counterpart", loc)


# ------------------------------------------------------------------ attributes

def type_attr(op: Operation, name: str) -> Type:
    """The type an op's TypeAttr `name` holds."""
    attr = op.attributes[name]
    return attr.value if isinstance(attr, TypeAttr) else attr  # type: ignore[return-value]


def int_attr(op: Operation, name: str, default: int | None = None) -> int | None:
    """The value of an op's IntegerAttr `name`, or `default` without one."""
    attr = op.attributes.get(name)
    return attr.value if isinstance(attr, IntegerAttr) else default


def fastmath(op: Operation) -> tuple[str, ...]:
    """llvmlite's fast-math flags of an op's `fastmathFlags` (`fast` for all of them)."""
    attr = op.attributes.get("fastmathFlags")
    if not isinstance(attr, LLVMFastMathFlags) or not attr.flags:
        return ()
    names = [flag.name for flag in type(attr.flags) if flag in attr.flags]
    return ("fast",) if len(names) == len(type(attr.flags)) else tuple(names)


def dense_values(attr: DenseArrayAttr) -> list[int]:
    """The integers of a dense array attribute (positions, masks, indices)."""
    return list(attr.values)


def constant(type_: ir.Type, attr: Attribute, loc: Location | None) -> ir.Constant:
    """The LLVM constant of `type_` an `llvm.mlir.constant`'s or global's `value` gives."""
    if isinstance(attr, (IntegerAttr, FloatAttr)):
        if isinstance(type_, ir.VectorType):
            return ir.Constant(type_, [ir.Constant(type_.element, attr.value)] * type_.count)
        return ir.Constant(type_, attr.value)
    if isinstance(attr, DenseElementsAttr):
        return _dense_constant(type_, attr, loc)
    if isinstance(attr, StringAttr) and isinstance(type_, ir.ArrayType):
        # A string initializer is its bytes (the verifier checked an i8 array of its length).
        return ir.Constant(type_, bytearray(attr.value.encode("utf-8", "surrogateescape")))
    raise translation_error(f"cannot translate the constant {attr} to LLVM IR", loc)


def _dense_constant(type_: ir.Type, attr: DenseElementsAttr, loc) -> ir.Constant:
    flat = np.asarray(attr.array).reshape(-1)
    element = type_
    count = 1
    while isinstance(element, (ir.VectorType, ir.ArrayType)):
        count *= element.count
        element = element.element
    if flat.size == 1 and count != 1:
        flat = np.repeat(flat, count)
    if flat.size != count:
        raise translation_error(f"dense constant of {flat.size} elements for {type_}", loc)
    scalars = [ir.Constant(element, v.item() if isinstance(element, ir.IntType) else float(v))
               for v in flat]
    return _nest(type_, scalars)


def _nest(type_: ir.Type, scalars: list[ir.Constant]) -> ir.Constant:
    if not isinstance(type_, (ir.VectorType, ir.ArrayType)):
        return scalars[0]
    inner = len(scalars) // type_.count
    return ir.Constant(type_, [_nest(type_.element, scalars[i * inner:(i + 1) * inner])
                               for i in range(type_.count)])


# ------------------------------------------------------------------ module and function state


@dataclass
class ModuleTranslation:
    """The llvmlite module being written and its symbols (functions, globals) by name."""

    module: ir.Module
    symbols: dict[str, ir.GlobalValue] = field(default_factory=dict)
    loop_nodes: dict[Attribute, ir.values.MDValue] = field(default_factory=dict)
    # What must wait until every symbol is declared (initializers taking addresses).
    deferred: list[Callable[[], None]] = field(default_factory=list)

    def symbol(self, name: str, op: Operation) -> ir.GlobalValue:
        """The function or global `@name` that `op` refers to."""
        found = self.symbols.get(name)
        if found is None:
            raise translation_error(f"'{op.name}' refers to '@{name}', which is not defined",
                                    op.loc)
        return found

    def intrinsic(self, name: str, result: ir.Type, params: Sequence[ir.Type]) -> ir.Function:
        """The declaration of the intrinsic `name`, added on first use."""
        found = self.module.globals.get(name)
        if found is None:
            found = ir.Function(self.module, ir.FunctionType(result, list(params)), name)
        return found


class FunctionTranslation:
    """The translation of one `llvm.func`'s body into `fn`: its LLVM values and blocks,
    and the builder the handlers emit with."""

    def __init__(self, module: ModuleTranslation, fn: ir.Function, op: Operation):
        self.module = module
        self.fn = fn
        self.op = op
        self.values: dict[Value, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        self.phis: dict[Block, list[ir.PhiInstr]] = {}
        self.builder = ir.IRBuilder()

    def type(self, type_: Type, op: Operation) -> ir.Type:
        """The llvmlite type of `type_`, an error at `op` if it has none."""
        return llvm_type(type_, op.loc)

    def edges(self, op: Operation, operands: list) -> list[ir.Block]:
        """The LLVM blocks `op` branches to, with its operands as the successors' phi
        entries; a second edge to the same block with arguments goes through a new
        forwarding block (LLVM allows one phi entry per predecessor)."""
        targets, start = [], 0
        seen: set[Block] = set()
        source = self.builder.block
        for successor in op.successors:
            count = len(successor.args)
            values = operands[start:start + count]
            start += count
            if successor in seen and count:
                forward = self.fn.append_basic_block()
                ir.IRBuilder(forward).branch(self.blocks[successor])
                self._add_incoming(successor, values, forward)
                targets.append(forward)
                continue
            seen.add(successor)
            self._add_incoming(successor, values, source)
            targets.append(self.blocks[successor])
        return targets

    def _add_incoming(self, block: Block, values: list, source: ir.Block) -> None:
        for phi, value in zip(self.phis[block], values):
            phi.add_incoming(value, source)

    def translate(self) -> None:
        """Emit the body: blocks translated in reverse post-order (so definitions come
        before uses), block arguments as phi nodes, then each op by its registered
        handler."""
        region = self.op.regions[0]
        order = reverse_postorder(region.blocks[0])
        # LLVM's blocks in the region's order, as MLIR places them (a block no path
        # reaches has no LLVM block); they are filled in dominance order.
        reachable = set(order)
        for block in region.blocks:
            if block in reachable:
                self.blocks[block] = self.fn.append_basic_block()
        for arg, value in zip(region.blocks[0].args, self.fn.args):
            self.values[arg] = value
        for block in order[1:]:
            self.builder.position_at_end(self.blocks[block])
            self.phis[block] = []
            for arg in block.args:
                phi = self.builder.phi(self.type(arg.type, self.op))
                self.phis[block].append(phi)
                self.values[arg] = phi
        # Phi entries are added by the branches, so an operand defined later in block
        # order (only a phi entry can be) needs no second pass.
        for block in order:
            self.builder.position_at_end(self.blocks[block])
            for op in block.ops():
                self._translate_op(op)

    def _translate_op(self, op: Operation) -> None:
        handler = _INSTRUCTIONS.get(type(op))
        if handler is None:
            raise translation_error(f"'{op.name}' cannot be converted to LLVM IR", op.loc)
        try:
            args = [self.values[v] for v in op.operands]
        except KeyError:
            raise translation_error(f"'{op.name}' uses a value that does not dominate it",
                                    op.loc) from None
        try:
            result = handler(self, op, args)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
            raise translation_error(f"cannot translate '{op.name}' to LLVM IR: {exc}",
                                    op.loc) from None
        if op.results:
            self.values[op.results[0]] = result
