"""Sizes native code refuses before LLVM sees them.

LLVM asserts (the process dies by SIGABRT) or runs for minutes on some sizes a
verified module may hold, and some sizes cannot be addressed at all. Each limit, with
its reason:

- `MAX_VECTOR_ELEMENTS` (16,384) elements in a vector type: instruction selection
  holds a vector's elements as the operands of one node, of which there may be at most
  65,535 (a `vector<65536xf32>` constant aborts LLVM), and its time grows faster than
  the width (measured here for a load, add, exp, reduction and store: 4,096 elements
  3 s, 16,384 21 s, 32,768 88 s).
- `MAX_BUFFER_BYTES` (2^47, 128 TiB) in a buffer (a memref, or an LLVM array): more
  than a 64-bit process can address (x86-64 and AArch64 give user space 47 or 48 bits);
  its byte offsets would overflow.
- `MAX_STACK_BYTES` (1 MiB) of `memref.alloca`/`llvm.alloca` in one function: a
  thread's stack is 8 MiB on Linux at best, less off the main thread, and an overflow
  is a SIGSEGV.
- `MAX_EMBEDDED_CONSTANT_BYTES` (1 GiB) in the initial value of a global written into
  the code: LLVM IR spells it out byte by byte (about 60 ms a megabyte here); `build`
  passes weights as arguments instead.

`native_limit_problems` finds every violation in a module (standard dialects or
llvm); `lower_to_llvm_ir` and the translation to LLVM IR refuse a module that has any,
and an argument spec larger than a buffer may be is refused when it is made.
"""

from __future__ import annotations

from math import prod

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    DenseResourceElementsAttr,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    Type,
    TypeAttr,
    VectorType,
)
from mlc.ir.core.ir import Operation
from mlc.ir.diagnostics import Diagnostic
from mlc.ir.dialects import memref
from mlc.ir.interfaces.function_like import is_function
from mlc.llvm.dialect.ops_values import AllocaOp as LLVMAllocaOp
from mlc.llvm.dialect.ops_values import GlobalOp as LLVMGlobalOp

__all__ = ["MAX_VECTOR_ELEMENTS", "MAX_BUFFER_BYTES", "MAX_STACK_BYTES",
           "MAX_EMBEDDED_CONSTANT_BYTES", "native_limit_problems", "buffer_size_problem",
           "byte_size"]

MAX_VECTOR_ELEMENTS = 16384
MAX_BUFFER_BYTES = 2**47
MAX_STACK_BYTES = 2**20
MAX_EMBEDDED_CONSTANT_BYTES = 2**30


def _element_bytes(type_: Type) -> int:
    if isinstance(type_, (FloatType, IntegerType)):
        return max(1, (type_.width + 7) // 8)
    if isinstance(type_, IndexType):
        return 8
    size = byte_size(type_)
    return size if size is not None else 8


def byte_size(type_: Type) -> int | None:
    """The bytes a value of `type_` occupies when it has a static size (a shaped type's
    elements included), else None."""
    from mlc.llvm.dialect.types import LLVMArrayType, LLVMStructType

    if isinstance(type_, (MemRefType, RankedTensorType, VectorType)):
        if any(d < 0 for d in type_.shape):
            return None
        return prod(type_.shape) * _element_bytes(type_.element_type)
    if isinstance(type_, LLVMArrayType):
        return type_.size * _element_bytes(type_.element)
    if isinstance(type_, LLVMStructType):
        return sum(_element_bytes(t) for t in type_.fields)
    if isinstance(type_, (FloatType, IntegerType, IndexType)):
        return _element_bytes(type_)
    return None


def _size_text(count: int) -> str:
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.3g} {unit}"
    return f"{count} bytes"


def buffer_size_problem(type_: Type) -> str | None:
    """Why a buffer or vector of `type_` is too large for native code, or None."""
    from mlc.llvm.dialect.types import LLVMArrayType

    if isinstance(type_, VectorType):
        count = prod(type_.shape)
        if count > MAX_VECTOR_ELEMENTS:
            return (f"{type_} has {count:,} elements; native code takes vectors of at most "
                    f"{MAX_VECTOR_ELEMENTS:,} (LLVM's instruction selection holds a vector's "
                    "elements as one node of at most 65,535 operands, and its time grows "
                    "faster than the width)")
    if isinstance(type_, (MemRefType, RankedTensorType, LLVMArrayType)):
        size = byte_size(type_)
        if size is not None and size > MAX_BUFFER_BYTES:
            return (f"{type_} takes {_size_text(size)}; native code addresses buffers of at "
                    f"most {_size_text(MAX_BUFFER_BYTES)} (2^47 bytes, the address space of "
                    "a 64-bit process)")
    return None


