#!/bin/sh
# `make demo`: mlc-opt on the built-in examples, mlc-import on an ONNX model, mlc-model on the
# networks, and native code (mlc-run, mlc-translate).
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
step mlc-opt --list-ops | head -5
step mlc-opt simplify.mlir -p 'builtin.module(func.func(cse,canonicalize),symbol-dce)'

echo
echo "# The graph dialect: TVM's pass-infrastructure tutorial program under its pipelines."
step mlc-opt tutorial.mlir --graph-fold-constant
step mlc-opt tutorial.mlir -p 'graph-fold-constant,graph-fuse-ops{opt-level=0}'
step mlc-opt tutorial.mlir --opt-level 2 -p 'graph-fold-constant,cse,graph-fuse-ops' --print-pass-skips
step mlc-opt tutorial.mlir --opt-level 3 -p 'graph-fold-constant,cse,graph-fuse-ops'
step mlc-opt tutorial.mlir --graph-alter-op-layout --elide-elementsattrs-if-larger 16
step mlc-opt fusion.mlir --graph-fuse-ops --fusion-remarks
echo
echo "# An ONNX model (built by onnx_convnet.py), imported and optimised:"
model=/tmp/mlc-demo-$$.onnx
step python onnx_convnet.py "$model"
step mlc-import "$model" --input-shape image=1,3,32,32 --elide-elementsattrs-if-larger 16
step mlc-opt "$model" --input-shape image=1,3,32,32 -p graph-optimize --elide-elementsattrs-if-larger 16
rm -f "$model"
echo
echo "# The acceptance networks through graph-optimize (kernels after fusion, checked by the interpreter):"
step mlc-model mlp --check
step mlc-model resnet18 --check
step mlc-model mobilenet_v2
step mlc-model transformer --check
step mlc-model deep_convnet --param blocks=4 --param width=16 --check
echo
echo "# The loop level: the MLC course's mm_relu kernel, scheduled by a saved trace:"
step mlc-opt mm_relu.mlir -p 'loop-apply-trace{file=mm_relu.trace.json}'
echo
echo "# Graph to loops: two fused convolution blocks, one kernel, checked by the interpreter:"
step mlc-opt conv_relu.mlir -p 'graph-optimize,graph-lower-to-loop' --check-semantics
echo
echo "# Native code: the same module as one native entry point, checked against the interpreter;"
echo "# a kernel lowered to the llvm dialect and to LLVM IR; the MLP compiled, run and timed:"
step mlc-run conv_relu.mlir --random-inputs 0 --check interpreter --timing
step mlc-opt loops.mlir -p 'convert-scf-to-cf,convert-to-llvm'
mlc-opt loops.mlir -p 'convert-scf-to-cf,convert-to-llvm' -o /tmp/mlc-demo-$$.mlir
step mlc-translate /tmp/mlc-demo-$$.mlir -O3
rm -f /tmp/mlc-demo-$$.mlir
step mlc-run loops.mlir --entry sum_of_squares --random-inputs 0 --check interpreter
step mlc-model mlp --run --benchmark 100
exit 0
