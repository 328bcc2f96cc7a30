"""Pipelines and the compile API.

The pipelines have the same names here, in ``torch2mlir-opt`` and in the
README:

- ``torch-lower-to-backend-contract``: imported torch IR to the backend
  contract (decompositions, verification);
- ``torch-backend-to-linalg-on-tensors-backend-pipeline``: backend contract
  to linalg-on-tensors;
- ``torch2mlir-refbackend-pipeline``: linalg-on-tensors to the LLVM dialect
  for the RefBackend.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import torch
import torch.utils._pytree as pytree

from .. import ir, passmanager
from ..errors import CompileError, InputError
from ..runtime import cache as _cache
from ..runtime.refbackend import RefBackendModule, TensorSpec, parse_vtensor_type
from ..runtime.shapes import DynamicShapes
from .scalars import (
    FixedScalars,
    ScalarsAsTensors,
    SpecializedScalars,
    as_tensor,
    is_data_dependent_failure,
    scalar_positions,
)

__all__ = [
    "BACKEND_CONTRACT_PIPELINE",
    "LINALG_ON_TENSORS_PIPELINE",
    "REFBACKEND_PIPELINE",
    "CompiledModule",
    "compile",
    "lower_to_backend_contract",
    "lower_to_linalg_on_tensors",
    "lower_to_llvm",
    "run_pipeline",
]

BACKEND_CONTRACT_PIPELINE = "torch-lower-to-backend-contract"
LINALG_ON_TENSORS_PIPELINE = "torch-backend-to-linalg-on-tensors-backend-pipeline"
REFBACKEND_PIPELINE = "torch2mlir-refbackend-pipeline"

_FILE_LOC = re.compile(r'"([^"]+)":(\d+):\d+')
_NAME_LOC = re.compile(r'^loc\("([^"]+)"\(')


def format_location(location: ir.Location) -> str:
    """``file.py:12 (node conv2d)`` from an FX-imported location."""
    text = str(location)
    where = _FILE_LOC.search(text)
    name = _NAME_LOC.match(text)
    parts = []
    if where:
        parts.append(f"{where.group(1)}:{where.group(2)}")
    if name:
        parts.append(f"(node {name.group(1)})")
    return " ".join(parts) or text


def _format_diagnostic(diag: Any) -> str:
    lines = [f"{format_location(diag.location)}: {diag.message}"]
    for note in diag.notes:
        lines.append(f"  note: {format_location(note.location)}: {note.message}")
    return "\n".join(lines)


def run_pipeline(module: ir.Module, pipeline: str, description: str) -> None:
    """Runs a textual pass pipeline on `module` in place.

    Args:
        module: the module to transform.
        pipeline: passes as in ``torch2mlir-opt --pass-pipeline``, without
            the ``builtin.module(...)`` wrapper.
        description: what the pipeline does, for error messages.

    Raises:
        CompileError: a pass failed; the message lists each diagnostic with
            its source location.
    """
    with module.context:
        pm = passmanager.PassManager.parse(f"builtin.module({pipeline})")
        try:
            pm.run(module.operation)
        except ir.MLIRError as error:
            diagnostics = [_format_diagnostic(d) for d in error.error_diagnostics]
            body = "\n".join(diagnostics) or str(error)
            raise CompileError(f"{description} failed:\n{body}", diagnostics) from None


def lower_to_backend_contract(module: ir.Module, legal_ops: Sequence[str] = ()) -> None:
    """Imported torch IR -> backend contract (in place).

    Args:
        legal_ops: ATen ops (``aten.linear``...) to keep rather than decompose.

    Raises:
        CompileError: an op has no definition or lowering (the message names
            it and its Python source line).
    """
    options = "{legal-ops=" + ",".join(legal_ops) + "}" if legal_ops else ""
    run_pipeline(
        module, BACKEND_CONTRACT_PIPELINE + options, "lowering to the backend contract"
    )


def lower_to_linalg_on_tensors(module: ir.Module) -> None:
    """Backend contract -> linalg-on-tensors (in place). Raises CompileError."""
    run_pipeline(module, LINALG_ON_TENSORS_PIPELINE, "lowering to linalg-on-tensors")


def lower_to_llvm(module: ir.Module, func_name: str = "main") -> None:
    """linalg-on-tensors -> LLVM dialect with C-interface entry (in place)."""
    with module.context:
        for op in module.body.operations:
            if (
                op.operation.name == "func.func"
                and ir.StringAttr(op.attributes["sym_name"]).value == func_name
            ):
                op.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
    run_pipeline(module, REFBACKEND_PIPELINE, "lowering to LLVM (RefBackend)")


def function_signature(
    module: ir.Module, func_name: str = "main", input_names: Sequence[str] = ()
) -> tuple[list[TensorSpec], list[TensorSpec]]:
    """The tensor specs of a torch-level function's inputs and results."""
    for op in module.body.operations:
        if (
            op.operation.name == "func.func"
            and ir.StringAttr(op.attributes["sym_name"]).value == func_name
        ):
            ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            names = list(input_names) or [f"arg{i}" for i in range(len(ftype.inputs))]
            inputs = [
                parse_vtensor_type(str(t), n) for t, n in zip(ftype.inputs, names)
            ]
            outputs = [
                parse_vtensor_type(str(t), f"result{i}")
                for i, t in enumerate(ftype.results)
            ]
            return inputs, outputs
    raise CompileError(f"no function @{func_name} in the module")


