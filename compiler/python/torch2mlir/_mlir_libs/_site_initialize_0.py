"""Registers the torch and torch_c dialects and the torch2mlir passes in every
`torch2mlir.ir.Context` (MLIR's `_site_initialize` protocol)."""

from ._torch2mlir import register_dialects  # noqa: F401
