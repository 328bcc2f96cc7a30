"""The compile API: :func:`compile` (PyTorch), :func:`compile_onnx` (ONNX),
:func:`export_and_import` (MLIR at the level of your choice).

The flow runs one way: front end (torch.export + the FX importer, or the
ONNX importer) -> :class:`~torch2mlir.program.Program` -> backend contract
-> backend (:mod:`.backends`) -> the callable (:class:`CompiledModule`).
The pipelines are in :mod:`.pipelines`, by the names ``torch2mlir-opt``
gives them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, TypedDict, cast

import torch
import torch.utils._pytree as pytree

from .. import ir
from ..errors import CompileError
from ..fx import decompose, export, import_exported_program
from ..fx.importer import imported_op_name
from ..fx.program import import_program
from ..fx.simplify import simplify_exported_program
from ..program import Program
from ..runtime import cache as _cache
from .backends import BACKENDS, Backend, get_backend
from .compiled import CompiledModule
from .freezing import fold_batch_norms
from .pipelines import (
    BACKEND_CONTRACT_PIPELINE,
    LINALG_ON_TENSORS_PIPELINE,
    REFBACKEND_PIPELINE,
    format_location,
    lower_to_backend_contract,
    lower_to_linalg_on_tensors,
    lower_to_llvm,
    run_pipeline,
)
from .scalars import (
    FixedScalars,
    ScalarsAsTensors,
    SpecializedScalars,
    as_tensor,
    is_data_dependent_failure,
    scalar_positions,
)

__all__ = [
    "BACKENDS",
    "BACKEND_CONTRACT_PIPELINE",
    "LINALG_ON_TENSORS_PIPELINE",
    "OUTPUT_TYPES",
    "REFBACKEND_PIPELINE",
    "CompiledModule",
    "compile",
    "export_and_import",
    "format_location",
    "lower_to_backend_contract",
    "lower_to_linalg_on_tensors",
    "lower_to_llvm",
    "run_pipeline",
]

_DECOMPOSITIONS = ("auto", "core-aten", "none")


class _Options(TypedDict):
    """The options :func:`compile` passes on to :func:`_compile`."""

    backend: Backend
    decompositions: str | dict | None
    opt_level: int
    cache: bool
    freeze: bool


def compile(
    model: torch.nn.Module | torch.export.ExportedProgram,
    example_args: Sequence[Any],
    *,
    backend: str = "linalg-on-tensors",
    decompositions: str | dict | None = "auto",
    dynamic_shapes: Any = None,
    opt_level: int = 2,
    cache: bool = True,
    freeze: bool = False,
) -> CompiledModule | SpecializedScalars:
    """Compiles `model`: torch.export -> torch dialect (a
    :class:`~torch2mlir.program.Program`) -> backend contract -> `backend`
    -> a callable.

    Args:
        model: the module; call ``model.eval()`` first for inference. In
            training mode, buffers it updates (BatchNorm's running
            statistics) are updated in place at each call, as in eager
            PyTorch, and so are inputs it mutates. Or a program that ``torch.export.export`` (or
            :func:`torch2mlir.fx.export`) already made: it is not exported
            again, only decomposed per `decompositions` (pass ``"none"`` when
            it is decomposed already), and `dynamic_shapes` must be None (the
            program carries its own).
        example_args: positional example inputs: tensors, and Python
            ``int``/``float``/``bool`` scalars. The compiled module accepts
            tensors of the same shapes and dtypes, and scalars of the same
            types, which are inputs of the program (any value computes with
            that value), or where the model branches on them, compiled in
            (one program per distinct value; see
            :mod:`torch2mlir.compiler.scalars`).
        decompositions: ``"auto"`` (default): no PyTorch decompositions
            when torch2mlir defines every (functional) op of the exported
            program (once :mod:`torch2mlir.fx.simplify` rewrote the forms
            it can), else, or when lowering fails, PyTorch's Core ATen
            table; ``"core-aten"``: always the table; ``"none"``: never; or
            a table (see :func:`torch2mlir.fx.export`). The table re-traces
            the program: skipping it saves about 40% of a cold compile.
        dynamic_shapes: forwarded to ``torch.export.export`` (e.g.
            ``({0: torch.export.Dim("batch", min=1, max=64)},)``); the
            compiled module then accepts any size in the declared ranges
            and raises InputError for sizes outside them.
        backend: the output dialect and how it runs (see
            :mod:`torch2mlir.compiler.backends`): ``"linalg-on-tensors"``
            (the default) runs on the CPU through the RefBackend.
        opt_level: LLVM optimization level of the JIT (0-3).
        cache: use the on-disk compile cache (torch2mlir.runtime.cache).
            The key is the exported program (graph, signature, constants,
            shapes and dtypes), the options and the torch2mlir build, so
            a hit returns exactly what a fresh compile would: torch.export
            runs every time, and a hit skips decomposition, import,
            lowering and code generation, in any process. The result's
            ``cache`` attribute says which level hit: ``"program"``,
            ``"object"`` (machine code only), ``"miss"``, or ``"off"``
            (disabled, a custom decomposition table, or a program with a
            constant that cannot be keyed). Weights are not part of the
            key: they are bound from `model` at each compile.
        freeze: take the weights as constants, as inductor's ``freezing``
            option does (``torch._inductor.config.freezing``). The compiled
            module copies every parameter, buffer and constant the program
            does not update in place, once, at compile time: later changes
            to the model's weights are not seen (compile again to pick
            them up). A matmul or linear layer whose weight is such a copy
            runs MKL's packed GEMM (``cblas_sgemm_pack`` once per row count
            of its input, then ``cblas_sgemm_compute`` at each call): on a
            2-core AVX-512 host, 7-15% faster on the bench's BERT, GPT-2
            and ViT, 26-46% on its MLP, 6% on a 1024 x 1024 ``torch.mm``
            with one thread. Memory: the weights once more, plus the packed
            copies (MKL's size: about 8 MB per matrix plus twice its own;
            freed with the module). An ``nn.Module`` in eval mode has its
            batch norms folded into the convolution or linear layer before
            them first (:func:`torch2mlir.compiler.freezing.fold_batch_norms`).
            Without MKL (OpenBLAS), only the copy is made. Default False:
            the compiled module reads the model's weights by reference, so
            in-place updates (an optimizer step) are seen at the next call.

    Returns:
        A :class:`CompiledModule` returning what the model returns (tensor,
        tuple, list or dict of tensors and Python scalars); with scalars
        compiled in, a :class:`~torch2mlir.compiler.scalars.SpecializedScalars`
        that calls one.

    Raises:
        CompileError: export, import, lowering or JIT failed; unsupported ops
            are named with the Python source line they come from.
        ValueError: an unknown ``decompositions`` or ``backend`` name.
        TypeError: `example_args` is one tensor, not a sequence of inputs
            (a tensor would be split along its first dimension).
    """
    if isinstance(example_args, torch.Tensor):
        raise TypeError(
            "compile(model, example_args): example_args is one tensor of shape "
            f"{list(example_args.shape)}; it must be a tuple of the positional "
            "inputs: compile(model, (x,))"
        )
    if isinstance(decompositions, str) and decompositions not in _DECOMPOSITIONS:
        raise ValueError(
            f"decompositions={decompositions!r}: expected one of "
            f"{', '.join(_DECOMPOSITIONS)} or a table"
        )
    exported = isinstance(model, torch.export.ExportedProgram)
    if exported and dynamic_shapes is not None:
        raise ValueError(
            "dynamic_shapes applies to torch.export: an ExportedProgram carries its own"
        )
    options: _Options = {
        "backend": get_backend(backend),
        "decompositions": decompositions,
        "opt_level": opt_level,
        "cache": cache,
        "freeze": freeze,
    }
    if freeze and not exported:
        model = fold_batch_norms(cast(torch.nn.Module, model))
    kinds = {} if exported else scalar_positions(example_args)
    if kinds:
        # Not an ExportedProgram: kinds is empty for one.
        module = cast(torch.nn.Module, model)
        return _compile_with_scalars(
            module, example_args, kinds, dynamic_shapes=dynamic_shapes, **options
        )
    return _compile(model, example_args, dynamic_shapes=dynamic_shapes, **options)


def _compile(
    model: torch.nn.Module | torch.export.ExportedProgram,
    example_args: Sequence[Any],
    *,
    backend: Backend,
    decompositions: str | dict | None,
    dynamic_shapes: Any,
    opt_level: int,
    cache: bool,
    freeze: bool,
    scalar_inputs: tuple[int, ...] = (),
) -> CompiledModule:
    """:func:`compile` of a model whose arguments are tensors (Python
    scalars already 0-d tensors, at `scalar_inputs`)."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    exported = isinstance(model, torch.export.ExportedProgram)
    # torch.export always runs: the program it makes is the cache key (a key
    # taken from the model object cannot see the globals, private attributes
    # or closures that steer forward).
    raw = (
        model
        if isinstance(model, torch.export.ExportedProgram)
        else export(
            model,
            tuple(example_args),
            decompositions="none",
            dynamic_shapes=dynamic_shapes,
        )
    )
    timings["export"] = time.perf_counter() - start

    start = time.perf_counter()
    key = None
    if cache and _cache.enabled() and isinstance(decompositions, (str, type(None))):
        options = (
            f"{decompositions!r}|{backend.name}|{opt_level}|{scalar_inputs}"
            f"|freeze={freeze}"
        )
        key = _cache.program_key(raw, options)
    entry = _cache.load_program(key) if key else None
    timings["cache"] = time.perf_counter() - start
    if entry is not None:
        compiled = _from_cache_entry(raw, entry, backend, opt_level, freeze, timings)
        if compiled is not None:
            return compiled

    program = _lower(raw, exported, backend, decompositions, scalar_inputs, timings)
    start = time.perf_counter()
    runner = backend.load(program, opt_level=opt_level, cache=cache, freeze=freeze)
    timings["jit"] = time.perf_counter() - start
    entry = _cache_entry(raw, program, runner.object_code) if key else None
    if key is not None and entry is not None:
        _cache.store_program(key, entry)
    compiled = CompiledModule(runner, program, timings)
    compiled.cache = "object" if runner.cache_hit else ("miss" if key else "off")
    return compiled