class CompiledModule:
    """A model compiled for the CPU by the RefBackend; call it like the model.

    Attributes:
        timings: seconds spent per phase: ``export`` (torch.export and
            decompositions), ``cache`` (keying and reading the compile
            cache), ``import``, ``lowering`` (all pipelines) and ``jit``
            (LLVM code generation, or loading cached code); zeros for
            phases a cache hit skipped.
        cache: ``"program"``, ``"object"``, ``"miss"`` or ``"off"``: what
            the on-disk compile cache provided (see :func:`compile`).
        inputs, outputs: the compiled signature (TensorSpec per tensor).
    """

    def __init__(
        self,
        runner: RefBackendModule,
        out_spec: Any,
        timings: dict[str, float],
        mutated_arguments: Sequence[int] = (),
        layouts: dict[int, tuple[int, ...]] | None = None,
        output_kinds: Sequence[tuple[str, Any]] | None = None,
    ) -> None:
        self._runner = runner
        self._out_spec = out_spec
        self._mutated = list(mutated_arguments)
        self._layouts = dict(layouts or {})
        self._output_kinds = list(output_kinds or [])
        #: Positions of Python-scalar arguments and their types (they are
        #: passed to the compiled code as 0-d tensors).
        self.scalar_inputs: dict[int, type] = {}
        self.timings = timings
        self.cache = "off"
        self.inputs = runner.inputs
        self.outputs = runner.outputs

    def __call__(self, *args: Any) -> Any:
        """Runs the compiled model on tensors shaped like the example inputs.

        Inputs and buffers the model updates in place (``x.add_(1)``, a
        training-mode BatchNorm's running statistics) are updated as eager
        PyTorch updates them.

        Raises:
            InputError: an argument does not match the compiled signature.
        """
        if self.scalar_inputs:
            args = tuple(
                as_tensor(arg, self.scalar_inputs[i], f"argument {i}")
                if i in self.scalar_inputs
                else arg
                for i, arg in enumerate(args)
            )
        for position, strides in self._layouts.items():
            self._check_layout(args, position, strides)
        results: list[Any] = self._runner(*args)
        if self._mutated:
            kept = len(results) - len(self._mutated)
            results, updates = results[:kept], results[kept:]
            self._write_back(args, updates)
        if self._output_kinds:
            results = _user_outputs(results, self._output_kinds)
        if self._out_spec is None:
            return results[0] if len(results) == 1 else tuple(results)
        return pytree.tree_unflatten(results, self._out_spec)

    def _check_layout(
        self, args: tuple[Any, ...], position: int, strides: tuple[int, ...]
    ) -> None:
        """The program reads the storage of argument `position` (as_strided):
        it was compiled for `strides`, and eager PyTorch's result depends on
        them."""
        if position >= len(args) or not isinstance(args[position], torch.Tensor):
            return  # the runner reports the count or the type
        value = args[position]
        if value.dim() != len(strides) or all(
            size == 1 or got == want
            for size, got, want in zip(value.shape, value.stride(), strides)
        ):
            return
        spec = self._runner.inputs[position]
        raise InputError(
            f"argument {position} ({spec.name}): the program reads this "
            f"tensor's storage (as_strided), compiled for strides {strides}, "
            f"got strides {tuple(value.stride())}; pass a tensor laid out "
            "like the example (e.g. .contiguous() or .to(memory_format=...))"
        )

    def _write_back(self, args: tuple[Any, ...], updates: Sequence[Any]) -> None:
        """Copies each new value of mutated state into its tensor: a user
        argument, or a bound buffer of the model."""
        user = len(self._runner.inputs)
        with torch.no_grad():
            for position, value in zip(self._mutated, updates):
                if position < user:
                    args[position].copy_(value)
                else:
                    self._runner.update_bound_tensor(position - user, value)


