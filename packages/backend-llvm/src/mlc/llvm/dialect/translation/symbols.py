"""What an `llvm.func` or `llvm.mlir.global` says about its symbol, as LLVM IR text:
linkage, `dso_local`, visibility, `(local_)unnamed_addr`, `thread_local`, calling
convention, section, alignment, `gc`, function attributes (MLIR's named ones such as
`target_cpu` and `no_inline`, and `passthrough`), argument and result attributes.

llvmlite's `Function` and `GlobalVariable` write only some of these (and accept only
the function attributes of its own list), so :class:`LLVMFunction` and
:class:`LLVMGlobal` write the whole header themselves, in LLVM's grammar order; LLVM's
parser then reads them as mlir-translate's output reads (attribute groups and all).
"""

from __future__ import annotations

from llvmlite import ir

from mlc.ir.core.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
    i1,
)
from mlc.ir.core.ir import Operation
from mlc.llvm.dialect.constraints import UnnamedAddr, Visibility
from mlc.llvm.dialect.function_attrs import (
    FramePointerKindAttr,
    TargetFeaturesAttr,
    UWTableKindAttr,
)
from mlc.llvm.dialect.translation.core import llvm_type, translation_error

# LLVM's attribute keywords that take no value: a `passthrough` name among these is
# written bare, any other name as a string attribute (`"foo"`), as MLIR decides with
# LLVM's `Attribute::getAttrKindFromName`.
_ENUM_ATTRIBUTES = frozenset("""
alwaysinline builtin cold convergent disable_sanitizer_instrumentation fn_ret_thunk_extern
hot hybrid_patchable inlinehint jumptable minsize mustprogress naked nobuiltin nocallback
nocf_check noduplicate nofree noimplicitfloat noinline nomerge noprofile norecurse
noredzone noreturn nosanitize_bounds nosanitize_coverage nosync nounwind nonlazybind
null_pointer_is_valid optforfuzzing optnone optsize presplitcoroutine readnone readonly
returns_twice
safestack sanitize_address sanitize_hwaddress sanitize_memory sanitize_memtag
sanitize_thread shadowcallstack skipprofile speculatable speculative_load_hardening ssp
sspreq sspstrong strictfp willreturn writable writeonly
""".split())
# Keywords that take an integer: `alignstack(4)`.
_INT_ATTRIBUTES = frozenset({"alignstack", "uwtable", "dereferenceable",
                             "dereferenceable_or_null", "align"})
# MLIR's named function attributes: unit ones and their LLVM keyword...
_UNIT_FUNCTION_ATTRIBUTES = {"no_inline": "noinline", "always_inline": "alwaysinline",
                             "inline_hint": "inlinehint", "no_unwind": "nounwind",
                             "will_return": "willreturn", "optimize_none": "optnone",
                             "convergent": "convergent", "cold": "cold", "hot": "hot",
                             "noduplicate": "noduplicate", "no_caller_saved_registers":
                             '"no_caller_saved_registers"', "nocallback": "nocallback",
                             "returns_twice": "returns_twice", "minsize": "minsize",
                             "optsize": "optsize", "save_reg_params": '"save-reg-params"',
                             "modular_format": '"modular-format"',
                             # Arm SME's function attributes, as strings.
                             "arm_streaming": '"aarch64_pstate_sm_enabled"',
                             "arm_locally_streaming": '"aarch64_pstate_sm_body"',
                             "arm_streaming_compatible": '"aarch64_pstate_sm_compatible"',
                             "arm_new_za": '"aarch64_new_za"', "arm_in_za": '"aarch64_in_za"',
                             "arm_out_za": '"aarch64_out_za"',
                             "arm_inout_za": '"aarch64_inout_za"',
                             "arm_preserves_za": '"aarch64_preserves_za"'}
