"""What the `llvm` dialect's integer arithmetic computes, for :mod:`mlc.ir.interpreter`.

Each of these llvm ops is the arith op it mirrors, flags and undefined behaviour
included (`llvm.sdiv` is `arith.divsi`: division by zero and `MIN / -1` are undefined,
`exact` makes a dropped nonzero bit poison; `overflow<nsw>` is arith's), so the
interpreter runs them with arith's handlers. That lets the interpreter check passes
on programs in the llvm dialect, as it does on arith (the speculation property test).
"""

from __future__ import annotations

from mlc.ir.dialects import arith as A
from mlc.ir.interpreter import handler_for, impl
from mlc.llvm.dialect import ops_arith as L
from mlc.llvm.dialect import ops_intrinsics as I
from mlc.llvm.dialect import ops_values as V

# (arith op, llvm op): the same function of the same operands and flags (named alike:
# `overflowFlags`, `isExact`). arith-to-llvm lowers each to its mirror.
INTEGER_ARITHMETIC = (
    (A.AddIOp, L.AddOp), (A.SubIOp, L.SubOp), (A.MulIOp, L.MulOp), (A.ShLIOp, L.ShlOp),
    (A.DivSIOp, L.SDivOp), (A.DivUIOp, L.UDivOp),
    (A.ShRSIOp, L.AShrOp), (A.ShRUIOp, L.LShrOp),
    (A.RemSIOp, L.SRemOp), (A.RemUIOp, L.URemOp),
    (A.AndIOp, L.AndOp), (A.OrIOp, L.OrOp), (A.XOrIOp, L.XOrOp),
    (A.MaxSIOp, I.SmaxOp), (A.MaxUIOp, I.UmaxOp), (A.MinSIOp, I.SminOp), (A.MinUIOp, I.UminOp),
)


def _register() -> None:
    for arith_op, llvm_op in (*INTEGER_ARITHMETIC, (A.ConstantOp, V.ConstantOp)):
        impl(llvm_op)(handler_for(arith_op))


_register()
