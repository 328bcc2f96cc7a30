"""The on-disk compile cache of the RefBackend.

Two kinds of entries, both under :func:`cache_dir`:

- ``objects/<key>.o``: the machine code of a module in the LLVM dialect
  (what the JIT phase produces), keyed by the module's IR, the LLVM
  optimization level, the code generation options, the host CPU and the
  torch2mlir build. A hit skips LLVM code generation.
- ``programs/<key>.pt``: everything :func:`torch2mlir.compile` needs to
  rebuild a compiled module from an exported program (the signature, the
  names of the weights to bind, the constants decompositions made, the
  output structure, the dynamic sizes and the machine code), keyed by
  :func:`program_key`: the exported program itself. ``torch.export``
  always runs; a hit skips decomposition, import, lowering and code
  generation.

The location is ``$TORCH2MLIR_CACHE_DIR``, else
``$XDG_CACHE_HOME/torch2mlir``, else ``~/.cache/torch2mlir``. Set
``TORCH2MLIR_CACHE=0`` (or pass ``cache=False`` to ``torch2mlir.compile``)
to bypass it; clear it with :func:`clear_cache` or by deleting the
directory. Entries are written atomically (rename), so concurrent processes
can share a cache. Each entry carries a SHA-256 checksum of its bytes: a
truncated, corrupted or foreign entry is deleted and counts as a miss.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from .. import __version__

#: Bumped when the layout of a program entry changes.
_FORMAT = 2


def cache_dir() -> Path:
    """The cache directory (not created by this call)."""
    explicit = os.environ.get("TORCH2MLIR_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"
    )
    return Path(base) / "torch2mlir"


def enabled() -> bool:
    """False when ``TORCH2MLIR_CACHE`` is ``0``, ``false`` or ``off``."""
    return os.environ.get("TORCH2MLIR_CACHE", "1").lower() not in ("0", "false", "off")


def clear_cache() -> int:
    """Deletes every cache entry; returns the bytes freed."""
    root = cache_dir()
    freed = 0
    for kind in ("objects", "programs"):
        folder = root / kind
        if folder.is_dir():
            freed += sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
            shutil.rmtree(folder)
    return freed


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


_BUILD: str | None = None


def _build_identity() -> str:
    """The identity of this installation of torch2mlir: the size and
    modification time of each of its files (its Python sources and native
    libraries), so that a rebuilt or edited compiler never reuses entries
    of another build. Computed once per process."""
    global _BUILD
    if _BUILD is None:
        package = Path(__file__).absolute().parent.parent
        digest = hashlib.sha256()
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".so") or ".so." in path.name:
                try:
                    stat = path.stat()
                except OSError:  # a dangling link of an older build
                    continue
                digest.update(
                    f"{path.relative_to(package)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode()
                )
        _BUILD = digest.hexdigest()
    return _BUILD


def _environment() -> str:
    """What generated code depends on besides its IR: versions, the build,
    the host CPU."""
    try:
        cpu = next(
            line
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("flags")
        )
    except (OSError, StopIteration):
        cpu = ""
    return f"{__version__}|{_build_identity()}|{torch.__version__}|{sys.platform}|{cpu}"


def object_key(llvm_ir: bytes, opt_level: int, codegen_options: Sequence[str]) -> str:
    """The key of an object: the LLVM-dialect module (its bytecode or
    text), the options and the environment."""
    digest = hashlib.sha256()
    for part in (_environment(), str(opt_level), " ".join(codegen_options)):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(llvm_ir)
    return digest.hexdigest()


def load_object(key: str) -> bytes | None:
    """The cached object of `key`, or None."""
    return _unseal(cache_dir() / "objects" / f"{key}.o")


def store_object(key: str, data: bytes) -> None:
    """Caches object bytes under `key` (best effort: errors are ignored)."""
    try:
        _write_atomically(cache_dir() / "objects" / f"{key}.o", _seal(data))
    except OSError:
        pass


# --------------------------------------------------------------------------
# Program entries.


def _tensor_digest(tensor: torch.Tensor) -> str:
    """The shape, dtype, strides and content of a CPU tensor."""
    data = tensor.detach()
    if data.layout != torch.strided or data.device.type != "cpu" or data.is_quantized:
        # Not plain memory: no content to hash soundly.
        raise _Unkeyable(f"a {data.layout}/{data.device.type} tensor constant")
    flat = data.contiguous().reshape(-1)
    if flat.is_complex():
        flat = torch.view_as_real(flat)
    raw = flat.view(torch.uint8) if flat.numel() else flat
    digest = hashlib.sha256(raw.numpy().tobytes()).hexdigest()
    return f"tensor({tuple(data.shape)},{data.stride()},{data.dtype},{digest})"


class _Unkeyable(Exception):
    """The program holds something whose content cannot be keyed."""


def program_key(prog: torch.export.ExportedProgram, options: str) -> str | None:
    """The key of the program entry that compiling `prog` with `options`
    produces; None when `prog` holds a constant that cannot be keyed (a
    script object, a tensor that is not plain CPU memory).

    The key is what the program *is*, as ``torch.export`` made it: its
    graph (every node's op, target, arguments, and the dtype, shape and
    strides of its value, as ``GraphModule.print_readable`` prints them,
    with the graphs of higher-order ops), its input and output signature,
    the ranges of its symbolic sizes, its output structure, the content of
    its lifted constant tensors, the dtypes and shapes of its parameters
    and buffers (not their values: the compiled code takes them as
    arguments), `options` (the compile options), and the environment
    (torch, this build of torch2mlir, the host CPU). Two programs with one
    key compile to the same code, so a hit can only return what a fresh
    compile would.
    """
    digest = hashlib.sha256()
    digest.update(f"{_FORMAT}|{_environment()}|{options}\0".encode())
    digest.update(
        prog.graph_module.print_readable(
            print_output=False, include_stride=True, include_device=True
        ).encode()
    )
    digest.update(f"\0{prog.graph_signature}\0{prog.range_constraints}".encode())
    out_spec = getattr(prog.call_spec, "out_spec", None)
    in_spec = getattr(prog.call_spec, "in_spec", None)
    digest.update(f"\0{in_spec}\0{out_spec}".encode())
    for name, tensor in sorted(prog.state_dict.items()):
        digest.update(
            f"\0{name}:{tuple(tensor.shape)}:{tensor.stride()}:{tensor.dtype}".encode()
        )
    try:
        for name, value in sorted(prog.constants.items()):
            if not isinstance(value, torch.Tensor):
                return None
            digest.update(f"\0{name}={_tensor_digest(value)}".encode())
    except _Unkeyable:
        return None
    return digest.hexdigest()


# A checksum guards every entry: a file that was truncated, corrupted or
# written by something else is never loaded, it is deleted and recompiled.
_MAGIC = b"torch2mlir-cache\0"
_DIGEST_BYTES = 32


def _seal(payload: bytes) -> bytes:
    return _MAGIC + hashlib.sha256(payload).digest() + payload


def _unseal(path: Path) -> bytes | None:
    """The payload of the entry at `path`, or None (and the file is
    removed) when it is missing, truncated or fails its checksum."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + _DIGEST_BYTES
    payload = data[head:]
    if (
        len(data) < head
        or not data.startswith(_MAGIC)
        or hashlib.sha256(payload).digest() != data[len(_MAGIC) : head]
    ):
        try:
            path.unlink()
        except OSError:
            pass
        return None
    return payload


def load_program(key: str) -> dict[str, Any] | None:
    """The program entry of `key` (see :func:`store_program`), or None."""
    payload = _unseal(cache_dir() / "programs" / f"{key}.pt")
    if payload is None:
        return None
    try:
        entry = torch.load(io.BytesIO(payload), weights_only=False)
    except Exception:  # noqa: BLE001 - a foreign entry is a miss
        return None
    if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
        return None
    return entry


def store_program(key: str, entry: dict[str, Any]) -> None:
    """Caches a program entry (a dict that torch.save can write) under `key`."""
    buffer = io.BytesIO()
    torch.save({**entry, "format": _FORMAT}, buffer)
    try:
        _write_atomically(
            cache_dir() / "programs" / f"{key}.pt", _seal(buffer.getvalue())
        )
    except OSError:
        pass
