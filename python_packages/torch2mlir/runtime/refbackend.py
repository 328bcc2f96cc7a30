"""Run RefBackend-compiled modules: torch tensors in, torch tensors out.

The RefBackend pipeline (``torch2mlir-refbackend-pipeline``) turns every
result of the entry function into a caller-allocated out-parameter, so a call
passes memref descriptors that point straight at the input tensors' storage
and at freshly allocated output tensors: no copies on the way in or out.

A program with an output whose size only the computation knows
(``nonzero``, ``masked_select``, ``unique``: see
:attr:`torch2mlir.shapes.DynamicShapes.data_dependent`) is compiled with
``callee-allocated-results``: the compiled code allocates its results (with
``malloc``) and returns their descriptors; each becomes a torch tensor over
that memory, without a copy, and the memory is freed when torch frees the
tensor.

Bool tensors are bytes in memory (0 or 1), and the compiled code agrees:
``refbackend-widen-sub-byte-buffers`` turns every ``memref<...xi1>`` into
``memref<...xi8>``. So a bool tensor is passed as its ``uint8`` view, and a
bool result is written through the ``uint8`` view of a bool tensor.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.metadata
import math
import os
import platform
import re
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, cast

import torch

from .. import ir
from .._mlir_libs import _torch2mlir
from ..errors import CompileError, InputError
from ..program import TensorSpec
from ..shapes import DynamicShapes
from . import cache as _cache

__all__ = [
    "RefBackendModule",
    "TensorSpec",
    "blas_library",
    "cached_bytes",
    "load_runtime",
    "plain_cpu_tensor",
    "release_cached_buffers",
]

#: The RefBackend runtime: memrefCopy, and the matmul/convolution kernels
#: that `refbackend-runtime-kernels` calls.
_RUNTIME_LIB = str(
    Path(ir.__file__).parent / "_mlir_libs" / "libtorch2mlir_refbackend_runtime.so"
)
_runtime: ctypes.CDLL | None = None

#: The runtime function that random ops call for their keys
#: (``refbackend-lower-random-keys``).
_RANDOM_KEY_SYMBOL = b"torch2mlir_random_key"


#: LLVM code generation options for the JIT. A whole model is one function
#: whose straight-line parts hold thousands of loads and stores (memref
#: descriptors, kernel calls); SelectionDAG's token-factor inlining and store
#: merging are quadratic in that. Limiting them took ResNet-50's JIT from
#: 29 s to 4 s with no change in run time (see nox -s bench). Loop unrolling
#: (of the many small static loops of linalg ops) was most of the rest:
#: without it the JIT of the BERT and GPT-2 zoo models went from 10.6/7.8 s
#: to 2.3/1.9 s, again with the same run times (1 thread: BERT 33.2 vs
#: 32.8 ms, GPT-2 57.8 vs 58.2 ms, ResNet-18 57.3 vs 56.7 ms).
_CODEGEN_OPTIONS = [
    "-combiner-tokenfactor-inline-limit=32",
    "-combiner-store-merging=false",
    "-unroll-threshold=0",
]


def _set_codegen_limits() -> None:
    if not _torch2mlir.set_llvm_options(_CODEGEN_OPTIONS):
        raise CompileError(
            f"this LLVM rejects the code generation options {_CODEGEN_OPTIONS}"
        )


#: Basenames of OpenMP runtimes with the GNU ABI (``GOMP_parallel``):
#: GCC's libgomp (PyTorch's Linux wheels bundle it), LLVM's libomp and
#: Intel's libiomp5.
_OPENMP_LIBRARY = re.compile(r"^lib(gomp|omp|iomp5)([-.][^/]*)?\.so(\.[0-9]+)*$")


def openmp_library() -> str | None:
    """The path of the OpenMP runtime that PyTorch loaded into this process
    (found in ``/proc/self/maps``), or None. The RefBackend runs its
    parallel loops on it, so compiled code and eager PyTorch share one
    thread team, sized by ``torch.set_num_threads``."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return None
    found = []
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)  # address perms offset dev inode path
        if len(fields) == 6 and _OPENMP_LIBRARY.match(Path(fields[5]).name):
            found.append(fields[5])
    # Another package may have loaded a second copy; PyTorch's is the one
    # that torch.set_num_threads configures.
    torch_dir = str(Path(torch.__file__).parent)
    found.sort(key=lambda path: not path.startswith(torch_dir))
    return found[0] if found else None


#: A vector variant that only glibc >= 2.35 has (the tanh/erf family).
_LIBMVEC_PROBE = "_ZGVdN8v_erff"
_libmvec: str | None | Literal[False] = False  # False: not looked up yet


def vector_math_library() -> str | None:
    """glibc's vector math library (libmvec, x86-64 Linux, glibc >= 2.35),
    loaded into the process, or None. With it, loops that call exp, log,
    tanh, erf... are vectorized into its ``_ZGV...`` functions (at most 4
    ulp of error, as glibc documents); without it they call the scalar C
    library."""
    global _libmvec
    if _libmvec is False:
        _libmvec = None
        name = ctypes.util.find_library("mvec")
        if platform.machine() in ("x86_64", "AMD64") and name:
            try:
                library = ctypes.CDLL(name)
            except OSError:
                library = None
            if library is not None and hasattr(library, _LIBMVEC_PROBE):
                _libmvec = name
    return _libmvec