def _user_outputs(
    results: Sequence[torch.Tensor], kinds: Sequence[tuple[str, Any]]
) -> list[Any]:
    """The model's outputs from the compiled code's tensor results: Python
    scalars from their 0-d tensors, constants where the program returns one
    (see ``FxImporter.output_kinds``)."""
    outputs: list[Any] = []
    tensors = iter(results)
    for kind, value in kinds:
        if kind == "constant":
            outputs.append(value)
        elif kind == "tensor":
            outputs.append(next(tensors))
        else:
            outputs.append({"int": int, "float": float, "bool": bool}[kind](next(tensors).item()))
    return outputs


def _dynamic_shapes(prog: Any, input_names: Sequence[str]) -> DynamicShapes:
    """The symbolic input/output sizes of an exported program (user inputs
    and outputs only: parameters have static shapes)."""
    user_inputs = {
        spec.arg.name
        for spec in prog.graph_signature.input_specs
        if spec.kind.name == "USER_INPUT"
    }
    graph = prog.graph_module.graph
    input_sizes = [
        tuple(node.meta["val"].shape)
        for node in graph.nodes
        if node.op == "placeholder" and node.name in user_inputs
    ]
    output_node = next(n for n in graph.nodes if n.op == "output")
    output_sizes = [
        tuple(out.meta["val"].shape)
        for out, spec in zip(output_node.args[0], prog.graph_signature.output_specs)
        if spec.kind.name == "USER_OUTPUT"
    ]
    return DynamicShapes(
        input_sizes, output_sizes, dict(prog.range_constraints), input_names
    )


