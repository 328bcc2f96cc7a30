"""Import an ONNX model into the torch dialect and print it as MLIR.

The model's nodes become ``torch.operator "onnx.<Op>"`` ops (see
:func:`torch2mlir.onnx.import_onnx`); ``convert-torch-onnx-to-torch`` in
``torch2mlir-opt`` lowers them.

Usage:
    torch2mlir-import-onnx model.onnx -o model.mlir [--opset-version N]
        [--data-dir DIR] [--no-data-prop] [--expand-functions]
        [--keep-temps] [--debug-info]
    python -m torch2mlir.tools.import_onnx ...

``-o -`` (or no ``-o``) prints to stdout. ``--keep-temps`` also writes the
model as imported — after the checker, opset conversion, function inlining
and shape inference — to ``<output>.inferred.onnx`` (with stdout:
``<model stem>.inferred.onnx`` in the working directory), to see the types
the importer saw.

Exit status: 0 on success; 1 when the model cannot be imported (one line on
stderr: ``torch2mlir-import-onnx: error: <reason>``); 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

PROG = "torch2mlir-import-onnx"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=(
            "Import an ONNX model into MLIR's torch dialect: every node becomes "
            'torch.operator "onnx.<Op>" with its attributes, initializers become '
            "torch.vtensor.literal, subgraphs become regions."
        ),
    )
    parser.add_argument("model", help="the .onnx file")
    parser.add_argument(
        "-o",
        "--output",
        default="-",
        help="where to write the MLIR ('-' or omitted: stdout)",
    )
    parser.add_argument(
        "--opset-version",
        type=int,
        metavar="N",
        help="convert the model to version N of the default ONNX opset first",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="directory of the external data files (default: the model's directory)",
    )
    parser.add_argument(
        "--data-prop",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="let shape inference propagate shape-tensor values (default: on)",
    )
    parser.add_argument(
        "--fold",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=(
            "fold constant shape computations into initializers, as "
            "torch2mlir.compile_onnx does (default: on; --no-fold imports the "
            "graph as it is)"
        ),
    )
    parser.add_argument(
        "--expand-functions",
        action="store_true",
        help=(
            "replace standard ops that ONNX defines as functions (HardSwish, "
            "LayerNormalization, ...) by their function bodies"
        ),
    )
    parser.add_argument(
        "--keep-temps",
        action="store_true",
        help=(
            "also write the checked, converted and shape-inferred model to "
            "<output>.inferred.onnx"
        ),
    )
    parser.add_argument(
        "--debug-info",
        action="store_true",
        help='print op locations (loc("<node name>"))',
    )
    return parser


def _temp_path(args: argparse.Namespace) -> Path:
    if args.output == "-":
        return Path(Path(args.model).stem + ".inferred.onnx")
    return Path(args.output + ".inferred.onnx")


def _save(model: object, path: Path) -> None:
    import onnx

    large = model.ByteSize() > 2**31 - 1  # type: ignore[attr-defined]
    onnx.save_model(
        model,  # type: ignore[arg-type]
        os.fspath(path),
        save_as_external_data=large,
        location=path.name + ".data" if large else None,
    )


def _error(message: object) -> int:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the tool; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        from torch2mlir.errors import Torch2MlirError
        from torch2mlir.onnx import OnnxImporter, prepare_model
    except ImportError as error:
        return _error(f"{error} (the ONNX importer needs the onnx package)")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = prepare_model(
                args.model,
                opset_version=args.opset_version,
                data_dir=args.data_dir,
                data_prop=args.data_prop,
                expand_functions=args.expand_functions,
                fold=args.fold,
            )
            if args.keep_temps:
                _save(model, _temp_path(args))
            module = OnnxImporter(model).import_model()
        except Torch2MlirError as error:
            return _error(error)
        except OSError as error:
            return _error(f"{error.filename or args.model}: {error.strerror or error}")
        finally:
            for warning in caught:
                print(f"{PROG}: warning: {warning.message}", file=sys.stderr)
    try:
        if args.output == "-":
            module.operation.print(file=sys.stdout, enable_debug_info=args.debug_info)
        else:
            with open(args.output, "w", encoding="utf-8") as stream:
                module.operation.print(file=stream, enable_debug_info=args.debug_info)
    except OSError as error:
        return _error(f"{args.output}: {error.strerror or error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
