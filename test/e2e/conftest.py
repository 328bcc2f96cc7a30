"""Lets the e2e test modules import `cases` and `harness` in any pytest import mode."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_configure(config) -> None:
    # torch.export's own use of a deprecated pytree API, once per export.
    config.addinivalue_line(
        "filterwarnings", "ignore:`isinstance\\(treespec, LeafSpec\\)`:FutureWarning"
    )
