"""Translation of the llvm dialect's values (:mod:`mlc.llvm.dialect.ops_values`): constants,
globals and their addresses, memory access, address arithmetic, vector elements and
aggregates."""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from mlc.ir.core.attributes import (
    DenseElementsAttr,
    DenseResourceElementsAttr,
    SymbolRefAttr,
)
from mlc.ir.core.ir import Operation
from mlc.llvm.dialect import ops_values as V
from mlc.llvm.dialect.translation.core import (
    FunctionTranslation,
    ModuleTranslation,
    constant,
    dense_values,
    int_attr,
    llvm_type,
    translates,
    translates_at_module_level,
    type_attr,
)
from mlc.llvm.dialect.translation.initializers import (
    dense_initializer,
    region_initializer,
    resource_array,
)
from mlc.llvm.dialect.translation.symbols import LLVMGlobal
from mlc.llvm.dialect.types import ZeroAttr

# ------------------------------------------------------------------ constants


@translates(V.ConstantOp)
def _constant(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return constant(t.type(op.results[0].type, op), op.attributes["value"], op.loc)


@translates(V.UndefOp, V.PoisonOp)
def _undef(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    # llvmlite has no poison constant; undef is a refinement-compatible stand-in.
    return ir.Constant(t.type(op.results[0].type, op), ir.Undefined)


@translates(V.ZeroOp)
def _zero(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return ir.Constant(t.type(op.results[0].type, op), None)


# ------------------------------------------------------------------ globals


@translates(V.AddressOfOp)
def _addressof(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    name = op.attributes["global_name"]
    return t.module.symbol(name.root if isinstance(name, SymbolRefAttr) else str(name), op)


@translates_at_module_level(V.GlobalOp)
def _define_global(t: ModuleTranslation, op: Operation) -> None:
    name = op.attributes["sym_name"].value
    value_type = llvm_type(type_attr(op, "global_type"), op.loc)
    value = op.attributes.get("value")
    address_space = int_attr(op, "addr_space", 0) or 0
    array = None
    if isinstance(value, DenseResourceElementsAttr):
        array = resource_array(value, op.loc)
    elif isinstance(value, DenseElementsAttr):
        array = np.asarray(value.array)
    initializer = None
    if isinstance(value, DenseElementsAttr) and value.is_splat() \
            and not any(np.asarray(value.splat_element()).tobytes()):
        # A zero splat (an uninitialized buffer's, say): LLVM's zeroinitializer, whatever
        # its size (-0.0 is not zero: its bytes are not).
        initializer = ir.Constant(value_type, None)
    elif array is not None:
        # The elements in the global's own type; when the value does not fit it
        # element-wise (a tensor of f32 for an i8 array, say), its bytes as they lie in
        # memory, exact, in an i8 array of their size.
        initializer = dense_initializer(value_type, array)
        if initializer is None:
            data = _dense_bytes(value, array)
            value_type = ir.ArrayType(ir.IntType(8), len(data))
            initializer = ir.Constant(value_type, bytearray(data))
    elif value is not None:
        initializer = constant(value_type, value, op.loc)
    var = LLVMGlobal(t.module, value_type, name, op, address_space)
    if value is None and op.regions and op.regions[0].blocks:
        # Evaluated once every symbol is declared: it may take any one's address.
        def initialize() -> None:
            var.initializer = region_initializer(t, op)
        t.deferred.append(initialize)
    if initializer is not None:
        var.initializer = initializer
    var.global_constant = "constant" in op.attributes
    alignment = int_attr(op, "alignment")
    if alignment:
        var.align = alignment
    t.symbols[name] = var


@translates_at_module_level(V.GlobalCtorsOp, V.GlobalDtorsOp)
def _define_xtors(t: ModuleTranslation, op: Operation) -> None:
    # LLVM's `@llvm.global_ctors`/`dtors`: an appending array of {priority, function,
    # datum}, the datum a symbol's address or null.
    pointer = ir.PointerType()
    entry = ir.LiteralStructType([ir.IntType(32), pointer, pointer])
    entries = []
    for function, priority, datum in zip(op.functions(), op.priorities.elements,
                                         op.data.elements):
        data = ir.Constant(pointer, None) if isinstance(datum, ZeroAttr) \
            else t.symbol(datum.root, op)
        entries.append(ir.Constant.literal_struct(
            [ir.Constant(ir.IntType(32), priority.value), t.symbol(function.root, op), data]))
    array = ir.ArrayType(entry, len(entries))
    var = ir.GlobalVariable(t.module, array, f"llvm.global_{op.KIND}")
    var.linkage = "appending"
    var.initializer = ir.Constant(array, entries)


def _dense_bytes(attr: DenseElementsAttr | DenseResourceElementsAttr, values) -> bytes:
    shape = getattr(attr.type, "shape", ())
    array = np.ascontiguousarray(np.broadcast_to(np.asarray(values), shape))
    return array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


# ------------------------------------------------------------------ memory


@translates(V.GEPOp)
def _gep(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    base, dynamic = args[0], iter(args[1:])
    indices = []
    for raw in dense_values(op.attributes["rawConstantIndices"]):
        indices.append(next(dynamic) if raw == V.DYNAMIC_INDEX
                       else ir.Constant(ir.IntType(32), raw))
    inbounds = bool((int_attr(op, "noWrapFlags", 0) or 0) & 1) or "inbounds" in op.attributes
    return t.builder.gep(base, indices, inbounds=inbounds,
                         source_etype=t.type(type_attr(op, "elem_type"), op))


@translates(V.AllocaOp)
def _alloca(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    inst = t.builder.alloca(t.type(type_attr(op, "elem_type"), op), size=args[0])
    # llvmlite types an alloca as a pointer to its element; the dialect's result is an
    # opaque `!llvm.ptr`, through which any type may be stored (a struct's fields).
    inst.type = t.type(op.results[0].type, op)
    alignment = int_attr(op, "alignment")
    if alignment:
        inst.align = alignment
    return inst


# ------------------------------------------------------------------ vectors and aggregates


@translates(V.InsertElementOp)
def _insertelement(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    vector, value, position = args
    return t.builder.insert_element(vector, value, position)


@translates(V.ExtractElementOp)
def _extractelement(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.extract_element(*args)


@translates(V.ShuffleVectorOp)
def _shufflevector(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    mask = dense_values(op.attributes["mask"])
    i32 = ir.IntType(32)
    elements = [ir.Constant(i32, ir.Undefined if m < 0 else m) for m in mask]
    return t.builder.shuffle_vector(args[0], args[1],
                                    ir.Constant(ir.VectorType(i32, len(mask)), elements))


@translates(V.InsertValueOp)
def _insertvalue(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.insert_value(args[0], args[1], dense_values(op.attributes["position"]))


@translates(V.ExtractValueOp)
def _extractvalue(t: FunctionTranslation, op: Operation, args: list) -> ir.Value:
    return t.builder.extract_value(args[0], dense_values(op.attributes["position"]))
