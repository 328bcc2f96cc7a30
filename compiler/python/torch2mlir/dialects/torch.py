"""Python classes of the `torch` dialect's ops (generated from its ODS)."""

from ._torch_ops_gen import *  # noqa: F403