# The attributes a call site may carry (`llvm.call @f() {no_inline}`).
CALL_SITE_ATTRIBUTES = {"convergent": "convergent", "no_unwind": "nounwind",
                        "will_return": "willreturn", "no_inline": "noinline",
                        "always_inline": "alwaysinline", "inline_hint": "inlinehint"}
# ... and string-valued ones, written `"key"="value"`.
_STRING_FUNCTION_ATTRIBUTES = {"target_cpu": "target-cpu", "tune_cpu": "tune-cpu",
                               "prefer_vector_width": "prefer-vector-width",
                               "reciprocal_estimates": "reciprocal-estimates",
                               "instrument_function_entry": "instrument-function-entry",
                               "instrument_function_exit": "instrument-function-exit",
                               "denormal_fp_math": "denormal-fp-math",
                               "denormal_fp_math_f32": "denormal-fp-math-f32",
                               "fp_contract": "fp-contract"}
# Attributes of other dialects (`nvvm.minctasm = 10`) become string attributes, as
# MLIR's dialect translation interfaces write the ones it knows of.
_DIALECT_FUNCTION_ATTRIBUTE_PREFIXES = ("nvvm.", "rocdl.")
# Boolean ones, written `"key"="true"` (or "false").
_BOOL_FUNCTION_ATTRIBUTES = {"unsafe_fp_math": "unsafe-fp-math",
                             "no_infs_fp_math": "no-infs-fp-math",
                             "no_nans_fp_math": "no-nans-fp-math",
                             "approx_func_fp_math": "approx-func-fp-math",
                             "no_signed_zeros_fp_math": "no-signed-zeros-fp-math",
                             "use_sample_profile": "use-sample-profile"}
# Argument and result attributes (`{llvm.noalias}`): unit ones by LLVM keyword.
_UNIT_VALUE_ATTRIBUTES = {"llvm.noalias": "noalias", "llvm.nocapture": "captures(none)",
                          "llvm.nonnull": "nonnull", "llvm.noundef": "noundef",
                          "llvm.readonly": "readonly", "llvm.writeonly": "writeonly",
                          "llvm.readnone": "readnone", "llvm.zeroext": "zeroext",
                          "llvm.signext": "signext", "llvm.inreg": "inreg",
                          "llvm.returned": "returned", "llvm.nest": "nest",
                          "llvm.nofree": "nofree", "llvm.immarg": "immarg",
                          "llvm.swiftself": "swiftself", "llvm.swifterror": "swifterror",
                          "llvm.allocalign": "allocalign", "llvm.allocptr": "allocptr",
                          "llvm.dead_on_unwind": "dead_on_unwind", "llvm.writable": "writable"}
_TYPE_VALUE_ATTRIBUTES = frozenset({"byval", "byref", "sret", "inalloca", "preallocated",
                                    "elementtype"})


def quoted(text: str) -> str:
    """`text` as an LLVM IR string literal (non-printable bytes escaped `\\XX`)."""
    data = text.encode("utf-8", "surrogateescape")
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}"
                         for b in data) + '"'


def _string(attr: Attribute | None) -> str | None:
    return attr.value if isinstance(attr, StringAttr) else None