def _lower(
    raw: torch.export.ExportedProgram,
    exported: bool,
    backend: Backend,
    decompositions: str | dict | None,
    scalar_inputs: tuple[int, ...],
    timings: dict[str, float],
) -> Program:
    """The exported program imported and lowered to `backend`'s dialect.

    With ``decompositions="auto"``, when torch2mlir defines every op of the
    program (after :func:`~torch2mlir.fx.simplify.simplify_exported_program`
    rewrote the forms it can), it is lowered with torch2mlir's own
    decompositions and PyTorch's Core ATen table (which re-traces the whole
    program: about 40% of a cold compile of ResNet-18) runs only if that
    fails.
    """
    own = decompositions == "auto" and not exported
    if own:
        simplify_exported_program(raw)  # `raw` is ours: made by _compile
    if own and _defines_every_op(raw):
        try:
            return _import_and_lower(raw, backend, scalar_inputs, timings)
        except CompileError:
            pass
    start = time.perf_counter()
    table = "core-aten" if decompositions == "auto" else decompositions
    prog = decompose(raw, table)
    timings["export"] += time.perf_counter() - start
    return _import_and_lower(prog, backend, scalar_inputs, timings)


def _import_and_lower(
    prog: torch.export.ExportedProgram,
    backend: Backend,
    scalar_inputs: tuple[int, ...],
    timings: dict[str, float],
) -> Program:
    """Front end -> contract -> backend dialect; records ``import`` and
    ``lowering`` seconds in `timings`.

    Raises:
        CompileError: an op has no definition or lowering.
    """
    start = time.perf_counter()
    program = import_program(prog, scalar_inputs=scalar_inputs)
    timings["import"] = time.perf_counter() - start
    start = time.perf_counter()
    lower_to_backend_contract(program.module, backend.legal_ops, backend.float64)
    backend.lower(program.module)
    program.adopt_value_ranges()
    timings["lowering"] = time.perf_counter() - start
    return program


