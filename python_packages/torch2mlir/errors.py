"""The exceptions torch2mlir raises (importable without PyTorch)."""

from __future__ import annotations


class Torch2MlirError(Exception):
    """Base class of every error torch2mlir raises on purpose."""


class CompileError(Torch2MlirError):
    """A program could not be imported, lowered or JIT-compiled.

    The message names the op that failed, where it came from (the Python
    source line of the FX node, or the IR location), why, and what to do.
    ``diagnostics`` holds the individual MLIR diagnostics as strings.
    """

    def __init__(self, message: str, diagnostics: list[str] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics or []


class InputError(Torch2MlirError, ValueError):
    """A compiled module was called with arguments that do not match its
    signature (count, type, rank, shape or dtype). The message names the
    argument, what was expected and what was given."""