#: The BLAS library the runtime kernels call, once loaded (None: loops).
_blas_path: Path | None = None
#: The BLAS of the large GEMMs when it is another one (None: the same).
_large_gemm_path: Path | None = None

#: Environment variable that picks the BLAS: ``mkl``, ``openblas``, ``none``
#: (the kernels' loops) or ``auto`` (the default: MKL, else OpenBLAS).
BLAS_VARIABLE = "TORCH2MLIR_BLAS"


#: Environment variable that caps the vector instructions of the runtime
#: kernels, as ``ATEN_CPU_CAPABILITY`` caps PyTorch's: ``avx512`` (the
#: default: all the CPU has), ``avx2`` or ``default`` (no vector kernels).
#: Every level computes the same bits; the JIT-compiled code still targets
#: the host CPU.
CPU_CAPABILITY_VARIABLE = "TORCH2MLIR_CPU_CAPABILITY"
_CPU_CAPABILITIES = {"avx512": 2, "avx2": 1, "default": 0}


def _cpu_capability() -> int:
    """The level :data:`CPU_CAPABILITY_VARIABLE` sets (2 AVX-512, 1 AVX2,
    0 none).

    Raises:
        ValueError: the variable names no known level.
    """
    value = os.environ.get(CPU_CAPABILITY_VARIABLE, "avx512").lower()
    if value not in _CPU_CAPABILITIES:
        raise ValueError(
            f"{CPU_CAPABILITY_VARIABLE}={value!r}: expected one of "
            + ", ".join(_CPU_CAPABILITIES)
        )
    return _CPU_CAPABILITIES[value]


def _mkl_library() -> Path | None:
    """``libmkl_rt`` of the ``mkl`` package (the wheel's ``mkl`` extra), if
    installed: its libraries land in the environment's ``lib/``."""
    try:
        files = importlib.metadata.files("mkl") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name.startswith("libmkl_rt.so"):
            path = Path(str(file.locate())).resolve()
            if path.exists():
                return path
    return None


def _openblas_library() -> Path | None:
    """OpenBLAS of the ``scipy-openblas32`` package, if installed."""
    try:
        import scipy_openblas32  # noqa: PLC0415 - the optional BLAS
    except ImportError:
        return None
    lib_dir = Path(scipy_openblas32.get_lib_dir())
    return lib_dir / f"lib{scipy_openblas32.get_library()}.so"


def _blas_choices() -> list[tuple[Path | None, bytes]]:
    """The (library, symbol prefix) candidates, in order, that
    :data:`BLAS_VARIABLE` allows.

    Raises:
        ValueError: the variable names no known choice.
    """
    choice = os.environ.get(BLAS_VARIABLE, "auto").lower()
    mkl = (_mkl_library(), b"")
    openblas = (_openblas_library(), b"scipy_")
    choices = {
        "auto": [mkl, openblas],
        "mkl": [mkl],
        "openblas": [openblas],
        "none": [],
    }
    if choice not in choices:
        raise ValueError(
            f"{BLAS_VARIABLE}={choice!r}: expected one of auto, mkl, openblas, none"
        )
    return choices[choice]


def _intel_cpu() -> bool:
    """Whether the CPU is Intel's (``GenuineIntel`` in /proc/cpuinfo)."""
    try:
        return "GenuineIntel" in Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


def large_gemm_library() -> Path | None:
    """The BLAS of the kernels' large GEMMs (at least 32 in each of m, n
    and k) when it is not :func:`blas_library`: OpenBLAS, under the default
    ``TORCH2MLIR_BLAS=auto``, when the main BLAS is MKL and the CPU is not
    Intel's. MKL runs its generic code path there (``libmkl_def``); on an
    AVX2 Zen 4 core, OpenBLAS's Zen kernels ran ResNet-50 9% and matmul
    1024² 7% faster, but the GEMMs of a batch of 1 to 8 rows (an MLP, a
    decoding step) 1.2-2.6 times slower, so those stay with MKL, as do the
    batched and the packed (frozen) GEMMs. None otherwise."""
    load_runtime()
    return _large_gemm_path


def blas_library() -> Path | None:
    """The BLAS library whose GEMM the matmul and convolution kernels call:
    MKL (``libmkl_rt``, the ``mkl`` package, sequential) when installed,
    else OpenBLAS (``scipy-openblas32``); None when neither is, or when
    ``TORCH2MLIR_BLAS=none`` (the kernels then run as loops)."""
    load_runtime()
    return _blas_path