def _passthrough(entry: Attribute, op: Operation, what: str = "passthrough") -> str:
    """One `passthrough` entry (or one of `what`, a list of the same form): a name, or
    a [name, value] pair."""
    if isinstance(entry, StringAttr):
        if entry.value in _INT_ATTRIBUTES:
            raise translation_error(f"LLVM attribute '{entry.value}' expects a value", op.loc)
        return entry.value if entry.value in _ENUM_ATTRIBUTES else quoted(entry.value)
    # As MLIR: anything but a name or a pair is the first error, a pair of non-strings
    # the second.
    if not isinstance(entry, ArrayAttr) or len(entry) != 2:
        raise translation_error(f"expected '{what}' to contain string or array attributes",
                                op.loc)
    pair = list(entry)
    if not all(isinstance(part, StringAttr) for part in pair):
        raise translation_error(f"expected arrays within '{what}' to contain two strings",
                                op.loc)
    key, value = pair[0].value, pair[1].value
    if key in _ENUM_ATTRIBUTES:
        raise translation_error(f"LLVM attribute '{key}' does not expect a value, found "
                                f"'{value}'", op.loc)
    if key == "allocsize":  # packed as MLIR's importer packs it: element size << 32 | count
        packed = int(value)
        size, count = packed >> 32, packed & 0xFFFFFFFF
        return f"allocsize({size})" if count == 0xFFFFFFFF else f"allocsize({size},{count})"
    if key in _INT_ATTRIBUTES:
        return f"{key}({int(value)})"
    if key == "memory" and value == "0":  # MLIR's encoding of LLVM's MemoryEffects
        return "memory(none)"
    return f"{quoted(key)}={quoted(value)}"


def function_attributes(op: Operation) -> list[str]:
    """The LLVM function attributes of an `llvm.func`, as IR text."""
    attrs = op.attributes
    found: list[str] = []
    for name, keyword in _UNIT_FUNCTION_ATTRIBUTES.items():
        if isinstance(attrs.get(name), UnitAttr):
            found.append(keyword)
    for name, key in _STRING_FUNCTION_ATTRIBUTES.items():
        value = _string(attrs.get(name))
        if value is not None:
            found.append(f"{quoted(key)}={quoted(value)}")
    for name, key in _BOOL_FUNCTION_ATTRIBUTES.items():
        value = attrs.get(name)
        if isinstance(value, IntegerAttr) and value.type == i1:
            found.append(f'{quoted(key)}="{str(bool(value.value)).lower()}"')
    frame_pointer = attrs.get("frame_pointer")
    if isinstance(frame_pointer, FramePointerKindAttr):
        found.append(f'"frame-pointer"={quoted(frame_pointer.kind)}')
    unwind = attrs.get("uwtable_kind")
    if isinstance(unwind, UWTableKindAttr) and unwind.kind != "none":
        found.append(f"uwtable({unwind.kind})")
    features = attrs.get("target_features")
    if isinstance(features, TargetFeaturesAttr) and features.features:
        found.append(f'"target-features"={quoted(",".join(features.features))}')
    for name, value in attrs.items():
        if name.startswith(_DIALECT_FUNCTION_ATTRIBUTE_PREFIXES) and isinstance(value, IntegerAttr):
            found.append(f"{quoted(name)}={quoted(str(value.value))}")
    passthrough = attrs.get("passthrough")
    if isinstance(passthrough, ArrayAttr):
        found += [_passthrough(entry, op) for entry in passthrough]
    elif passthrough is not None:
        raise translation_error("expected 'passthrough' to contain string or array attributes",
                                op.loc)
    return found


class TextAttributes(list):
    """Attributes already written as IR text, where llvmlite expects its own checked
    set (a call's `attributes`): any LLVM attribute passes."""

    def _to_list(self, _type) -> list[str]:
        return list(self)


def call_site_attributes(op: Operation) -> TextAttributes:
    """The function attributes of a call site, as IR text."""
    return TextAttributes(keyword for name, keyword in CALL_SITE_ATTRIBUTES.items()
                          if isinstance(op.attributes.get(name), UnitAttr))


def value_attributes(entries: Attribute | None, op: Operation) -> list[str]:
    """An argument's or result's attributes (`{llvm.noalias, llvm.align = 16}`) as IR
    text; other dialects' entries (`{mlc.name = ...}`) are not LLVM's and are left out."""
    if not isinstance(entries, DictionaryAttr):
        return []
    found: list[str] = []
    for key, value in entries.entries:
        if key in _UNIT_VALUE_ATTRIBUTES and isinstance(value, UnitAttr):
            found.append(_UNIT_VALUE_ATTRIBUTES[key])
            continue
        name = key.removeprefix("llvm.")
        if not key.startswith("llvm."):
            continue
        if isinstance(value, IntegerAttr) and name in _INT_ATTRIBUTES:
            found.append(f"{name}({value.value})")
        elif isinstance(value, TypeAttr) and name in _TYPE_VALUE_ATTRIBUTES:
            found.append(f"{name}({llvm_type(value.value, op.loc)})")
    return found