def _component_types(type_: Type):
    """`type_` and the types it is built of."""
    from mlc.llvm.dialect.types import LLVMArrayType, LLVMFunctionType, LLVMStructType

    yield type_
    if isinstance(type_, FunctionType):
        for inner in (*type_.inputs, *type_.results):
            yield from _component_types(inner)
    elif isinstance(type_, LLVMFunctionType):
        for inner in (type_.result, *type_.params):
            yield from _component_types(inner)
    elif isinstance(type_, LLVMArrayType):
        yield from _component_types(type_.element)
    elif isinstance(type_, LLVMStructType):
        for inner in type_.fields:
            yield from _component_types(inner)


def _types_of(op: Operation):
    for value in op.results:
        yield value.type
    for region in op.regions:
        for block in region.blocks:
            for arg in block.args:
                yield arg.type
    for attr in op.attributes.values():
        if isinstance(attr, TypeAttr):
            yield attr.value
        elif isinstance(attr, (DenseElementsAttr, DenseResourceElementsAttr)):
            yield attr.type


def _stack_bytes(op: Operation) -> int | None:
    """The bytes a memref.alloca or llvm.alloca of static size takes, else None."""
    if isinstance(op, memref.AllocaOp):
        return byte_size(op.results[0].type)
    if isinstance(op, LLVMAllocaOp):
        element = op.attributes.get("elem_type")
        count_op = op.operands[0].defining_op if op.operands else None
        count = count_op.attributes.get("value") if count_op is not None else None
        if isinstance(element, TypeAttr) and count is not None and hasattr(count, "value") \
                and isinstance(count.value, int):
            size = byte_size(element.value)
            return None if size is None else size * count.value
    return None


def _embedded_constant_bytes(op: Operation) -> int:
    """The bytes of a global's initial value that the code spells out: a zero splat is
    LLVM's zeroinitializer, whatever its size."""
    if not isinstance(op, (memref.GlobalOp, LLVMGlobalOp)):
        return 0
    value = op.attributes.get("initial_value", op.attributes.get("value"))
    if not isinstance(value, (DenseElementsAttr, DenseResourceElementsAttr)):
        return 0
    if isinstance(value, DenseElementsAttr) and value.is_splat():
        element = value.splat_element()
        try:
            if not element:
                return 0
        except (TypeError, ValueError):
            pass
    return byte_size(value.type) or 0


def native_limit_problems(module: Operation, limit: int = 10) -> list[Diagnostic]:
    """An error, located at its op, for each size in `module` beyond the limits above
    (at most `limit`, each reason once per type)."""
    problems: list[Diagnostic] = []
    seen: set[Type] = set()
    stack: dict[Operation, int] = {}
    for op in module.walk():
        for type_ in _types_of(op):
            if type_ in seen:
                continue
            for component in _component_types(type_):
                if component in seen:
                    continue
                seen.add(component)
                problem = buffer_size_problem(component)
                if problem is not None:
                    problems.append(Diagnostic("error", problem, op.loc))
        embedded = _embedded_constant_bytes(op)
        if embedded > MAX_EMBEDDED_CONSTANT_BYTES:
            problems.append(Diagnostic(
                "error", f"the initial value of '{op.name}' takes {_size_text(embedded)}; "
                f"native code embeds constants of at most {_size_text(MAX_EMBEDDED_CONSTANT_BYTES)} "
                "(pass larger ones as arguments, as mlc.llvm.build passes weights)", op.loc))
        size = _stack_bytes(op)
        if size:
            function = op.parent_op
            while function is not None and not is_function(function):
                function = function.parent_op
            total = stack[function] = stack.get(function, 0) + size
            if total > MAX_STACK_BYTES >= total - size:
                problems.append(Diagnostic(
                    "error", f"'{op.name}' brings the function's stack buffers to "
                    f"{_size_text(total)}; native code allows at most "
                    f"{_size_text(MAX_STACK_BYTES)} (a thread's stack overflowing is a crash; "
                    "use memref.alloc)", op.loc))
        if len(problems) >= limit:
            break
    return problems[:limit]