def load_runtime() -> bool:
    """Loads the runtime library once and gives it a BLAS and PyTorch's
    OpenMP runtime; returns whether it has a BLAS. The BLAS is MKL from the
    ``mkl`` package when installed, else OpenBLAS from ``scipy-openblas32``
    (``TORCH2MLIR_BLAS`` picks one: ``mkl``, ``openblas``, ``none``); without
    one the kernels run as (slower) loops. On CPUs other than Intel's, the
    default also gives the large GEMMs to OpenBLAS (see
    :func:`large_gemm_library`). Without an OpenMP runtime,
    parallel loops run in the caller.

    ``TORCH2MLIR_CPU_CAPABILITY`` caps the kernels' vector instructions
    (:data:`CPU_CAPABILITY_VARIABLE`).

    Raises:
        ValueError: ``TORCH2MLIR_BLAS`` or ``TORCH2MLIR_CPU_CAPABILITY``
            names no known choice.
    """
    global _runtime, _blas_path, _large_gemm_path
    if _runtime is None:
        choices = _blas_choices()
        capability = _cpu_capability()
        _set_codegen_limits()
        _runtime = ctypes.CDLL(_RUNTIME_LIB)
        _runtime.torch2mlir_runtime_set_cpu_capability(capability)
        _runtime.torch2mlir_runtime_parallel_regions.restype = ctypes.c_int64
        _runtime.torch2mlir_runtime_take_failure.restype = ctypes.c_char_p
        _runtime.torch2mlir_runtime_free.argtypes = [ctypes.c_void_p]
        _runtime.torch2mlir_runtime_free.restype = None
        _runtime.torch2mlir_runtime_cached_bytes.restype = ctypes.c_int64
        _runtime.torch2mlir_runtime_packed_bytes.restype = ctypes.c_size_t
        _runtime.torch2mlir_runtime_release_packed.argtypes = [
            ctypes.c_void_p,
            ctypes.c_size_t,
        ]
        _runtime.torch2mlir_runtime_release_packed.restype = None
        openmp = openmp_library()
        if openmp is not None:
            _runtime.torch2mlir_runtime_init_openmp(openmp.encode())
        for library, prefix in choices:
            if library is not None and (
                _runtime.torch2mlir_runtime_init(str(library).encode(), prefix) == 0
            ):
                _blas_path = library
                break
        auto = os.environ.get(BLAS_VARIABLE, "auto").lower() == "auto"
        openblas = _openblas_library()
        if (
            auto
            and _blas_path is not None
            and _blas_path == _mkl_library()
            and openblas is not None
            and not _intel_cpu()
            and _runtime.torch2mlir_runtime_init_large_gemm(
                str(openblas).encode(), b"scipy_"
            )
            == 0
        ):
            _large_gemm_path = openblas
    return bool(_runtime.torch2mlir_runtime_has_blas())


def parallel_regions() -> int:
    """How many loops of compiled code have run on more than one thread in
    this process (a counter of the runtime, for tests and benchmarks)."""
    load_runtime()
    assert _runtime is not None
    return int(_runtime.torch2mlir_runtime_parallel_regions())


def cached_bytes() -> int:
    """Bytes of idle buffers that the runtime's allocator keeps for later
    calls (blocks of 64 KiB and more that compiled code or its kernels freed;
    at most 1 GiB, see ``Allocator.cpp``)."""
    load_runtime()
    assert _runtime is not None
    return int(_runtime.torch2mlir_runtime_cached_bytes())


def packed_bytes() -> int:
    """Bytes of the packed copies of frozen weights (``compile(...,
    freeze=True)``) that the runtime holds for the compiled modules alive
    now; each module's copies are freed with it."""
    load_runtime()
    assert _runtime is not None
    return int(_runtime.torch2mlir_runtime_packed_bytes())


def _release_packed(regions: list[tuple[int, int]]) -> None:
    """Frees the runtime's packed copies of the matrices in `regions`
    ((address, bytes) of the frozen weights of a module that is gone)."""
    if _runtime is None:
        return
    for address, size in regions:
        _runtime.torch2mlir_runtime_release_packed(
            ctypes.c_void_p(address), ctypes.c_size_t(size)
        )


def release_cached_buffers() -> None:
    """Gives every idle cached buffer back to the system, as
    ``torch.cuda.empty_cache`` does for its cache. Buffers in use are not
    affected; the next calls allocate afresh."""
    load_runtime()
    assert _runtime is not None
    _runtime.torch2mlir_runtime_release_cached()


def fp32_peak(seconds: float = 0.2, trials: int = 5) -> tuple[float, int]:
    """The most float32 operations per second that the threads of compiled
    code (``max_threads()`` of them, i.e. ``torch.get_num_threads()``) can
    do: a register-only loop of fused multiply-adds on each thread, an FMA
    counting 2 operations per vector lane (``Runtime/Peak.cpp``). The best
    of `trials` runs of about `seconds` seconds each.

    Returns:
        (operations per second, vector lanes used: 16 for AVX-512, 8 for
        AVX2 with FMA, 1 for scalar code).
    """
    load_runtime()
    assert _runtime is not None
    lanes = ctypes.c_int(0)
    _runtime.torch2mlir_runtime_fp32_peak.restype = ctypes.c_double
    peak = _runtime.torch2mlir_runtime_fp32_peak(
        ctypes.c_double(seconds), ctypes.c_int(trials), ctypes.byref(lanes)
    )
    return float(peak), int(lanes.value)


