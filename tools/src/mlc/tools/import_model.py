"""`mlc-import`: a model, an ONNX model or a saved torch.export program, as a
graph-dialect module in MLIR text (the ONNX frontend `mlc.onnx` or the torch frontend
`mlc.torch` does the import, chosen by the file's suffix).

    mlc-import model.onnx                            # @main with the weights as blobs
    mlc-import model.pt2                             # a program torch.export.save wrote
    mlc-import model.onnx -o model.mlir --input-shape input=1,3,224,224
    mlc-import model.onnx --keep-params              # initializers as parameters of @main
    mlc-import model.onnx --constant-input shape=shape.npy   # an input bound to a value
    mlc-import --list-ops                            # the ONNX ops and opsets mlc converts

Weights are printed as `dense_resource` blobs, which `mlc-opt` reads back; `mlc-opt
model.onnx -p PIPELINE` imports and runs passes in one step. A model that cannot be
imported (unreadable, not ONNX, an opset or op mlc does not convert, dynamic dimensions
left unbound) is a diagnostic naming the model, `model.onnx: error: ...`, and exit
status 1.
"""

from __future__ import annotations

import argparse
import sys

from mlc.tools.output import ToolArgumentParser, run_tool, write_output


def build_arg_parser() -> argparse.ArgumentParser:
    parser = ToolArgumentParser(
        prog="mlc-import",
        description="Import an ONNX model or a saved torch.export program (.pt2) as a "
                    "graph-dialect module.",
        epilog="To run passes on the imported module: mlc-opt model.onnx -p PIPELINE.")
    parser.add_argument("input", nargs="?", help="the ONNX model (a .onnx file) or torch.export program (a .pt2 file)")
    parser.add_argument("-o", dest="output", metavar="FILE", default="-",
                        help="output file, written only on success ('-' for stdout)")
    parser.add_argument("--input-shape", action="append", default=[], metavar="NAME=D0,D1,...",
                        help="the shape of input NAME, binding its dynamic dimensions "
                             "(repeatable; NAME= for a scalar)")
    parser.add_argument("--constant-input", action="append", default=[],
                        metavar="NAME=FILE.npy",
                        help="bind graph input NAME to the array in FILE.npy (an input the "
                             "model computes shapes from, such as Reshape's shape; repeatable)")
    parser.add_argument("--keep-params", action="store_true",
                        help="initializers become parameters of @main after the inputs, "
                             "not constants")
    parser.add_argument("--print-debuginfo", action="store_true",
                        help="print op locations (the ONNX node each op comes from)")
    parser.add_argument("--elide-elementsattrs-if-larger", type=int, metavar="N",
                        help="print constants of more than N elements as "
                             "dense_resource<__elided__>, not as blobs (for reading)")
    parser.add_argument("--list-ops", action="store_true",
                        help="list the ONNX ops mlc converts and the opsets of their converters")
    return parser


def list_ops() -> str:
    """The ONNX ops mlc converts, with the opset each of an op's converters begins at."""
    from mlc.onnx.importer import SUPPORTED_OPSETS
    from mlc.onnx.registry import supported_ops

    ops = supported_ops()
    lines = [f"mlc converts {len(ops)} ONNX ops, in models of opsets {SUPPORTED_OPSETS.start} "
             f"to {SUPPORTED_OPSETS.stop - 1} of the default domain.",
             "Each converter is listed by the opset it begins at; a model of opset N uses "
             "the newest at or below N."]
    width = max((len(f"{d}.{op}" if d else op) for d, op, _ in ops), default=0)
    for domain, op, since in ops:
        name = f"{domain}.{op}" if domain else op
        lines.append(f"  {name:{width}}  {', '.join(map(str, since))}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from mlc.tools.onnx_input import (
        FrontendMissing,
        OnnxInputError,
        import_model,
        load_constant_inputs,
        onnx_frontend,
        parse_input_shapes,
    )

    if args.list_ops:
        try:
            onnx_frontend()
        except FrontendMissing as exc:
            sys.stderr.write(f"mlc-import: error: {exc}\n")
            return 1
        sys.stdout.write(list_ops())
        return 0
    if args.input is None:
        sys.stderr.write("mlc-import: error: name the ONNX model to import (mlc-import model.onnx)\n")
        return 1
    if is_torch_program_path(args.input):
        return _import_torch_program(args)
    try:
        shapes = parse_input_shapes(args.input_shape)
        constants = load_constant_inputs(args.constant_input)
    except ValueError as exc:
        sys.stderr.write(f"mlc-import: error: {exc}\n")
        return 1
    try:
        module = import_model(args.input, shapes, keep_params=args.keep_params,
                              constant_inputs=constants)
    except OnnxInputError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    except FrontendMissing as exc:
        sys.stderr.write(f"mlc-import: error: {exc}\n")
        return 1
    return _write_module(args, module)


def is_torch_program_path(path: str) -> bool:
    """Whether a tool's input names a saved torch.export program (by its `.pt2` suffix)."""
    return path.lower().endswith(".pt2")


def _import_torch_program(args: argparse.Namespace) -> int:
    """mlc-import of a `.pt2` file: its shapes and dtypes are the exported ones."""
    if args.input_shape or args.constant_input:
        sys.stderr.write("mlc-import: error: --input-shape and --constant-input are for ONNX "
                         "models; a torch.export program has the shapes it was exported with\n")
        return 1
    try:
        import mlc.torch
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith(("mlc.torch", "torch")):
            raise
        sys.stderr.write("mlc-import: error: reading torch.export programs needs the torch "
                         "frontend (mlc-frontend-torch: pip install -e packages/frontend-torch), "
                         f"which is not installed: no module named '{exc.name}'\n")
        return 1
    try:
        module = mlc.torch.load_exported_program(args.input, keep_params=args.keep_params)
    except mlc.torch.TorchImportError as exc:
        sys.stderr.write(f"{exc}\n")
        return 1
    return _write_module(args, module)


def _write_module(args: argparse.Namespace, module) -> int:
    from mlc.ir import PrintOptions, print_op
    from mlc.tools.onnx_input import module_text

    if args.elide_elementsattrs_if_larger is not None:
        text = print_op(module, PrintOptions(debuginfo=args.print_debuginfo,
                                             elide_large_elements=args.elide_elementsattrs_if_larger))
    else:
        text = module_text(module, PrintOptions(debuginfo=args.print_debuginfo))
    try:
        write_output(args.output, text)
    except OSError as exc:
        sys.stderr.write(f"mlc-import: error: cannot write '{args.output}': {exc.strerror}\n")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run mlc-import on `argv` (default: the command line); the exit status."""
    return run_tool("mlc-import", build_arg_parser(), run, argv)


def entry() -> None:
    """The console script."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
