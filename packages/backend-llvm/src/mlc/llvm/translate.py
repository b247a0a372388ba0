"""Translation of the `llvm` dialect to LLVM IR, one op to one instruction, through
`llvmlite.ir` (MLIR's `mlir-translate --mlir-to-llvmir`).

The translation reads ops by name and inherent attributes, as their generic form spells
them, so it depends only on MLIR's definition of the dialect. Blocks become basic
blocks in a dominance-respecting order (reverse post-order), block arguments become
phi nodes, and a branch that reaches the same block twice with different arguments goes
through a forwarding block (LLVM allows one phi entry per predecessor).

    text = translate_to_llvm_ir(module)       # LLVM IR text, verified by the caller's parse
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from llvmlite import ir

from mlc.ir.analysis.dominance import reverse_postorder
from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DictionaryAttr,
    FloatAttr,
    FloatType,
    IntegerAttr,
    IntegerType,
    Location,
    SymbolRefAttr,
    Type,
    TypeAttr,
    UnitAttr,
    VectorType,
)
from mlc.ir.core.ir import Block, Operation, Value
from mlc.ir.diagnostics import Diagnostic
from mlc.llvm.limits import native_limit_problems
from mlc.llvm.op_constraints import AtomicBinOp, AtomicOrdering
from mlc.llvm.types import (
    LinkageAttr,
    LLVMArrayType,
    LLVMFastMathFlags,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
)


class TranslationError(Exception):
    """An op or type with no LLVM IR counterpart; `diagnostics` say where."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _fail(message: str, loc: Location | None) -> TranslationError:
    return TranslationError([Diagnostic("error", message, loc)])


# ------------------------------------------------------------------ types

_FLOATS = {"f16": ir.HalfType, "f32": ir.FloatType, "f64": ir.DoubleType}


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
        return ir.LiteralStructType([llvm_type(t, loc) for t in type_.fields],
                                    packed=type_.packed)
    if isinstance(type_, LLVMVoidType):
        return ir.VoidType()
    if isinstance(type_, LLVMFunctionType):
        return ir.FunctionType(llvm_type(type_.result, loc),
                               [llvm_type(t, loc) for t in type_.params], var_arg=type_.vararg)
    raise _fail(f"type {type_} has no LLVM IR counterpart", loc)


def _mangled(type_: ir.Type) -> str:
    """An overloaded intrinsic's name suffix for `type_` (`f32`, `v16f32`, `p0`)."""
    if isinstance(type_, ir.VectorType):
        return f"v{type_.count}{_mangled(type_.element)}"
    if isinstance(type_, ir.PointerType):
        return f"p{type_.addrspace}"
    if isinstance(type_, ir.IntType):
        return f"i{type_.width}"
    return {ir.HalfType: "f16", ir.FloatType: "f32", ir.DoubleType: "f64"}[type(type_)]


# ------------------------------------------------------------------ attributes

def _attr(op: Operation, name: str, default: Attribute | None = None) -> Attribute | None:
    return op.attributes.get(name, default)


def _type_attr(op: Operation, name: str) -> Type:
    attr = op.attributes[name]
    return attr.value if isinstance(attr, TypeAttr) else attr  # type: ignore[return-value]


def _int(op: Operation, name: str, default: int | None = None) -> int | None:
    attr = op.attributes.get(name)
    return attr.value if isinstance(attr, IntegerAttr) else default


def _fastmath(op: Operation) -> tuple[str, ...]:
    attr = op.attributes.get("fastmathFlags")
    if not isinstance(attr, LLVMFastMathFlags) or not attr.flags:
        return ()
    names = [flag.name for flag in type(attr.flags) if flag in attr.flags]
    return ("fast",) if len(names) == len(type(attr.flags)) else tuple(names)


def _dense_values(attr: DenseArrayAttr) -> list[int]:
    return list(attr.values)


def constant(type_: ir.Type, attr: Attribute, loc: Location | None) -> ir.Constant:
    """The LLVM constant of `type_` an `llvm.mlir.constant`'s or global's `value` gives."""
    if isinstance(attr, IntegerAttr):
        if isinstance(type_, ir.VectorType):
            return ir.Constant(type_, [ir.Constant(type_.element, attr.value)] * type_.count)
        return ir.Constant(type_, attr.value)
    if isinstance(attr, FloatAttr):
        if isinstance(type_, ir.VectorType):
            return ir.Constant(type_, [ir.Constant(type_.element, attr.value)] * type_.count)
        return ir.Constant(type_, attr.value)
    if isinstance(attr, DenseElementsAttr):
        return _dense_constant(type_, attr, loc)
    raise _fail(f"cannot translate the constant {attr} to LLVM IR", loc)


