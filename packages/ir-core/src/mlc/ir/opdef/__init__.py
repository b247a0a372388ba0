"""Declaring ops, dialect types and attributes as data: the op base class and its
parts, constraints, traits, custom directives, spellings and parameters.

    from mlc.ir.opdef import Op, OperandDef, ResultDef, AttrDef, FloatLike, Pure
"""

from mlc.ir.core.lazy_exports import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    "declare": ("AttrDef", "Op", "OpDef", "OperandDef", "RegionDef", "ResultDef", "SuccessorDef",
                "VerificationError"),
    "constraints": ("AnyAttr", "AnyFloat", "AnyInteger", "AnyMemRef", "AnyRankedTensor",
                    "AnySignlessInteger", "AnyTensor", "AnyType", "ArrayAttrConstraint",
                    "ArrayOf", "AttrConstraint", "AttrOfClass", "BoolLike",
                    "DenseArrayConstraint", "DialectAttrOf", "DictAttrConstraint",
                    "ElementsAttrConstraint", "FlatSymbolRefAttr", "FloatLike",
                    "FunctionTypeAttr", "Index", "IntAttrOf", "IntEnum", "IntegerOrIndex",
                    "SignlessIntegerLike", "StrAttr", "StringKeyword", "SymbolNameAttr",
                    "TypeAttrOf", "TypeConstraint", "TypeIs", "TypeMatches", "TypedAttr",
                    "UnitAttrConstraint", "as_attr_constraint", "as_type_constraint"),
    "traits": ("AllTypesMatch", "AttrSizedOperandSegments", "Commutative", "ConstantLike",
               "ElementwiseMappable", "GraphRegions", "HasParent", "IsTerminator",
               "IsolatedFromAbove", "NoRegionArguments", "NoTerminator", "OpPredicate",
               "Pure", "SameOperandsAndResultType", "SameTypeOperands", "SingleBlock", "Symbol",
               "SymbolTable", "Trait"),
    "directive": ("Directive",),
    "spelling": ("Spelling", "BitEnumSpelling", "EnumSpelling", "spelling_of_annotation"),
    "params": ("ParamDef", "parameters_of"),
})
