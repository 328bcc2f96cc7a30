# The MLIR Python bindings' `passmanager`, copied in by the build: Any to mypy.
from typing import Any

def __getattr__(name: str) -> Any: ...
