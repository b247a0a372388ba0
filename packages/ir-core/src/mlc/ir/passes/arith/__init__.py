"""The arith dialect's passes: arith-expand, arith-emulate-wide-int and
arith-emulate-unsupported-floats. Importing this
package registers them."""

from mlc.ir.passes.arith import emulate_unsupported_floats, emulate_wide_int, expand_ops