def _cache_entry(
    raw: torch.export.ExportedProgram, program: Program, object_code: bytes
) -> dict[str, Any] | None:
    """What the program cache keeps of a compile: the signature, the names
    of the weights to bind (and the constant tensors only a decomposition
    made, which the exported program does not have), and the machine code.
    None when the output structure has no serialized form in
    ``torch.utils._pytree`` (a ``torch.return_types`` tuple such as
    ``x.topk(k)``'s): the program is then not kept, only its machine code."""
    out_spec = None
    if program.out_spec:
        try:
            out_spec = pytree.treespec_dumps(program.out_spec)
        except NotImplementedError:
            return None
    return {
        "object": object_code,
        "func_name": program.func_name,
        "arguments": program.arguments,
        "results": program.results,
        "weight_names": program.weight_names,
        "constants": {
            i: tensor
            for i, (tensor, name) in enumerate(
                zip(program.weights, program.weight_names)
            )
            if name not in raw.state_dict and name not in raw.constants
        },
        "mutated_arguments": program.mutated_arguments,
        "output_kinds": program.output_kinds,
        "layouts": program.layouts,
        "out_spec": out_spec,
        "shapes": program.shapes,
    }


def _from_cache_entry(
    raw: torch.export.ExportedProgram,
    entry: dict[str, Any],
    backend: Backend,
    opt_level: int,
    freeze: bool,
    timings: dict[str, float],
) -> CompiledModule | None:
    """Rebuilds a compiled module from the cache entry of `raw`, binding its
    weights by name (the model's own tensors, as torch.export holds them);
    None when a weight is missing or differs in shape or dtype."""
    weights = []
    specs = entry["arguments"][len(entry["arguments"]) - len(entry["weight_names"]) :]
    for index, (name, spec) in enumerate(zip(entry["weight_names"], specs)):
        tensor = raw.state_dict.get(name)
        if tensor is None:
            tensor = raw.constants.get(name, entry["constants"].get(index))
        if not isinstance(tensor, torch.Tensor) or (
            tuple(tensor.shape) != spec.shape or tensor.dtype != spec.dtype
        ):
            return None
        weights.append(tensor)
    out_spec = entry["out_spec"]
    program = Program(
        module=None,
        func_name=entry["func_name"],
        arguments=entry["arguments"],
        results=entry["results"],
        weights=weights,
        weight_names=entry["weight_names"],
        mutated_arguments=entry["mutated_arguments"],
        output_kinds=entry["output_kinds"],
        layouts=entry["layouts"],
        out_spec=pytree.treespec_loads(out_spec) if out_spec else None,
        shapes=entry["shapes"],
    )
    start = time.perf_counter()
    runner = backend.load(
        program, opt_level=opt_level, object_code=entry["object"], freeze=freeze
    )
    timings.update({"import": 0.0, "lowering": 0.0})
    timings["jit"] = time.perf_counter() - start
    compiled = CompiledModule(runner, program, timings)
    compiled.cache = "program"
    return compiled


