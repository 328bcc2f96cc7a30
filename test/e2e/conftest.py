"""Lets the e2e test modules import `cases` and `harness` in any pytest import mode."""

import os
import sys
import tempfile
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


# Each test session gets a compile cache of its own: no entry of an earlier
# build or run can stand in for compiling (tests in the session still hit
# what the session itself stored, which exercises the cache).
os.environ["TORCH2MLIR_CACHE_DIR"] = tempfile.mkdtemp(prefix="torch2mlir-test-cache-")


def pytest_configure(config) -> None:
    # torch.export's own use of a deprecated pytree API, once per export.
    config.addinivalue_line(
        "filterwarnings", "ignore:`isinstance\\(treespec, LeafSpec\\)`:FutureWarning"
    )