def visibility(op: Operation) -> str:
    """`hidden` or `protected`, or '' for default visibility."""
    attr = op.attributes.get("visibility_")
    keyword = Visibility.keyword(attr) if isinstance(attr, IntegerAttr) else "default"
    return "" if keyword == "default" else keyword


def unnamed_addr(op: Operation) -> str:
    """`unnamed_addr` or `local_unnamed_addr`, or ''."""
    attr = op.attributes.get("unnamed_addr")
    keyword = UnnamedAddr.keyword(attr) if isinstance(attr, IntegerAttr) else "none"
    return "" if keyword == "none" else keyword


def linkage(op: Operation) -> str:
    """The op's linkage keyword ('' for external, LLVM's default)."""
    attr = op.attributes.get("linkage")
    value = attr.linkage.value if attr is not None and hasattr(attr, "linkage") else "external"
    return "" if value == "external" else value


class LLVMFunction(ir.Function):
    """An llvmlite function that writes its whole header from an `llvm.func`: `define
    [linkage] [dso_local] [visibility] [cconv] [result attrs] T @f(args)
    [unnamed_addr] [attrs] [section] [align] [gc] [personality]`."""

    def __init__(self, module: ir.Module, ftype: ir.FunctionType, name: str, op: Operation):
        super().__init__(module, ftype, name)
        self.op = op
        self.linkage = linkage(op)
        arg_attrs = op.attributes.get("arg_attrs")
        self.argument_attributes = [value_attributes(entry, op) for entry in arg_attrs] \
            if isinstance(arg_attrs, ArrayAttr) else [[] for _ in self.args]
        res_attrs = op.attributes.get("res_attrs")
        self.result_attributes = value_attributes(res_attrs[0], op) \
            if isinstance(res_attrs, ArrayAttr) and len(res_attrs) else []
        self.function_attributes = function_attributes(op)
        self.section = _string(op.attributes.get("section")) or ""
        self.personality: ir.GlobalValue | None = None

    def descr_prototype(self, buf: list) -> None:
        op = self.op
        cconv = op.attributes.get("CConv")
        cconv_name = cconv.cconv.value if cconv is not None and hasattr(cconv, "cconv") else "ccc"
        head = ["define" if self.blocks else "declare", self.linkage,
                "dso_local" if "dso_local" in op.attributes else "", visibility(op),
                "" if cconv_name == "ccc" else cconv_name, *self.result_attributes,
                str(self.ftype.return_type)]
        args = [" ".join([str(arg.type), *attrs, *([arg.get_reference()] if self.blocks else [])])
                for arg, attrs in zip(self.args, self.argument_attributes)]
        if self.ftype.var_arg:
            args.append("...")
        tail = [unnamed_addr(op), *self.function_attributes]
        if self.section:
            tail.append(f"section {quoted(self.section)}")
        alignment = op.attributes.get("alignment")
        if isinstance(alignment, IntegerAttr):
            tail.append(f"align {alignment.value}")
        gc = _string(op.attributes.get("garbageCollector"))
        if gc is not None:
            tail.append(f"gc {quoted(gc)}")
        if self.personality is not None:
            tail.append(f"personality ptr {self.personality.get_reference()}")
        self._attach_metadata()
        # A function's attachments are separated by spaces (an instruction's by commas).
        metadata = " ".join(f"!{key} {node.get_reference()}"
                            for key, node in self.metadata.items())
        if not self.blocks:  # a declaration's attachments precede its signature
            head.insert(1, metadata)
            metadata = ""
        buf.append(" ".join(word for word in [*head, f"{self.get_reference()}({', '.join(args)})",
                                              *tail, metadata] if word) + "\n")

    def _attach_metadata(self) -> None:
        """The function's metadata: its profile entry count and OpenCL's kernel hints."""
        attrs, module = self.op.attributes, self.module
        i32 = ir.IntType(32)
        count = attrs.get("function_entry_count")
        if isinstance(count, IntegerAttr):
            self.set_metadata("prof", module.add_metadata(
                [ir.MetaDataString(module, "function_entry_count"),
                 ir.Constant(ir.IntType(64), count.value)]))
        for name in ("work_group_size_hint", "reqd_work_group_size"):
            sizes = attrs.get(name)
            if isinstance(sizes, DenseArrayAttr):
                self.set_metadata(name, module.add_metadata(
                    [ir.Constant(i32, size) for size in sizes.values]))
        sub_group = attrs.get("intel_reqd_sub_group_size")
        if isinstance(sub_group, IntegerAttr):
            self.set_metadata("intel_reqd_sub_group_size",
                              module.add_metadata([ir.Constant(i32, sub_group.value)]))