def compile(
    model: torch.nn.Module | torch.export.ExportedProgram,
    example_args: Sequence[Any],
    *,
    decompositions: str | dict | None = "auto",
    dynamic_shapes: Any = None,
    opt_level: int = 2,
    cache: bool = True,
) -> CompiledModule | SpecializedScalars:
    """Compiles `model` for the CPU: torch.export -> torch -> linalg -> LLVM.

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
            program, else, or when lowering fails, PyTorch's Core ATen
            table; ``"core-aten"``: always the table; ``"none"``: never; or
            a table (see :func:`torch2mlir.fx.export`). The table re-traces
            the program: skipping it saves about 40% of a cold compile.
        dynamic_shapes: forwarded to ``torch.export.export`` (e.g.
            ``({0: torch.export.Dim("batch", min=1, max=64)},)``); the
            compiled module then accepts any size in the declared ranges
            and raises InputError for sizes outside them.
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

    Returns:
        A :class:`CompiledModule` returning what the model returns (tensor,
        tuple, list or dict of tensors and Python scalars); with scalars
        compiled in, a :class:`~torch2mlir.compiler.scalars.SpecializedScalars`
        that calls one.

    Raises:
        CompileError: export, import, lowering or JIT failed; unsupported ops
            are named with the Python source line they come from.
        ValueError: an unknown ``decompositions`` name.
    """
    from ..fx import decompose, export

    if isinstance(decompositions, str) and decompositions not in (
        "auto",
        "core-aten",
        "none",
    ):
        raise ValueError(
            f"decompositions={decompositions!r}: expected 'auto', 'core-aten', "
            "'none' or a table"
        )
    exported = isinstance(model, torch.export.ExportedProgram)
    kinds = {} if exported else scalar_positions(example_args)
    if kinds:
        return _compile_with_scalars(
            model,
            example_args,
            kinds,
            decompositions=decompositions,
            dynamic_shapes=dynamic_shapes,
            opt_level=opt_level,
            cache=cache,
        )
    if exported and dynamic_shapes is not None:
        raise ValueError(
            "dynamic_shapes applies to torch.export: an ExportedProgram carries its own"
        )
    timings: dict[str, float] = {}
    start = time.perf_counter()
    # torch.export always runs: the program it makes is the cache key (a
    # key taken from the model object alone cannot see globals, private
    # attributes or closures that steer forward).
    raw = (
        model
        if exported
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
        options = f"{decompositions!r}|{opt_level}"
        key = _cache.program_key(raw, options)
    entry = _cache.load_program(key) if key else None
    timings["cache"] = time.perf_counter() - start
    if entry is not None:
        compiled = _from_program_entry(raw, entry, opt_level, timings)
        if compiled is not None:
            return compiled

    start = time.perf_counter()
    lowered = None
    if decompositions == "auto" and not exported and _defines_every_op(raw):
        # Core ATen decompositions re-trace the whole program (about 40% of
        # a cold compile of ResNet-18). When torch2mlir defines every op of
        # the exported program itself, it lowers them with its own
        # decompositions and falls back to PyTorch's table only if that fails.
        prog = raw
        try:
            lowered = _import_and_lower(prog, timings)
        except CompileError:
            start = time.perf_counter()
    if lowered is None:
        table = "core-aten" if decompositions == "auto" else decompositions
        prog = decompose(raw, table)
        timings["export"] += time.perf_counter() - start
        lowered = _import_and_lower(prog, timings)
    module, importer, names, inputs, outputs = lowered

    user_names = names[: len(names) - len(importer.parameters)]
    layouts = {
        user_names.index(name): strides
        for name, strides in importer.layout_inputs.items()
        if name in user_names
    }
    shapes = None
    if dynamic_shapes is not None or (exported and prog.range_constraints):
        shapes = _dynamic_shapes(prog, user_names)
    start = time.perf_counter()
    try:
        runner = RefBackendModule(
            module,
            "main",
            inputs,
            outputs,
            opt_level=opt_level,
            bound_inputs=importer.parameters,
            shapes=shapes,
            cache=cache,
        )
    except RuntimeError as error:
        raise CompileError(f"JIT compilation failed: {error}") from error
    timings["jit"] = time.perf_counter() - start
    out_spec = getattr(prog.call_spec, "out_spec", None)
    if key is not None:
        constants = {
            i: tensor
            for i, (tensor, (_, constant)) in enumerate(
                zip(importer.parameters, importer.parameter_sources)
            )
            if constant
        }
        _cache.store_program(
            key,
            {
                "object": runner.object_code,
                "inputs": inputs,
                "outputs": outputs,
                "parameters": [name for name, _ in importer.parameter_sources],
                "constants": constants,
                "out_spec": pytree.treespec_dumps(out_spec) if out_spec else None,
                "shapes": shapes,
                "mutated_arguments": importer.mutated_arguments,
                "layouts": layouts,
                "output_kinds": importer.output_kinds,
            },
        )
    compiled = CompiledModule(
        runner,
        out_spec,
        timings,
        importer.mutated_arguments,
        layouts,
        importer.output_kinds,
    )
    compiled.cache = "object" if runner.cache_hit else ("miss" if key else "off")
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
        None if specs is None else (tuple(None if i in kinds else s for i, s in enumerate(specs)),)
    )
    try:
        compiled = compile(
            ScalarsAsTensors(model, kinds),
            tensors,
            dynamic_shapes=wrapped_shapes,
            **options,
        )
    except CompileError as error:
        if not is_data_dependent_failure(error):
            raise
    else:
        compiled.scalar_inputs = dict(kinds)
        return compiled
    rest = [arg for i, arg in enumerate(example_args) if i not in kinds]
    rest_shapes = (
        None
        if specs is None
        else (tuple(s for i, s in enumerate(specs) if i not in kinds),)
    )

    def compile_for(values: dict[int, Any]) -> CompiledModule:
        return compile(
            FixedScalars(model, values), rest, dynamic_shapes=rest_shapes, **options
        )

    return SpecializedScalars(
        compile_for, kinds, {i: example_args[i] for i in kinds}
    )


