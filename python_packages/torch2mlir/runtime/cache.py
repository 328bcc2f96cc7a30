"""The on-disk compile cache of the RefBackend.

Two kinds of entries, both under :func:`cache_dir`:

- ``objects/<key>.o``: the machine code of a module in the LLVM dialect
  (what the JIT phase produces), keyed by the module's IR, the LLVM
  optimization level, the code generation options, the host CPU and the
  torch2mlir version. A hit skips LLVM code generation.
- ``programs/<key>.pt``: everything :func:`torch2mlir.compile` needs to
  rebuild a compiled module without exporting it again (the signature, the
  names of the weights to bind, the output structure, the dynamic sizes and
  the object key), keyed by :func:`model_fingerprint`. A hit skips
  torch.export, import and lowering too.

The location is ``$TORCH2MLIR_CACHE_DIR``, else
``$XDG_CACHE_HOME/torch2mlir``, else ``~/.cache/torch2mlir``. Set
``TORCH2MLIR_CACHE=0`` (or pass ``cache=False`` to ``torch2mlir.compile``)
to bypass it; clear it with :func:`clear_cache` or by deleting the
directory. Entries are written atomically (rename), so concurrent processes
can share a cache; a corrupt or unreadable entry counts as a miss.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

#: Bumped when the layout of a program entry changes.
_FORMAT = 1


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
                stat = path.stat()
                digest.update(
                    f"{path.relative_to(package)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode()
                )
        _BUILD = digest.hexdigest()
    return _BUILD


def _environment() -> str:
    """What generated code depends on besides its IR: versions, the build,
    the host CPU."""
    from .. import __version__

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
    try:
        return (cache_dir() / "objects" / f"{key}.o").read_bytes()
    except OSError:
        return None


def store_object(key: str, data: bytes) -> None:
    """Caches object bytes under `key` (best effort: errors are ignored)."""
    try:
        _write_atomically(cache_dir() / "objects" / f"{key}.o", data)
    except OSError:
        pass


# --------------------------------------------------------------------------
# Program entries.


def _describe_value(value: Any) -> str | None:
    """A stable text of a module attribute that may steer ``forward``, or
    None when it has no stable text (the model is then not cached)."""
    if value is None or isinstance(value, (bool, int, float, str, torch.dtype)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        parts = [_describe_value(v) for v in value]
        return None if None in parts else f"[{','.join(parts)}]"
    if isinstance(value, torch.Tensor):
        # A plain tensor attribute becomes a constant of the program.
        data = value.detach().contiguous().cpu()
        digest = hashlib.sha256(data.view(torch.uint8).numpy().tobytes()).hexdigest()
        return f"tensor({tuple(value.shape)},{value.dtype},{digest})"
    code = getattr(value, "__code__", None)
    if code is not None:
        # A Python function: its bytecode, constants and captured values
        # (two lambdas of one scope share a qualified name).
        captured = [_describe_value(c.cell_contents) for c in value.__closure__ or ()]
        defaults = [_describe_value(d) for d in value.__defaults__ or ()]
        if None in captured or None in defaults:
            return None
        digest = hashlib.sha256(code.co_code)
        digest.update(
            repr((code.co_consts, code.co_names, captured, defaults)).encode()
        )
        return f"{value.__module__}.{value.__qualname__}#{digest.hexdigest()}"
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
    if type(value).__repr__ is not object.__repr__:
        text = repr(value)
        return None if " at 0x" in text else text
    return None


def _source_digest(cls: type, seen: dict[str, str]) -> str | None:
    """The qualified names of `cls` and its bases, with the digest of each
    one's source file and the version of its top-level package (torch's own
    classes: the torch version, which the key has)."""
    parts = []
    for klass in cls.__mro__:
        name = f"{klass.__module__}.{klass.__qualname__}"
        if klass.__module__.split(".")[0] in ("torch", "builtins"):
            parts.append(name)
            continue
        try:
            path = inspect.getsourcefile(klass)
        except TypeError:
            return None
        if path is None:
            return None
        if path not in seen:
            try:
                seen[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                return None
        package = sys.modules.get(klass.__module__.split(".")[0])
        version = getattr(package, "__version__", "")
        parts.append(f"{name}@{seen[path]}@{version}")
    return ";".join(parts)


def model_fingerprint(
    model: torch.nn.Module, example_args: Sequence[Any], options: str
) -> str | None:
    """A key for `model` called on arguments like `example_args`, computed
    without exporting it; None when the model cannot be keyed safely.

    It covers what the exported program depends on, short of running it:
    every submodule's class, its source files (the whole file, so module-level
    helpers count) and their package versions, its ``training`` flag and its
    public attributes (numbers, strings, configs with a stable repr, plain
    tensors by content); the names, shapes and dtypes of the parameters and
    buffers (not their values: the compiled code takes them as arguments);
    the example inputs' shapes and dtypes; `options` (the compile options);
    torch and torch2mlir versions. A model with forward hooks, or an
    attribute with no stable text, is not keyed.
    """
    digest = hashlib.sha256()
    digest.update(f"{_FORMAT}|{_environment()}|{options}".encode())
    sources: dict[str, str] = {}
    for name, module in model.named_modules():
        if module._forward_hooks or module._forward_pre_hooks:
            return None
        source = _source_digest(type(module), sources)
        if source is None:
            return None
        digest.update(f"\0{name}|{source}|{module.training}".encode())
        for attr, value in sorted(vars(module).items()):
            if attr.startswith("_"):
                continue
            text = _describe_value(value)
            if text is None:
                return None
            digest.update(f"|{attr}={text}".encode())
    for name, tensor in list(model.named_parameters()) + list(model.named_buffers()):
        digest.update(f"\0{name}:{tuple(tensor.shape)}:{tensor.dtype}".encode())
    for arg in example_args:
        if not isinstance(arg, torch.Tensor):
            return None
        digest.update(f"\0arg:{tuple(arg.shape)}:{arg.dtype}".encode())
    return digest.hexdigest()


def load_program(key: str) -> dict[str, Any] | None:
    """The program entry of `key` (see :func:`store_program`), or None."""
    path = cache_dir() / "programs" / f"{key}.pt"
    if not path.is_file():
        return None
    try:
        entry = torch.load(path, weights_only=False)
    except Exception:  # noqa: BLE001 - a corrupt or foreign entry is a miss
        return None
    if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
        return None
    return entry


def store_program(key: str, entry: dict[str, Any]) -> None:
    """Caches a program entry (a dict that torch.save can write) under `key`."""
    import io

    buffer = io.BytesIO()
    torch.save({**entry, "format": _FORMAT}, buffer)
    try:
        _write_atomically(cache_dir() / "programs" / f"{key}.pt", buffer.getvalue())
    except OSError:
        pass