def _dense_constant(type_: ir.Type, attr: DenseElementsAttr, loc) -> ir.Constant:
    import numpy as np

    values = np.asarray(attr.array)
    flat = np.asarray(values).reshape(-1)
    element = type_
    while isinstance(element, (ir.VectorType, ir.ArrayType)):
        element = element.element
    count = 1
    shape_type = type_
    while isinstance(shape_type, (ir.VectorType, ir.ArrayType)):
        count *= shape_type.count
        shape_type = shape_type.element
    if flat.size == 1 and count != 1:
        flat = np.repeat(flat, count)
    if flat.size != count:
        raise _fail(f"dense constant of {flat.size} elements for {type_}", loc)
    scalars = [ir.Constant(element, v.item() if isinstance(element, ir.IntType) else float(v))
               for v in flat]
    return _nest(type_, scalars)


def _nest(type_: ir.Type, scalars: list[ir.Constant]) -> ir.Constant:
    if not isinstance(type_, (ir.VectorType, ir.ArrayType)):
        return scalars[0]
    inner = len(scalars) // type_.count
    return ir.Constant(type_, [_nest(type_.element, scalars[i * inner:(i + 1) * inner])
                               for i in range(type_.count)])


# ------------------------------------------------------------------ op handlers

Handler = Callable[["_FunctionTranslation", Operation, list], ir.Value | None]
_HANDLERS: dict[str, Handler] = {}


def _handles(*names: str):
    def register(fn: Handler) -> Handler:
        for name in names:
            _HANDLERS[name] = fn
        return fn
    return register


_INT_BINARY = {"llvm.add": "add", "llvm.sub": "sub", "llvm.mul": "mul", "llvm.sdiv": "sdiv",
               "llvm.udiv": "udiv", "llvm.srem": "srem", "llvm.urem": "urem",
               "llvm.and": "and_", "llvm.or": "or_", "llvm.xor": "xor", "llvm.shl": "shl",
               "llvm.lshr": "lshr", "llvm.ashr": "ashr"}
_FLOAT_BINARY = {"llvm.fadd": "fadd", "llvm.fsub": "fsub", "llvm.fmul": "fmul",
                 "llvm.fdiv": "fdiv", "llvm.frem": "frem"}
_CASTS = {"llvm.trunc": "trunc", "llvm.zext": "zext", "llvm.sext": "sext",
          "llvm.fptrunc": "fptrunc", "llvm.fpext": "fpext", "llvm.sitofp": "sitofp",
          "llvm.uitofp": "uitofp", "llvm.fptosi": "fptosi", "llvm.fptoui": "fptoui",
          "llvm.bitcast": "bitcast", "llvm.ptrtoint": "ptrtoint", "llvm.inttoptr": "inttoptr"}
_ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_FCMP = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
         "ule", "une", "uno", "true")