def _defines_every_op(prog: torch.export.ExportedProgram) -> bool:
    """Whether every call in `prog` is a functional ATen op that the torch
    dialect defines (no mutation, no higher-order op, no op that would
    import as an opaque ``torch.operator``)."""
    from ..fx.importer import imported_op_name

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


def _import_and_lower(
    prog: torch.export.ExportedProgram, timings: dict[str, float]
) -> tuple[ir.Module, Any, list[str], list[TensorSpec], list[TensorSpec]]:
    """Imports `prog` (weights as arguments) and lowers it to the LLVM
    dialect; records ``import`` and ``lowering`` seconds in `timings`.

    Returns:
        (module, importer, argument names, input specs, output specs).

    Raises:
        CompileError: an op has no definition or lowering.
    """
    from ..fx.importer import FxImporter

    start = time.perf_counter()
    # Weights become arguments bound at call time: the generated code does
    # not embed them (fast JIT, one copy of the weights: the model's own).
    importer = FxImporter()
    module = importer.import_program(
        prog, "main", params_as_arguments=True, scalar_results_as_tensors=True
    )
    names = [
        spec.arg.name
        for spec in prog.graph_signature.input_specs
        if spec.kind.name == "USER_INPUT"
    ]
    names += [f"param{i}" for i in range(len(importer.parameters))]
    inputs, outputs = function_signature(module, "main", names)
    timings["import"] = time.perf_counter() - start

    start = time.perf_counter()
    lower_to_backend_contract(module)
    lower_to_linalg_on_tensors(module)
    lower_to_llvm(module)
    timings["lowering"] = time.perf_counter() - start
    return module, importer, names, inputs, outputs


def _from_program_entry(
    prog: torch.export.ExportedProgram,
    entry: dict[str, Any],
    opt_level: int,
    timings: dict[str, float],
) -> CompiledModule | None:
    """Rebuilds a compiled module from the cache entry of `prog`, binding
    its weights by name (the model's own tensors, as torch.export holds
    them); None when a weight is missing or differs in shape or dtype."""
    bound = []
    for index, name in enumerate(entry["parameters"]):
        # Parameters and buffers are the model's; lifted constants too when
        # the exported program has them, else a decomposition made them and
        # the entry keeps them.
        tensor = prog.state_dict.get(name)
        if tensor is None:
            tensor = prog.constants.get(name, entry["constants"].get(index))
        if not isinstance(tensor, torch.Tensor):
            return None
        bound.append(tensor)
    specs = entry["inputs"][len(entry["inputs"]) - len(bound) :]
    for tensor, spec in zip(bound, specs):
        if tuple(tensor.shape) != spec.shape or tensor.dtype != spec.dtype:
            return None
    start = time.perf_counter()
    runner = RefBackendModule(
        None,
        "main",
        entry["inputs"],
        entry["outputs"],
        opt_level=opt_level,
        bound_inputs=bound,
        shapes=entry["shapes"],
        object_code=entry["object"],
    )
    out_spec = entry["out_spec"]
    out_spec = pytree.treespec_loads(out_spec) if out_spec else None
    timings.update({"import": 0.0, "lowering": 0.0})
    timings["jit"] = time.perf_counter() - start
    compiled = CompiledModule(
        runner,
        out_spec,
        timings,
        entry["mutated_arguments"],
        entry["layouts"],
        entry["output_kinds"],
    )
    compiled.cache = "program"
    return compiled
