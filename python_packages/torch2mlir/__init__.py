"""torch2mlir: PyTorch and ONNX programs into MLIR, and run.

The entry points:

- :func:`torch2mlir.compile` — ``nn.Module`` + example inputs to a callable
  compiled for the CPU (torch.export -> torch dialect -> linalg -> LLVM).
- :func:`torch2mlir.compile_onnx` — an ONNX model (``ModelProto`` or path)
  to a callable compiled for the CPU (ONNX -> torch -> linalg -> LLVM).
- :func:`torch2mlir.onnx.import_onnx` — an ONNX model as torch-dialect MLIR.
- :func:`torch2mlir.export_and_import` — the same program as MLIR, at the
  level of your choice (``raw``, ``torch`` backend contract, or a backend's
  dialect such as ``linalg-on-tensors``).
- ``torch2mlir.ir``, ``torch2mlir.passmanager``,
  ``torch2mlir.execution_engine`` — the embedded MLIR Python bindings, with
  the ``torch`` and ``torch_c`` dialects registered in every context.

Importing ``torch2mlir`` does not import PyTorch; the functions that need it
import it when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _build_info
from .errors import CompileError, InputError, Torch2MlirError

#: The release of torch2mlir itself; see __version__ for the full scheme.
BASE_VERSION = "0.1.0"

#: ``<release>+llvm<LLVM version>.torch<torch version>``: the LLVM/MLIR this
#: build was compiled against and the torch its tests pinned, e.g.
#: ``0.1.0+llvm22.1.8.torch2.13.0`` (the wheel's version is the same string).
__version__ = (
    f"{BASE_VERSION}+llvm{_build_info.LLVM_VERSION}.torch{_build_info.TORCH_VERSION}"
)

__all__ = [
    "CompileError",
    "CompiledModule",
    "InputError",
    "Torch2MlirError",
    "__version__",
    "compile",
    "compile_onnx",
    "export_and_import",
    "version_info",
]


def version_info() -> dict[str, str]:
    """What this torch2mlir was built and tested with.

    Returns:
        ``{"torch2mlir": __version__, "llvm": LLVM version, "llvm_commit": the
        LLVM commit of the pin, "torch": the torch version the tests pin}``.
    """
    return {
        "torch2mlir": __version__,
        "llvm": _build_info.LLVM_VERSION,
        "llvm_commit": _build_info.LLVM_COMMIT,
        "torch": _build_info.TORCH_VERSION,
    }


if TYPE_CHECKING:
    from .compiler import CompiledModule, compile, export_and_import
    from .compiler.onnx import compile_onnx


def __getattr__(name: str) -> Any:
    # `compile` and friends need torch: load them on first use.
    if name in ("compile", "CompiledModule", "export_and_import"):
        from . import compiler  # noqa: PLC0415 - torch only when used

        return getattr(compiler, name)
    if name == "compile_onnx":
        from .compiler.onnx import compile_onnx  # noqa: PLC0415 - torch, onnx

        return compile_onnx
    raise AttributeError(f"module 'torch2mlir' has no attribute {name!r}")
