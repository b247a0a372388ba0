"""mlc's IR core: operations, blocks, regions, types and attributes; the MLIR text
format; the verifier and diagnostics.

    from mlc.ir import Context, parse_module, print_op, verify

    module = parse_module(text, Context(), filename="input.mlir")
    verify(module)
    print(print_op(module))
"""

from mlc.ir.core.affine_expr import AffineConstraint, AffineExpr, dims, symbols
from mlc.ir.core.affine_map import AffineMap, AffineMapAttr, IntegerSet, IntegerSetAttr
from mlc.ir.core.attributes import (
    DYNAMIC,
    FLOAT_FORMATS,
    ArrayAttr,
    Attribute,
    BoolAttr,
    CallSiteLoc,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DialectAttribute,
    DialectType,
    DictionaryAttr,
    FileLineColLoc,
    FloatAttr,
    FloatType,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    Location,
    MemRefType,
    NameLoc,
    NoneType,
    OpaqueAttr,
    OpaqueType,
    RankedTensorType,
    ShapedType,
    SparseElementsAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TupleType,
    Type,
    TypeAttr,
    UnitAttr,
    UnknownLoc,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
    bf16,
    bits_to_float,
    element_dtype,
    f16,
    f32,
    f64,
    float_to_bits,
    i1,
    i8,
    i16,
    i32,
    i64,
    index,
    none,
    unit,
    unknown_loc,
)
from mlc.ir.core.dialect_registry import Context, Dialect
from mlc.ir.core.ir import (
    Block,
    BlockArgument,
    IRError,
    Operation,
    OpOperand,
    OpResult,
    Region,
    Value,
)
from mlc.ir.diagnostics import Diagnostic, DiagnosticError, SourceFile, SourceManager
from mlc.ir.opdef.declare import (
    AttrDef,
    Op,
    OpDef,
    OperandDef,
    RegionDef,
    ResultDef,
    SuccessorDef,
    VerificationError,
)
from mlc.ir.text.affine_parser import parse_affine_map, parse_integer_set
from mlc.ir.text.parser import parse_attribute, parse_module, parse_type
from mlc.ir.text.printer import PrintOptions, print_op
from mlc.ir.verify.verifier import verify

__all__ = [name for name in dir() if not name.startswith("_")]

# Modules moved by issue 27 stay importable under their old names.
from mlc.ir.core import moved_modules as _moved_modules  # noqa: E402

_moved_modules.install()