def max_threads() -> int:
    """Threads a parallel loop of compiled code may use now in this thread
    (``torch.get_num_threads()`` when PyTorch's OpenMP runtime was found,
    else 1)."""
    load_runtime()
    assert _runtime is not None
    return int(_runtime.torch2mlir_runtime_max_threads())


_DESCRIPTORS: dict[int, type[ctypes.Structure]] = {}


def _descriptor_class(rank: int) -> type[ctypes.Structure]:
    """The C layout of a ranked memref descriptor of `rank` (MLIR's ABI)."""
    cls = _DESCRIPTORS.get(rank)
    if cls is None:
        fields = [
            ("allocated", ctypes.c_void_p),
            ("aligned", ctypes.c_void_p),
            ("offset", ctypes.c_int64),
        ]
        if rank:
            fields += [
                ("sizes", ctypes.c_int64 * rank),
                ("strides", ctypes.c_int64 * rank),
            ]
        cls = _DESCRIPTORS[rank] = type(
            f"MemRefDescriptor{rank}D", (ctypes.Structure,), {"_fields_": fields}
        )
    return cls


def _free(pointer: int | None) -> None:
    """Frees a buffer that compiled code allocated (a result it returned):
    the runtime's allocator owns it (``Allocator.cpp``), not libc's."""
    assert _runtime is not None  # loaded before any program runs
    _runtime.torch2mlir_runtime_free(ctypes.c_void_p(pointer))


def _take_result(descriptor: ctypes.Structure, spec: TensorSpec) -> torch.Tensor:
    """The torch tensor of a result that the compiled code allocated and
    described by `descriptor` (MLIR's ranked memref descriptor): a view of
    that memory, which is freed when torch frees the tensor."""
    rank = len(spec.shape)
    sizes = list(descriptor.sizes) if rank else []
    strides = list(descriptor.strides) if rank else []
    buffer_dtype = torch.uint8 if spec.dtype == torch.bool else spec.abi_dtype
    itemsize = torch.empty((), dtype=buffer_dtype).element_size()
    if descriptor.allocated is None or math.prod(sizes) == 0:
        _free(descriptor.allocated)
        return torch.empty(sizes, dtype=spec.dtype)
    extent = 1 + sum((size - 1) * stride for size, stride in zip(sizes, strides))
    memory = (ctypes.c_char * (extent * itemsize)).from_address(
        descriptor.aligned + descriptor.offset * itemsize
    )
    # torch.frombuffer keeps `memory` alive as long as the tensor's storage;
    # when both are gone, the allocation is freed.
    weakref.finalize(memory, _free, descriptor.allocated)
    tensor = torch.frombuffer(memory, dtype=buffer_dtype).as_strided(sizes, strides)
    if spec.abi_dtype != spec.dtype:
        return tensor.to(spec.dtype)
    return tensor.view(torch.bool) if spec.dtype == torch.bool else tensor


def _as_buffer(tensor: torch.Tensor) -> torch.Tensor:
    """`tensor` as the compiled code sees it: bools as their bytes (a view)."""
    return tensor.view(torch.uint8) if tensor.dtype == torch.bool else tensor


def _describe(tensor: torch.Tensor) -> str:
    return f"[{', '.join(str(s) for s in tensor.shape)}] {str(tensor.dtype).removeprefix('torch.')}"


def _narrow(
    tensor: torch.Tensor, spec: TensorSpec, what: str, error: type[Exception]
) -> torch.Tensor:
    """`tensor` as the compiled code takes it, once its values are checked
    against the range the code assumes (``spec.value_range``, see the
    ``torch-narrow-si64`` pass): int32 for an int64 tensor, int16 for a
    uint8 one.

    Raises:
        `error` (InputError for a call's argument, CompileError for a
        weight): a value outside that range.
    """
    if spec.value_range is None:
        return tensor
    lo, hi = spec.value_range
    info = torch.iinfo(tensor.dtype) if not tensor.dtype.is_floating_point else None
    covers_dtype = info is not None and lo <= info.min and hi >= info.max
    if tensor.numel() and not covers_dtype:
        least, most = (int(v) for v in tensor.aminmax())
        if least < lo or most > hi:
            raise error(
                f"{what}: the compiled code takes values in [{lo}, {hi}] (the "
                "index range of the ops that read it, within int32: its backend "
                "has no run-time index checks and no 64-bit or unsigned "
                f"integers, as TOSA 1.0); got values in [{least}, {most}]. Way "
                "out: pass values in "
                "range, or compile with backend='linalg-on-tensors'"
            )
    return tensor.to(spec.abi_dtype)