class LLVMGlobal(ir.GlobalVariable):
    """An llvmlite global that writes its whole definition from an `llvm.mlir.global`:
    `@g = [linkage] [dso_local] [visibility] [thread_local] [unnamed_addr]
    [addrspace(N)] [externally_initialized] global|constant T [init] [, section] [, align]`."""

    def __init__(self, module: ir.Module, typ: ir.Type, name: str, op: Operation,
                 addrspace: int = 0):
        super().__init__(module, typ, name, addrspace)
        self.op = op
        self.linkage = linkage(op)
        self.section = _string(op.attributes.get("section")) or ""
        # A global's attributes can only be an attribute group (`@g = global i32 0 #0`),
        # numbered here and written after the module (attribute_groups).
        self.attribute_group: tuple[int, str] | None = None
        specific = op.attributes.get("target_specific_attrs")
        if specific is not None:
            if not isinstance(specific, ArrayAttr):
                raise translation_error("expected 'target_specific_attrs' to contain string or "
                                        "array attributes", op.loc)
            text = " ".join(_passthrough(entry, op, "target_specific_attrs")
                            for entry in specific)
            number = sum(1 for g in module.global_values
                         if isinstance(g, LLVMGlobal) and g.attribute_group is not None)
            self.attribute_group = (number, text)

    def descr(self, buf: list) -> None:
        op = self.op
        declared = self.initializer is None and self.linkage in ("", "extern_weak")
        words = [self.linkage or ("external" if declared else ""),
                 "dso_local" if "dso_local" in op.attributes else "", visibility(op),
                 "thread_local" if "thread_local_" in op.attributes else "", unnamed_addr(op),
                 f"addrspace({self.addrspace})" if self.addrspace else "",
                 "externally_initialized" if "externally_initialized" in op.attributes else "",
                 "constant" if self.global_constant else "global", str(self.value_type)]
        if self.initializer is not None:
            words.append(self.initializer.get_reference())
        elif not declared:
            words.append(ir.Constant(self.value_type, ir.Undefined).get_reference())
        text = " ".join(word for word in words if word)
        if self.section:
            text += f", section {quoted(self.section)}"
        if self.align is not None:
            text += f", align {self.align}"
        if self.attribute_group is not None:
            text += f" #{self.attribute_group[0]}"
        buf.append(text + self._stringify_metadata(leading_comma=True) + "\n")


def attribute_groups(module: ir.Module) -> str:
    """The `attributes #N = { ... }` lines of the globals' attribute groups."""
    return "".join(f"attributes #{g.attribute_group[0]} = {{ {g.attribute_group[1]} }}\n"
                   for g in module.global_values
                   if isinstance(g, LLVMGlobal) and g.attribute_group is not None)