_CMP_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@_handles(*_INT_BINARY)
def _int_binary(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    flags = _overflow_flags(op)
    method = getattr(t.builder, _INT_BINARY[op.name])
    return method(*args, flags=flags) if flags else method(*args)


def _overflow_flags(op: Operation) -> list[str]:
    bits = _int(op, "overflowFlags", 0) or 0
    return [name for bit, name in ((1, "nsw"), (2, "nuw")) if bits & bit]


@_handles(*_FLOAT_BINARY)
def _float_binary(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return getattr(t.builder, _FLOAT_BINARY[op.name])(*args, flags=_fastmath(op))


@_handles("llvm.fneg")
def _fneg(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.fneg(args[0], flags=_fastmath(op))


@_handles(*_CASTS)
def _cast(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return getattr(t.builder, _CASTS[op.name])(args[0], t.type(op.results[0].type, op))


@_handles("llvm.icmp")
def _icmp(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    predicate = _ICMP[_int(op, "predicate")]
    if predicate in ("eq", "ne"):
        return t.builder.icmp_signed(_CMP_SYMBOL[predicate], *args)
    method = t.builder.icmp_signed if predicate[0] == "s" else t.builder.icmp_unsigned
    return method(_CMP_SYMBOL[predicate[1:]], *args)


@_handles("llvm.fcmp")
def _fcmp(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    predicate = _FCMP[_int(op, "predicate")]
    flags = _fastmath(op)
    if predicate in ("false", "true", "ord", "uno"):
        symbol = predicate
        method = t.builder.fcmp_unordered if predicate in ("true", "uno") else t.builder.fcmp_ordered
    else:
        symbol = _CMP_SYMBOL[predicate[1:]]
        method = t.builder.fcmp_ordered if predicate[0] == "o" else t.builder.fcmp_unordered
    return method(symbol, *args, flags=flags)


@_handles("llvm.select")
def _select(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.select(*args, flags=_fastmath(op))


@_handles("llvm.mlir.constant")
def _constant(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return constant(t.type(op.results[0].type, op), op.attributes["value"], op.loc)


@_handles("llvm.mlir.undef")
def _undef(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return ir.Constant(t.type(op.results[0].type, op), ir.Undefined)


@_handles("llvm.mlir.poison")
def _poison(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    # llvmlite has no poison constant; undef is a refinement-compatible stand-in.
    return ir.Constant(t.type(op.results[0].type, op), ir.Undefined)


@_handles("llvm.mlir.zero")
def _zero(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return ir.Constant(t.type(op.results[0].type, op), None)


@_handles("llvm.mlir.addressof")
def _addressof(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    name = op.attributes["global_name"]
    return t.module.symbol(name.root if isinstance(name, SymbolRefAttr) else str(name), op)


_DYNAMIC_INDEX = -2147483648


@_handles("llvm.getelementptr")
def _gep(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    base, dynamic = args[0], iter(args[1:])
    indices = []
    for raw in _dense_values(op.attributes["rawConstantIndices"]):
        indices.append(next(dynamic) if raw == _DYNAMIC_INDEX else ir.Constant(ir.IntType(32), raw))
    inbounds = bool((_int(op, "noWrapFlags", 0) or 0) & 1) or "inbounds" in op.attributes
    return t.builder.gep(base, indices, inbounds=inbounds,
                         source_etype=t.type(_type_attr(op, "elem_type"), op))


@_handles("llvm.load")
def _load(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.load(args[0], align=_int(op, "alignment"),
                          typ=t.type(op.results[0].type, op))


@_handles("llvm.store")
def _store(t: _FunctionTranslation, op: Operation, args: list) -> None:
    value, pointer = args
    if pointer.type.is_opaque or pointer.type.pointee == value.type:
        t.builder.store(value, pointer, align=_int(op, "alignment"))
        return
    # llvmlite types the pointers of allocas and their GEPs (`float*`) where the llvm
    # dialect's are opaque, and its builder refuses a vector stored through one; LLVM
    # reads every pointer as opaque, so the store is written as the dialect says.
    store = ir.instructions.StoreInstr(t.builder.block, value, pointer)
    store.align = _int(op, "alignment")
    t.builder._insert(store)


class _AtomicInstruction(ir.Instruction):
    """An `atomicrmw` or `cmpxchg` with what llvmlite's own leave out (volatile, weak,
    syncscope, alignment): `head` is the text before the operands, `tail` after."""

    def __init__(self, parent, type_, opname, operands, head: str, tail: str):
        super().__init__(parent, type_, opname, operands)
        self.head, self.tail = head, tail

    def descr(self, buf):
        operands = ", ".join(f"{v.type} {v.get_reference()}" for v in self.operands)
        buf.append(f"{self.head} {operands} {self.tail}{self._stringify_metadata(True)}\n")


def _atomic(t: _FunctionTranslation, op: Operation, args: list, type_: ir.Type, head: str,
            orderings: str) -> ir.Value:
    """The instruction `head` (its name and operation) on `args`, with the op's flags,
    syncscope, `orderings` and alignment (by default the value's size, as
    mlir-translate writes it)."""
    flags = "".join(f" {flag.rstrip('_')}" for flag in ("weak", "volatile_")
                    if flag in op.attributes)
    name, _, operation = head.partition(" ")
    scope = op.attributes.get("syncscope")
    tail = (f'syncscope("{scope.value}") ' if scope is not None else "") + orderings
    value = op.operands[-1].type
    alignment = _int(op, "alignment") or \
        (value.width // 8 if isinstance(value, (IntegerType, FloatType)) else 8)
    instruction = _AtomicInstruction(t.builder.block, type_, name, args,
                                     f"{name}{flags} {operation}".rstrip(),
                                     f"{tail}, align {alignment}")
    t.builder._insert(instruction)
    return instruction


@_handles("llvm.atomicrmw")
def _atomicrmw(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    operation = AtomicBinOp.keyword(op.attributes["bin_op"]).lstrip("_")
    return _atomic(t, op, args, args[1].type, f"atomicrmw {operation}",
                   AtomicOrdering.keyword(op.attributes["ordering"]))


@_handles("llvm.cmpxchg")
def _cmpxchg(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    orderings = " ".join(AtomicOrdering.keyword(op.attributes[name])
                         for name in ("success_ordering", "failure_ordering"))
    return _atomic(t, op, args, ir.LiteralStructType([args[2].type, ir.IntType(1)]),
                   "cmpxchg", orderings)


@_handles("llvm.alloca")
def _alloca(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    inst = t.builder.alloca(t.type(_type_attr(op, "elem_type"), op), size=args[0])
    # llvmlite types an alloca as a pointer to its element; the dialect's result is an
    # opaque `!llvm.ptr`, through which any type may be stored (a struct's fields).
    inst.type = t.type(op.results[0].type, op)
    alignment = _int(op, "alignment")
    if alignment:
        inst.align = alignment
    return inst


@_handles("llvm.insertelement")
def _insertelement(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    vector, value, position = args
    return t.builder.insert_element(vector, value, position)


@_handles("llvm.extractelement")
def _extractelement(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.extract_element(*args)


@_handles("llvm.shufflevector")
def _shufflevector(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    mask = _dense_values(op.attributes["mask"])
    i32 = ir.IntType(32)
    elements = [ir.Constant(i32, ir.Undefined if m < 0 else m) for m in mask]
    return t.builder.shuffle_vector(args[0], args[1],
                                    ir.Constant(ir.VectorType(i32, len(mask)), elements))


@_handles("llvm.insertvalue")
def _insertvalue(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.insert_value(args[0], args[1], _dense_values(op.attributes["position"]))


@_handles("llvm.extractvalue")
def _extractvalue(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.extract_value(args[0], _dense_values(op.attributes["position"]))


@_handles("llvm.call")
def _call(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    callee = op.attributes.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        raise _fail("indirect calls are not translated", op.loc)
    fn = t.module.symbol(callee.root, op)
    inst = t.builder.call(fn, args, fastmath=_fastmath(op))
    return inst if op.results else None


@_handles("llvm.return")
def _return(t: _FunctionTranslation, op: Operation, args: list) -> None:
    if args:
        t.builder.ret(args[0])
    else:
        t.builder.ret_void()


@_handles("llvm.unreachable")
def _unreachable(t: _FunctionTranslation, op: Operation, args: list) -> None:
    t.builder.unreachable()


@_handles("llvm.br")
def _br(t: _FunctionTranslation, op: Operation, args: list) -> None:
    (target,) = t.edges(op, args)
    t.builder.branch(target)


@_handles("llvm.cond_br")
def _cond_br(t: _FunctionTranslation, op: Operation, args: list) -> None:
    true_block, false_block = t.edges(op, args[1:])
    t.builder.cbranch(args[0], true_block, false_block)


@_handles("llvm.switch")
def _switch(t: _FunctionTranslation, op: Operation, args: list) -> None:
    default, *cases = t.edges(op, args[1:])
    values = op.attributes.get("case_values")
    numbers = [] if values is None else [int(v) for v in values.array.reshape(-1)]
    inst = t.builder.switch(args[0], default)
    for number, block in zip(numbers, cases):
        inst.add_case(ir.Constant(args[0].type, number), block)


def _intrinsic(t: _FunctionTranslation, op: Operation, args: list) -> ir.Value | None:
    short = op.name[len("llvm.intr."):]
    result_type = t.type(op.results[0].type, op) if op.results else ir.VoidType()
    if short.startswith("vector.reduce."):
        suffix = _mangled(args[-1].type)
    elif short == "masked.load":
        suffix = f"{_mangled(result_type)}.{_mangled(args[0].type)}"
        alignment = ir.Constant(ir.IntType(32), _int(op, "alignment", 1))
        args = [args[0], alignment, *args[1:]]
    elif short == "masked.store":
        suffix = f"{_mangled(args[0].type)}.{_mangled(args[1].type)}"
        alignment = ir.Constant(ir.IntType(32), _int(op, "alignment", 1))
        args = [args[0], args[1], alignment, args[2]]
    elif short == "powi":
        suffix = f"{_mangled(result_type)}.{_mangled(args[1].type)}"
    elif short in ("abs", "ctlz", "cttz"):
        suffix = _mangled(result_type)
        flag = "is_int_min_poison" if short == "abs" else "is_zero_poison"
        poison = op.attributes.get(flag)
        args = [*args, ir.Constant(ir.IntType(1), int(bool(getattr(poison, "value", poison)))
                                   if poison is not None else 0)]
    else:
        suffix = _mangled(result_type)
    name = f"llvm.{short}.{suffix}"
    fn = t.module.intrinsic(name, result_type, [a.type for a in args])
    inst = t.builder.call(fn, args, fastmath=_fastmath(op))
    return inst if op.results else None


# ------------------------------------------------------------------ functions and module


@dataclass
class _ModuleTranslation:
    module: ir.Module
    symbols: dict[str, ir.GlobalValue] = field(default_factory=dict)

    def symbol(self, name: str, op: Operation) -> ir.GlobalValue:
        found = self.symbols.get(name)
        if found is None:
            raise _fail(f"'{op.name}' refers to '@{name}', which is not defined", op.loc)
        return found

    def intrinsic(self, name: str, result: ir.Type, params: Sequence[ir.Type]) -> ir.Function:
        found = self.module.globals.get(name)
        if found is None:
            found = ir.Function(self.module, ir.FunctionType(result, list(params)), name)
        return found


class _FunctionTranslation:
    def __init__(self, module: _ModuleTranslation, fn: ir.Function, op: Operation):
        self.module = module
        self.fn = fn
        self.op = op
        self.values: dict[Value, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        self.phis: dict[Block, list[ir.PhiInstr]] = {}
        self.builder = ir.IRBuilder()

    def type(self, type_: Type, op: Operation) -> ir.Type:
        return llvm_type(type_, op.loc)

    def edges(self, op: Operation, operands: list) -> list[ir.Block]:
        """The LLVM blocks `op` branches to, with its operands as the successors' phi
        entries; a second edge to the same block with arguments goes through a new
        forwarding block."""
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
        region = self.op.regions[0]
        order = reverse_postorder(region.blocks[0])
        for block in order:
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
        # Operands defined later in block order (only phi entries can be) are resolved
        # after all blocks: branch operands are collected, then patched.
        for block in order:
            self.builder.position_at_end(self.blocks[block])
            for op in block.ops():
                self._translate_op(op)

    def _translate_op(self, op: Operation) -> None:
        handler = _HANDLERS.get(op.name)
        if handler is None and op.name.startswith("llvm.intr."):
            handler = _intrinsic
        if handler is None:
            raise _fail(f"cannot translate '{op.name}' to LLVM IR", op.loc)
        try:
            args = [self.values[v] for v in op.operands]
        except KeyError:
            raise _fail(f"'{op.name}' uses a value that does not dominate it", op.loc) from None
        try:
            result = handler(self, op, args)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
            raise _fail(f"cannot translate '{op.name}' to LLVM IR: {exc}", op.loc) from None
        if op.results:
            self.values[op.results[0]] = result


# Argument attributes carried to LLVM IR. llvmlite refuses `readonly`/`writeonly` on
# arguments; they are hints whose absence changes no result, so they are dropped.
_ARG_ATTRIBUTES = {"llvm.noalias": "noalias", "llvm.nocapture": "captures(none)",
                   "llvm.nonnull": "nonnull", "llvm.noundef": "noundef"}


def _function_type(op: Operation) -> LLVMFunctionType:
    type_ = _type_attr(op, "function_type")
    if not isinstance(type_, LLVMFunctionType):
        raise _fail("llvm.func's function_type must be an !llvm.func type", op.loc)
    return type_


def _declare_function(t: _ModuleTranslation, op: Operation) -> None:
    name = op.attributes["sym_name"].value
    fn = ir.Function(t.module, llvm_type(_function_type(op), op.loc), name)
    linkage = op.attributes.get("linkage")
    if isinstance(linkage, LinkageAttr) and linkage.linkage.value != "external":
        fn.linkage = linkage.linkage.value
    arg_attrs = op.attributes.get("arg_attrs")
    if isinstance(arg_attrs, ArrayAttr):
        for arg, entries in zip(fn.args, arg_attrs):
            _add_argument_attributes(arg, entries, op)
    t.symbols[name] = fn


def _add_argument_attributes(arg: ir.Argument, entries: Attribute, op: Operation) -> None:
    if not isinstance(entries, DictionaryAttr):
        return
    for key, value in entries.entries:
        if key in _ARG_ATTRIBUTES and isinstance(value, UnitAttr):
            arg.add_attribute(_ARG_ATTRIBUTES[key])
        elif key == "llvm.align" and isinstance(value, IntegerAttr):
            arg.attributes.align = value.value


def _define_global(t: _ModuleTranslation, op: Operation) -> None:
    name = op.attributes["sym_name"].value
    value_type = llvm_type(_type_attr(op, "global_type"), op.loc)
    value = op.attributes.get("value")
    if isinstance(value, DenseElementsAttr) and value.is_splat() \
            and not any(np.asarray(value.splat_element()).tobytes()):  # -0.0 is not zero
        # A zero splat (an uninitialized buffer's, say): LLVM's zeroinitializer, whatever
        # its size, not its bytes.
        var = ir.GlobalVariable(t.module, value_type, name)
        var.initializer = ir.Constant(value_type, None)
    elif isinstance(value, (DenseElementsAttr, DenseResourceElementsAttr)):
        # The constant's bytes as they lie in memory: exact (every bit pattern kept)
        # and fast for large weights, which per-element constants are not.
        data = _dense_bytes(value)
        value_type = ir.ArrayType(ir.IntType(8), len(data))
        var = ir.GlobalVariable(t.module, value_type, name)
        var.initializer = ir.Constant(value_type, bytearray(data))
    else:
        if value is None and op.regions and op.regions[0].blocks:
            raise _fail("globals with initializer regions are not translated", op.loc)
        var = ir.GlobalVariable(t.module, value_type, name)
        if value is not None:
            var.initializer = constant(value_type, value, op.loc)
    var.global_constant = "constant" in op.attributes
    linkage = op.attributes.get("linkage")
    if isinstance(linkage, LinkageAttr) and linkage.linkage.value != "external":
        var.linkage = linkage.linkage.value
    alignment = _int(op, "alignment")
    if alignment:
        var.align = alignment
    t.symbols[name] = var


def _dense_bytes(attr: DenseElementsAttr | DenseResourceElementsAttr) -> bytes:
    import numpy as np

    shape = getattr(attr.type, "shape", ())
    values = attr.array() if isinstance(attr, DenseResourceElementsAttr) else attr.array
    if values is None:
        raise _fail(f"the elements of {attr} are not available (its blob is missing)", None)
    array = np.ascontiguousarray(np.broadcast_to(np.asarray(values), shape))
    return array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


def translate_module(module: Operation, name: str = "mlc", *,
                     check_limits: bool = True) -> ir.Module:
    """`module` (a builtin.module of llvm ops) as an llvmlite module; raises
    TranslationError naming the first op that has no LLVM IR counterpart, or every
    size LLVM cannot be given (mlc.llvm.limits; `check_limits=False` when the module
    was checked before it was lowered to llvm)."""
    problems = native_limit_problems(module) if check_limits else None
    if problems:
        raise TranslationError(problems)
    t = _ModuleTranslation(ir.Module(name=name))
    top = [op for block in module.regions[0].blocks for op in block.ops()]
    for op in top:
        if op.name == "llvm.func":
            _declare_function(t, op)
        elif op.name == "llvm.mlir.global":
            _define_global(t, op)
        else:
            raise _fail(f"cannot translate '{op.name}' to LLVM IR (expected llvm.func or "
                        "llvm.mlir.global at the top of the module)", op.loc)
    for op in top:
        if op.name == "llvm.func" and op.regions and op.regions[0].blocks:
            fn = t.symbols[op.attributes["sym_name"].value]
            _FunctionTranslation(t, fn, op).translate()
    return t.module


def translate_to_llvm_ir(module: Operation, name: str = "mlc", *,
                         check_limits: bool = True) -> str:
    """LLVM IR text of `module` (see translate_module)."""
    return str(translate_module(module, name, check_limits=check_limits))


__all__ = ["TranslationError", "translate_module", "translate_to_llvm_ir", "llvm_type",
           "constant"]