def plain_cpu_tensor(value: torch.Tensor, what: str) -> torch.Tensor:
    """`value` as a plain strided CPU tensor whose memory holds its values,
    checked before any pointer to it reaches compiled code; conjugate and
    negative views are resolved (a copy).

    Args:
        value: the tensor a caller passes (or a weight to bind).
        what: how to name it in an error (``argument 0 (x)``).

    Raises:
        InputError: a tensor the compiled code cannot read: on another
            device than the CPU (``meta`` has no data at all), not strided
            (sparse, mkldnn), quantized, nested, or a tensor subclass that
            dispatches its own ops (FakeTensor, DTensor, ...). The message
            says how to get a plain CPU tensor.
    """
    if value.is_nested:
        raise InputError(
            f"{what}: a nested tensor has no single strided buffer; pass "
            "value.to_padded_tensor(0.0) or each component separately"
        )
    if value.device.type != "cpu":
        advice = (
            "a meta tensor has no data: pass a real tensor (torch.empty_like(value, device='cpu'))"
            if value.device.type == "meta"
            else "move it first: value.cpu()"
        )
        raise InputError(
            f"{what}: the compiled code runs on the CPU, got a tensor on "
            f"{value.device}; {advice}"
        )
    if value.layout != torch.strided:
        raise InputError(
            f"{what}: the compiled code reads strided (dense) tensors, got layout "
            f"{value.layout}; pass value.to_dense()"
        )
    if value.is_quantized:
        raise InputError(
            f"{what}: a quantized tensor ({value.dtype}) is not a plain buffer; "
            "pass value.dequantize() (or value.int_repr() for its integers)"
        )
    if type(value).__torch_dispatch__ is not torch.Tensor.__torch_dispatch__:
        raise InputError(
            f"{what}: a {type(value).__name__} (a tensor subclass with its own "
            "dispatch) has no memory the compiled code can read; pass a plain "
            "torch.Tensor"
        )
    return value.resolve_conj().resolve_neg()


#: The environment variable that caps the threads of LLVM code generation.
COMPILE_THREADS_VARIABLE = "TORCH2MLIR_COMPILE_THREADS"


def compile_threads() -> int:
    """How many threads LLVM optimization and code generation may use for
    one module: ``TORCH2MLIR_COMPILE_THREADS`` when set (a positive
    integer), else the CPUs this process may run on
    (``os.sched_getaffinity``). A module of fewer than about 20,000 LLVM
    instructions per thread uses fewer.

    Raises:
        ValueError: the variable is set to something else than a positive
            integer.
    """
    value = os.environ.get(COMPILE_THREADS_VARIABLE)
    if value is not None:
        if not value.strip().isdigit() or int(value) < 1:
            raise ValueError(
                f"{COMPILE_THREADS_VARIABLE}={value!r}: expected a positive integer"
            )
        return int(value)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def compile_object(
    llvm_module: ir.Module, opt_level: int = 2, cache: bool = True
) -> tuple[bytes, bool]:
    """Machine code for `llvm_module` (LLVM dialect): from the on-disk cache
    (see torch2mlir.runtime.cache) when it has it, else generated and
    cached. Returns (object code, whether it was a cache hit): one object,
    or, for a module compiled on several threads (:func:`compile_threads`),
    one object per partition in a blob that ``ObjectJit`` links whole.

    Raises:
        CompileError: LLVM could not translate or compile the module.
        ValueError: ``TORCH2MLIR_COMPILE_THREADS`` is not a positive integer.
    """
    load_runtime()  # also sets the code generation options, once
    vector_math = vector_math_library() is not None
    key = None
    if cache and _cache.enabled():
        # The text, with locations (they become debug info): unlike the
        # bytecode, it is the same in every process.
        text = llvm_module.operation.get_asm(binary=True, enable_debug_info=True)
        key = _cache.object_key(
            text, opt_level, [*_CODEGEN_OPTIONS, f"libmvec={vector_math}"]
        )
        cached = _cache.load_object(key)
        if cached is not None:
            return cached, True
    try:
        code = _torch2mlir.compile_to_object(
            llvm_module, opt_level, vector_math, compile_threads()
        )
    except RuntimeError as error:
        raise CompileError(f"LLVM code generation failed: {error}") from error
    if key is not None:
        _cache.store_object(key, code)
    return code, False


