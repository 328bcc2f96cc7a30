"""The ONNX importer: ``onnx.ModelProto`` -> ``torch`` dialect.

:func:`import_onnx` reads (or takes) a model, checks it, loads its external
data, optionally converts its opset version, inlines its local functions,
infers shapes and emits one ``func.func`` of ``torch.operator "onnx.<Op>"``
ops. The C++ pass ``convert-torch-onnx-to-torch`` gives them meaning.
The console tool is ``torch2mlir-import-onnx``
(``python -m torch2mlir.tools.import_onnx``).

Needs the ``onnx`` package (``pip install torch2mlir[onnx]``); PyTorch is not
needed.
"""

from __future__ import annotations

from .importer import (
    ONNX_DTYPE_TO_MLIR,
    OnnxImporter,
    import_onnx,
    load_model,
    prepare_model,
)

__all__ = [
    "ONNX_DTYPE_TO_MLIR",
    "OnnxImporter",
    "import_onnx",
    "load_model",
    "prepare_model",
]
