"""Lets the e2e test modules import `cases` and `harness` in any pytest import mode."""

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


# Each test session gets a compile cache of its own: no entry of an earlier
# build or run can stand in for compiling (tests in the session still hit
# what the session itself stored, which exercises the cache).
# The directory goes with the process that made it (each xdist worker makes
# its own).
_CACHE_DIR = tempfile.mkdtemp(prefix="torch2mlir-test-cache-")
os.environ["TORCH2MLIR_CACHE_DIR"] = _CACHE_DIR
atexit.register(shutil.rmtree, _CACHE_DIR, ignore_errors=True)


def pytest_configure(config) -> None:
    # torch.export's own use of a deprecated pytree API, once per export.
    config.addinivalue_line(
        "filterwarnings", "ignore:`isinstance\\(treespec, LeafSpec\\)`:FutureWarning"
    )