class _StaticCall:
    """How a function whose inputs and outputs all have static shapes (and
    no checked value range) is called with plain tensors: the memref
    descriptors of its arguments and results are built once, with their
    sizes and contiguous strides, and a call only sets their data pointers
    (a call took 10 us before, 8 of them Python building descriptors and
    checking arguments; eager PyTorch dispatches an op in 3).

    A call takes a *frame* (one set of descriptors) from a pool and gives it
    back when the function returns, so calls from several threads at once
    never share a descriptor. Arguments that are not plain contiguous CPU
    tensors of exactly the compiled shape and dtype go the general way
    (:meth:`RefBackendModule.check_inputs`), which converts or rejects them.
    """

    def __init__(
        self,
        inputs: list[TensorSpec],
        outputs: list[TensorSpec],
        bound: list[Any],
    ) -> None:
        self.shapes = [torch.Size(cast("tuple[int, ...]", s.shape)) for s in inputs]
        self.dtypes = [s.dtype for s in inputs]
        self.out_shapes = [cast("tuple[int, ...]", s.shape) for s in outputs]
        self.out_dtypes = [s.dtype for s in outputs]
        self._bound = [ctypes.addressof(pointer.contents) for pointer in bound]
        self._pool: list[tuple[list[ctypes.Structure], list[int]]] = []

    @classmethod
    def of(
        cls, inputs: list[TensorSpec], outputs: list[TensorSpec], bound: list[Any]
    ) -> _StaticCall | None:
        """The call path of this signature, or None when a shape is dynamic,
        a value range is checked (the values must be read) or an input is
        complex (a conjugate view must be resolved first)."""
        if any(
            s.value_range is not None or None in s.shape or s.dtype.is_complex
            for s in (*inputs, *outputs)
        ):
            return None
        return cls(inputs, outputs, bound)

    def accepts(self, args: tuple[Any, ...]) -> bool:
        """Whether every argument is a plain, contiguous CPU tensor of its
        compiled shape and dtype whose memory holds its values (not a
        negative view, ``torch._neg_view``): then that memory is what the
        code reads."""
        if len(args) != len(self.shapes):
            return False
        for value, shape, dtype in zip(args, self.shapes, self.dtypes):
            if (
                type(value) is not torch.Tensor
                or value.dtype is not dtype
                or not value.is_cpu
                or value.layout is not torch.strided
                or value.is_nested
                or value.shape != shape
                or not value.is_contiguous()
                or value.is_neg()
            ):
                return False
        return True

    def _frame(self) -> tuple[list[ctypes.Structure], list[int]]:
        descriptors = []
        for shape in [*self.shapes, *self.out_shapes]:
            descriptor = _descriptor_class(len(shape))()
            descriptor.offset = 0
            if shape:
                descriptor.sizes[:] = list(shape)
                descriptor.strides[:] = _contiguous_strides(shape)
            descriptors.append(descriptor)
        addresses = [ctypes.addressof(d) for d in descriptors]
        count = len(self.shapes)
        return descriptors, [*addresses[:count], *self._bound, *addresses[count:]]

    def run(self, function: Any, args: tuple[torch.Tensor, ...]) -> list[torch.Tensor]:
        """Calls `function` (the C interface: a descriptor pointer per input,
        per bound weight, then per result) on `args`, which
        :meth:`accepts` took; returns the results it wrote."""
        results = [
            torch.empty(shape, dtype=dtype)
            for shape, dtype in zip(self.out_shapes, self.out_dtypes)
        ]
        frame = self._pool.pop() if self._pool else self._frame()
        try:
            descriptors, addresses = frame
            for descriptor, tensor in zip(descriptors, (*args, *results)):
                descriptor.allocated = descriptor.aligned = tensor.data_ptr()
            function(*addresses)
        finally:
            self._pool.append(frame)
        return results


def _contiguous_strides(shape: Sequence[int]) -> list[int]:
    """The row-major strides (in elements) of `shape`."""
    strides = []
    stride = 1
    for size in reversed(shape):
        strides.append(stride)
        stride *= size
    return strides[::-1]