def _compile_with_scalars(
    model: torch.nn.Module,
    example_args: Sequence[Any],
    kinds: dict[int, type],
    *,
    dynamic_shapes: Any,
    **options: Any,
) -> CompiledModule | SpecializedScalars:
    """:func:`compile` of a model with Python-scalar arguments (see
    :mod:`torch2mlir.compiler.scalars`): as inputs (0-d tensors read with
    ``.item()``), else, when the program branches on them, specialized."""
    specs = list(dynamic_shapes) if isinstance(dynamic_shapes, (tuple, list)) else None
    if dynamic_shapes is not None and specs is None:
        raise ValueError(
            "dynamic_shapes of a model with scalar arguments: give a tuple, one "
            "entry per argument (None for the scalars)"
        )
    tensors = [
        as_tensor(arg, kinds[i], f"argument {i}") if i in kinds else arg
        for i, arg in enumerate(example_args)
    ]
    wrapped_shapes = (
        None
        if specs is None
        else (tuple(None if i in kinds else s for i, s in enumerate(specs)),)
    )
    try:
        return _compile(
            ScalarsAsTensors(model, kinds),
            tensors,
            dynamic_shapes=wrapped_shapes,
            scalar_inputs=tuple(kinds),
            **options,
        )
    except CompileError as error:
        if not is_data_dependent_failure(error):
            raise
    rest = [arg for i, arg in enumerate(example_args) if i not in kinds]
    rest_shapes = (
        None
        if specs is None
        else (tuple(s for i, s in enumerate(specs) if i not in kinds),)
    )

    def compile_for(values: dict[int, Any]) -> CompiledModule:
        return _compile(
            FixedScalars(model, values), rest, dynamic_shapes=rest_shapes, **options
        )

    return SpecializedScalars(compile_for, kinds, {i: example_args[i] for i in kinds})


