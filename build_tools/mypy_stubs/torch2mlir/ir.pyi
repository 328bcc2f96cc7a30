# The MLIR Python bindings' `ir`, copied in by the build: Any to mypy.
from typing import Any

def __getattr__(name: str) -> Any: ...
