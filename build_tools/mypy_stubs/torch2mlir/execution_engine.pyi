# The MLIR Python bindings' `execution_engine`, copied in by the build: Any
# to mypy.
from typing import Any

def __getattr__(name: str) -> Any: ...