def _defines_every_op(prog: torch.export.ExportedProgram) -> bool:
    """Whether every call in `prog` is a functional ATen op that the torch
    dialect defines (no mutation, no higher-order op, no op that would
    import as an opaque ``torch.operator``).

    Programs with scaled-dot-product attention qualify too: the transformers
    lowered from their exported ops run as fast as through the table (BERT,
    GPT-2, LLaMA step at 1 and 2 threads, same process), and the table's
    re-trace costs 1.3-2.1 s of their compile."""
    with ir.Context() as context:
        for node in prog.graph.nodes:
            if node.op != "call_function":
                continue
            target = node.target
            if isinstance(target, torch._ops.OpOverload) and target._schema.is_mutable:
                return False
            if imported_op_name(target, context) is None:
                return False
    return True


#: What `export_and_import(..., output_type=...)` accepts: the imported IR,
#: the backend contract, or a backend's dialect.
OUTPUT_TYPES = ("raw", "torch", *BACKENDS)


def _packed_inputs_hint(args: Sequence[Any]) -> str:
    """The way out when an argument of :func:`export_and_import` is a tuple
    or list of tensors (most likely the inputs packed as :func:`compile`
    takes them), else ""."""
    for position, arg in enumerate(args):
        if (
            isinstance(arg, (tuple, list))
            and arg
            and all(isinstance(item, torch.Tensor) for item in arg)
        ):
            return (
                f"argument {position} is a {type(arg).__name__} of {len(arg)} "
                "tensor(s); export_and_import takes the example inputs as "
                "separate arguments, export_and_import(model, x, y): if these "
                "are the inputs, unpack them: export_and_import(model, *inputs)"
            )
    return ""


def export_and_import(
    model: torch.nn.Module,
    *args: Any,
    output_type: str = "torch",
    decompositions: str | dict | None = "core-aten",
    dynamic_shapes: Any = None,
    func_name: str = "main",
    context: ir.Context | None = None,
) -> ir.Module:
    """Exports `model` with torch.export and imports it into MLIR.

    Args:
        model: an ``nn.Module`` (in eval mode for inference).
        *args: example inputs: tensors of any dtype in
            :data:`torch2mlir.program.TORCH_DTYPE_TO_MLIR`, and Python
            scalars (``!torch.int``/``float``/``bool`` arguments).
        output_type: ``"raw"`` (as imported), ``"torch"`` (lowered to the
            backend contract: ``torch-lower-to-backend-contract``) or a
            backend's name (also through its pipeline, e.g.
            ``"linalg-on-tensors"``).
        decompositions: see :func:`torch2mlir.fx.export`.
        dynamic_shapes: forwarded to ``torch.export.export``.
        func_name: the name of the imported function.
        context: an MLIR context (a new one by default).

    Returns:
        The MLIR module (weights as literals).

    Raises:
        ValueError: an unknown ``output_type`` or ``decompositions``.
        CompileError: export, import or lowering failed; the message names the
            op and the Python source line it came from. When torch.export
            fails and an argument is a tuple or list of tensors, the message
            says how to pass them unpacked (the inputs are separate
            arguments here, unlike :func:`compile`'s one tuple).
    """
    if output_type not in OUTPUT_TYPES:
        raise ValueError(f"output_type={output_type!r}: expected one of {OUTPUT_TYPES}")
    try:
        prog = export(
            model, args, decompositions=decompositions, dynamic_shapes=dynamic_shapes
        )
    except CompileError as error:
        hint = _packed_inputs_hint(args)
        if not hint:
            raise
        raise CompileError(f"{error}\n  note: {hint}") from error
    module = import_exported_program(prog, func_name=func_name, context=context)
    if output_type == "raw":
        return module
    backend = BACKENDS.get(output_type)
    if backend is None:
        lower_to_backend_contract(module)
    else:
        lower_to_backend_contract(module, backend.legal_ops, backend.float64)
    if backend is not None:
        backend.lower(module)
    return module