class RefBackendModule:
    """A function compiled to the LLVM dialect, JIT-compiled and callable.

    Args:
        llvm_module: the module after ``torch2mlir-refbackend-pipeline``, whose
            entry function has ``llvm.emit_c_interface``.
        func_name: the entry function.
        inputs, outputs: the signature (from the torch-level function).
        opt_level: LLVM optimization level of the code generation (0-3).
        object_code: machine code from an earlier compilation (e.g. the
            cache); then `llvm_module` may be None.
        cache: whether code generation may use the on-disk cache.
        bound_inputs: tensors passed after the caller's arguments on every
            call (the model's weights); the last ``len(bound_inputs)`` specs
            of `inputs` describe them. They are referenced, not copied,
            except those at `frozen_weights`.
        frozen_weights: indices into `bound_inputs` of weights the code
            takes as constants (``compile(..., freeze=True)``, arguments
            marked ``torch2mlir.frozen``): each is copied once here, so
            that nothing changes it while the module lives, and the
            runtime's packed copies of it are freed with the module.
        shapes: the symbolic sizes of a program exported with dynamic
            shapes: each call checks the input sizes against their declared
            ranges and computes the output shapes from them.
    """

    def __init__(
        self,
        llvm_module: ir.Module | None,
        func_name: str,
        inputs: list[TensorSpec],
        outputs: list[TensorSpec],
        opt_level: int = 2,
        bound_inputs: list[torch.Tensor] | None = None,
        shapes: DynamicShapes | None = None,
        *,
        frozen_weights: Sequence[int] = (),
        object_code: bytes | None = None,
        cache: bool = True,
    ) -> None:
        self._shapes = shapes if shapes is not None and not shapes.is_static else None
        #: Whether the compiled code allocates the results (a program with
        #: a data-dependent output size, lowered with the RefBackend
        #: pipeline's ``callee-allocated-results``).
        self.callee_allocated = shapes is not None and shapes.data_dependent
        for spec in outputs:
            if self._shapes is None and any(s is None for s in spec.shape):
                raise CompileError(
                    f"output {spec.name} has a dynamic shape {spec.describe()}; the RefBackend "
                    "needs static output shapes"
                )
        # The caller's tensors, and the contiguous views the code reads (a
        # copy when the caller's tensor is not contiguous).
        self._bound_sources = [
            plain_cpu_tensor(t, f"weight {i}").detach()
            for i, t in enumerate(bound_inputs or [])
        ]
        bound = [
            _narrow(t.contiguous(), spec, f"weight {spec.name}", CompileError)
            for t, spec in zip(
                self._bound_sources, inputs[len(inputs) - len(self._bound_sources) :]
            )
        ]
        # A frozen weight is copied once: unless the view above already made
        # a tensor of its own (a non-contiguous or narrowed source), copy it.
        frozen = set(frozen_weights)
        bound = [
            t.clone()
            if i in frozen
            and t.untyped_storage().data_ptr() == source.untyped_storage().data_ptr()
            else t
            for i, (t, source) in enumerate(zip(bound, self._bound_sources))
        ]
        if frozen:
            weakref.finalize(
                self,
                _release_packed,
                [
                    (t.data_ptr(), t.untyped_storage().nbytes())
                    for i, t in enumerate(bound)
                    if i in frozen
                ],
            )
        self.func_name = func_name
        self.inputs = inputs[: len(inputs) - len(bound)]
        self.outputs = outputs
        self.shapes = shapes
        self._bound = bound
        self._bound_pointers = [
            ctypes.pointer(self._descriptor(_as_buffer(t))) for t in bound
        ]
        load_runtime()
        #: Whether the machine code came from the on-disk cache.
        self.cache_hit = object_code is not None
        if object_code is None:
            if llvm_module is None:
                raise ValueError("RefBackendModule needs llvm_module or object_code")
            object_code, self.cache_hit = compile_object(llvm_module, opt_level, cache)
        #: The machine code (a relocatable object for this CPU).
        self.object_code = object_code
        libraries = [_RUNTIME_LIB]
        vector_math = vector_math_library()
        if vector_math is not None:
            libraries.append(vector_math)
        self._jit = _torch2mlir.ObjectJit(object_code, libraries)
        try:
            address = self._jit.lookup("_mlir_ciface_" + func_name)
        except RuntimeError as error:
            raise CompileError(
                f"linking the compiled code of @{func_name} failed: {error}. A "
                "symbol that does not resolve is a runtime function the "
                "code calls but neither the process nor the torch2mlir "
                "runtime defines; please report it with the program"
            ) from error
        # Caller-allocated: a descriptor pointer per input, then per output.
        # Callee-allocated: first a pointer to the struct of the result
        # descriptors that the function fills, then the inputs.
        arity = len(inputs) + (1 if self.callee_allocated else len(outputs))
        self._function = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * arity))(address)
        self._results_class = type(
            "Results",
            (ctypes.Structure,),
            {
                "_fields_": [
                    (f"r{i}", _descriptor_class(len(spec.shape)))
                    for i, spec in enumerate(outputs)
                ]
            },
        )
        #: The call path of a static signature (None otherwise).
        self._static = (
            None
            if self.callee_allocated or self._shapes is not None
            else _StaticCall.of(self.inputs, outputs, self._bound_pointers)
        )
        #: Whether the program has random ops (rand, randn, randperm,
        #: native_dropout): then each call seeds the runtime's key stream
        #: from PyTorch's default generator, so ``torch.manual_seed`` makes
        #: its results reproducible and each call draws new numbers. The
        #: object code references the runtime's key function iff it does.
        self.uses_random = _RANDOM_KEY_SYMBOL in object_code

    def bound_tensor(self, index: int) -> torch.Tensor:
        """The `index`-th bound input (it shares the caller's storage when
        that was contiguous)."""
        return self._bound[index]

    def update_bound_tensor(self, index: int, value: torch.Tensor) -> None:
        """Stores `value` (same shape) as the new contents of the `index`-th
        bound input: in the tensor the compiled code reads, and in the
        caller's tensor when that is a different (non-contiguous) one. This
        is how a training-mode buffer update reaches the model."""
        bound, source = self._bound[index], self._bound_sources[index]
        with torch.no_grad():
            bound.copy_(value)
            if (
                bound.data_ptr() != source.data_ptr()
                or bound.stride() != source.stride()
            ):
                source.copy_(bound)

    def check_inputs(self, args: tuple[Any, ...]) -> list[torch.Tensor]:
        """The call's arguments as contiguous tensors, checked against the signature.

        Raises:
            InputError: wrong count, type, rank, shape or dtype; the message
                names the argument and says what was expected and given.
        """
        if len(args) != len(self.inputs):
            expected = ", ".join(f"{s.name}: {s.describe()}" for s in self.inputs)
            raise InputError(
                f"expected {len(self.inputs)} arguments ({expected}), got {len(args)}"
            )
        tensors = []
        for index, (value, spec) in enumerate(zip(args, self.inputs)):
            what = f"argument {index} ({spec.name})"
            if not isinstance(value, torch.Tensor):
                if type(value).__module__ == "numpy":
                    value = torch.from_numpy(value)
                else:
                    raise InputError(
                        f"{what}: expected a tensor {spec.describe()}, got a {type(value).__name__}"
                    )
            value = plain_cpu_tensor(value, what)
            if value.dim() != len(spec.shape):
                raise InputError(
                    f"{what}: expected rank {len(spec.shape)} {spec.describe()}, got rank "
                    f"{value.dim()} {_describe(value)}"
                )
            if any(
                want is not None and want != got
                for want, got in zip(spec.shape, value.shape)
            ):
                raise InputError(
                    f"{what}: expected shape {spec.describe()}, got {_describe(value)}"
                )
            if value.dtype != spec.dtype:
                raise InputError(
                    f"{what}: expected dtype {spec.describe()}, got {_describe(value)}"
                )
            tensors.append(_narrow(value.detach().contiguous(), spec, what, InputError))
        return tensors

    @staticmethod
    def _descriptor(tensor: torch.Tensor) -> ctypes.Structure:
        desc = _descriptor_class(tensor.dim())()
        desc.allocated = desc.aligned = tensor.data_ptr()
        desc.offset = 0
        if tensor.dim():
            desc.sizes[:] = list(tensor.shape)
            desc.strides[:] = _contiguous_strides(tensor.shape)
        return desc

    def __call__(self, *args: Any) -> list[torch.Tensor]:
        """Runs the function; returns its results as new tensors.

        Raises:
            InputError: an argument does not match the signature (see
                :meth:`check_inputs`), or a run-time check of the compiled
                code failed.
        """
        static = self._static
        if static is not None and static.accepts(args):
            self._seed_random()
            results = static.run(self._function, args)
            self._check_failure()
            return results
        tensors = self.check_inputs(args)
        if self.callee_allocated:
            return self._call_callee_allocated(tensors)
        shapes: list[tuple[int, ...]]
        if self._shapes is None:
            # Static: __init__ checked that no output has a dynamic size.
            shapes = cast(
                "list[tuple[int, ...]]", [spec.shape for spec in self.outputs]
            )
        else:
            shapes = self._shapes.output_shapes(self._shapes.bind(tensors))
        results = [
            torch.empty(shape, dtype=spec.abi_dtype)
            for shape, spec in zip(shapes, self.outputs)
        ]
        args_pointers = [
            ctypes.pointer(self._descriptor(_as_buffer(t))) for t in tensors
        ]
        # A bool result is filled through its uint8 view: no copy back.
        out_pointers = [
            ctypes.pointer(self._descriptor(_as_buffer(t))) for t in results
        ]
        self._seed_random()
        # The C interface takes a pointer to each memref descriptor; the
        # out-params come after all inputs: the caller's, then the bound ones.
        self._function(*args_pointers, *self._bound_pointers, *out_pointers)
        self._check_failure()
        return [
            result if spec.abi_dtype == spec.dtype else result.to(spec.dtype)
            for result, spec in zip(results, self.outputs)
        ]

    def _call_callee_allocated(self, tensors: list[torch.Tensor]) -> list[torch.Tensor]:
        """Runs a function that allocates its results; returns them as
        tensors over that memory (see :func:`_take_result`)."""
        args_pointers = [
            ctypes.pointer(self._descriptor(_as_buffer(t))) for t in tensors
        ]
        self._seed_random()
        returned = self._results_class()
        self._function(ctypes.pointer(returned), *args_pointers, *self._bound_pointers)
        try:
            self._check_failure()
        except InputError:
            # The function returned early, with empty results: drop them.
            for i in range(len(self.outputs)):
                _free(getattr(returned, f"r{i}").allocated)
            raise
        return [
            _take_result(getattr(returned, f"r{i}"), spec)
            for i, spec in enumerate(self.outputs)
        ]

    def _seed_random(self) -> None:
        if self.uses_random:
            seed = cast(int, torch.empty((), dtype=torch.int64).random_().item())
            assert _runtime is not None  # loaded by __init__
            _runtime.torch2mlir_runtime_seed_random(ctypes.c_uint64(seed))

    @staticmethod
    def _check_failure() -> None:
        """Raises the failure a run-time check of the compiled code
        reported in this call, if any (a size the code assumes, an integer
        division by zero; see refbackend-lower-asserts): the code returned
        before reading or writing with a wrong size, and its results are not
        returned.

        Raises:
            InputError: the check's message and location.
        """
        assert _runtime is not None  # loaded by __init__
        failure = _runtime.torch2mlir_runtime_take_failure()
        if failure is not None:
            raise InputError(
                f"a run-time check of the compiled program failed: "
                f"{failure.decode()}. Call it with inputs the model accepts "
                "(for an ONNX model: the sizes its graph and value_info declare)"
            )
