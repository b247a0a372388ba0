#!/bin/sh
# `make demo`: mlc-opt on the built-in examples.
set -u
cd "$(dirname "$0")"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
step mlc-opt arith.mlir
step mlc-opt arith.mlir --print-op-generic
step mlc-opt arith.mlir --print-debuginfo
echo
echo "# The generic form parses back to the same IR:"
mlc-opt arith.mlir --print-op-generic | mlc-opt - | diff -u - "$(mlc-opt arith.mlir > /tmp/mlc-demo-$$.mlir; echo /tmp/mlc-demo-$$.mlir)" && echo "identical"
rm -f /tmp/mlc-demo-$$.mlir
step mlc-opt bad.mlir
echo "(exit status $?)"
step mlc-opt --list-ops
exit 0
