"""The arith dialect's passes: arith-expand and arith-emulate-wide-int. Importing this
package registers them."""

from mlc.ir.passes.arith import emulate_wide_int, expand_ops
