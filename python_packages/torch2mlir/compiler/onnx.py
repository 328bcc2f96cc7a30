"""Compiling ONNX models for the CPU: ONNX -> torch -> linalg -> LLVM.

The ONNX counterpart of :func:`torch2mlir.compile`: the model is imported by
:mod:`torch2mlir.onnx`, its ``onnx.*`` ops get their meaning in the torch
dialect (``torch-onnx-to-torch-backend-pipeline``), and the backend-contract
IR takes the same route as a PyTorch program.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np
import onnx
import torch

from .. import ir
from ..errors import CompileError, InputError
from ..onnx import ONNX_DTYPE_TO_MLIR, OnnxImporter, load_model, prepare_model
from ..onnx.strings import StringStages, split_string_stages, touches_strings
from ..program import (
    MLIR_TO_TORCH_DTYPE,
    ArgumentKind,
    Program,
    ResultKind,
    TensorSpec,
)
from ..runtime.refbackend import RefBackendModule
from .backends import get_backend
from .pipelines import run_pipeline

__all__ = [
    "ONNX_PIPELINE",
    "CompiledOnnxModel",
    "compile_onnx",
    "import_onnx_program",
    "lower_onnx",
]

ONNX_PIPELINE = "torch-onnx-to-torch-backend-pipeline"

# Literals of at least this many elements become bound arguments (weights);
# smaller ones stay constants that LLVM can fold.
_MIN_HOISTED_ELEMENTS = 256

#: The dtypes of literals that become weights (numpy holds them as they
#: are; f16/bf16/bool literals stay literals).
_HOISTED_DTYPES = {
    spelling: MLIR_TO_TORCH_DTYPE[spelling]
    for spelling in ("f32", "f64", "si8", "si16", "si32", "si64")
    + ("ui8", "ui16", "ui32", "ui64")
}


def lower_onnx(module: ir.Module) -> None:
    """Imported ONNX -> backend contract (in place).

    Raises:
        CompileError: an ONNX op has no lowering at the model's opset or an
            attribute value is unsupported; the message names the op, the
            opset, the ONNX node and the reason.
    """
    run_pipeline(module, ONNX_PIPELINE, "lowering ONNX to the torch backend contract")


def _entry_function(module: ir.Module) -> Any:
    functions = [
        op for op in module.body.operations if op.operation.name == "func.func"
    ]
    if len(functions) != 1:
        raise CompileError(
            f"expected one function in the module, found {len(functions)}"
        )
    return functions[0]


def hoist_literals(
    func: Any, min_elements: int = _MIN_HOISTED_ELEMENTS
) -> list[torch.Tensor]:
    """Turns the large ``torch.vtensor.literal`` ops at the top of `func`
    into trailing function arguments.

    The generated code then does not embed the weights (fast codegen, one
    copy in memory): the caller binds the returned tensors, in order, after
    its own arguments.

    Returns:
        The literal values as CPU tensors (dtypes float32/64, int8-64, uint8-64;
        other literals stay in place).
    """
    block = func.regions[0].blocks[0]
    hoisted: list[torch.Tensor] = []
    with func.context, ir.Location.unknown():
        for op in list(block.operations):
            if op.operation.name != "torch.vtensor.literal":
                continue
            result_type = op.result.type
            spelling = str(result_type)
            dtype = _HOISTED_DTYPES.get(spelling.rsplit(",", 1)[-1].rstrip(">"))
            attr = op.attributes["value"]
            if dtype is None or not isinstance(attr, ir.DenseElementsAttr):
                continue
            if len(attr) < min_elements or attr.is_splat:
                continue
            array = np.array(attr, copy=True)
            tensor = torch.from_numpy(array).view(dtype).reshape(array.shape)
            argument = block.add_argument(result_type, ir.Location.unknown())
            op.result.replace_all_uses_with(argument)
            op.operation.erase()
            hoisted.append(tensor)
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        inputs = [arg.type for arg in block.arguments]
        func.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(inputs, list(ftype.results))
        )
    return hoisted


def _to_tensor(value: Any, what: str) -> torch.Tensor:
    """A numpy array or scalar as a CPU tensor (sharing its memory when it
    is C-contiguous); bfloat16 arrays (``ml_dtypes.bfloat16``, as onnx
    makes them) through their bits; tensors as they are.

    Raises:
        InputError: not an array or tensor, or a numpy dtype with no torch
            counterpart (object, string, structured).
    """
    if isinstance(value, torch.Tensor):
        return value
    if not isinstance(value, (np.ndarray, np.generic)):
        raise InputError(
            f"{what}: expected a numpy array (or a CPU tensor), got a "
            f"{type(value).__name__}; pass np.asarray(value, dtype=...)"
        )
    array = np.asarray(value)
    if not array.flags.c_contiguous:
        array = array.copy(order="C")
    if array.dtype.name == "bfloat16":
        return torch.from_numpy(array.view(np.uint16)).view(torch.bfloat16)
    if array.dtype.name in _ML_DTYPES:
        return torch.from_numpy(array.view(np.uint8)).view(_ML_DTYPES[array.dtype.name])
    try:
        return torch.from_numpy(array)
    except TypeError:
        raise InputError(
            f"{what}: numpy dtype {array.dtype} has no tensor counterpart; the "
            "model takes numeric or bool arrays"
        ) from None


#: ml_dtypes' one-byte storage dtypes (onnx's numpy arrays of FLOAT8*,
#: INT4, UINT4, INT2, UINT2) -> the torch dtype with the same bytes.
_ML_DTYPES: dict[str, torch.dtype] = {
    "float8_e4m3fn": torch.float8_e4m3fn,
    "float8_e5m2": torch.float8_e5m2,
    "float8_e4m3fnuz": torch.float8_e4m3fnuz,
    "float8_e5m2fnuz": torch.float8_e5m2fnuz,
    "float8_e8m0fnu": torch.float8_e8m0fnu,
    "int4": torch.int4,  # type: ignore[attr-defined]
    "uint4": torch.uint4,  # type: ignore[attr-defined]
    "int2": torch.int2,  # type: ignore[attr-defined]
    "uint2": torch.uint2,  # type: ignore[attr-defined]
}


def _to_numpy(tensor: torch.Tensor) -> np.ndarray:
    """A result tensor as numpy; bfloat16, float8 and the 4- and 2-bit
    integers as their ``ml_dtypes`` dtype (the low bits of each byte)."""
    if tensor.dtype == torch.bfloat16:
        import ml_dtypes  # noqa: PLC0415 - optional, comes with onnx

        return tensor.view(torch.uint16).numpy().view(ml_dtypes.bfloat16)
    name = str(tensor.dtype).removeprefix("torch.")
    if name in _ML_DTYPES:
        import ml_dtypes  # noqa: PLC0415 - optional, comes with onnx

        return tensor.view(torch.uint8).numpy().view(getattr(ml_dtypes, name))
    return tensor.numpy()


class CompiledOnnxModel:
    """An ONNX model compiled for the CPU; call it with the graph's inputs.

    Attributes:
        input_names, output_names: the graph's input and output names.
        inputs, outputs: the compiled signature (TensorSpec per tensor).
        timings: seconds per phase: ``import``, ``lowering``, ``jit``.
    """

    def __init__(
        self,
        runner: RefBackendModule,
        input_names: list[str],
        output_names: list[str],
        timings: dict[str, float],
    ) -> None:
        self._runner = runner
        self.input_names = input_names
        self.output_names = output_names
        self.inputs = runner.inputs
        self.outputs = runner.outputs
        self.timings = timings

    def __call__(self, *inputs: Any) -> list[np.ndarray]:
        """Runs the model on numpy arrays (or CPU tensors), positional in the
        order of the graph's inputs; returns the outputs as numpy arrays, in
        the order of the graph's outputs (as ``onnxruntime`` ``run`` does).

        Raises:
            InputError: an input does not match the graph's type and shape.
        """
        tensors = [
            _to_tensor(
                x,
                f"input {i}"
                + (f" ({self.input_names[i]})" if i < len(self.input_names) else ""),
            )
            for i, x in enumerate(inputs)
        ]
        return [_to_numpy(result) for result in self._runner(*tensors)]

    def run(self, feeds: dict[str, Any]) -> list[np.ndarray]:
        """Like ``__call__``, with the inputs given by name."""
        missing = [name for name in self.input_names if name not in feeds]
        if missing:
            raise InputError(f"missing inputs: {', '.join(missing)}")
        return self(*(feeds[name] for name in self.input_names))


def _read_graph_only(path: Any) -> onnx.ModelProto | None:
    """The model file without its external data, or None if it does not
    parse (the full import then reports why)."""
    try:
        return onnx.load(os.fspath(path), load_external_data=False)
    except Exception:  # noqa: BLE001 - reported by the import itself
        return None


class HostStagedOnnxModel(CompiledOnnxModel):
    """An ONNX model with string tensors: its string nodes run on the host
    (:mod:`torch2mlir.onnx.strings`) before and after the compiled numeric
    part. Called like :class:`CompiledOnnxModel`; string inputs and outputs
    are numpy object arrays of ``str``.

    Attributes:
        compiled: the compiled numeric part (None if the model has none).
        stages: the host nodes and where the values cross.
    """

    def __init__(
        self,
        stages: StringStages,
        compiled: CompiledOnnxModel | None,
        timings: dict[str, float],
    ) -> None:
        self.stages = stages
        self.compiled = compiled
        self.input_names = stages.inputs
        self.output_names = stages.outputs
        self.inputs = compiled.inputs if compiled else []
        self.outputs = compiled.outputs if compiled else []
        self.timings = timings

    def __call__(self, *inputs: Any) -> list[np.ndarray]:
        """Runs the prologue, the compiled part and the epilogue.

        Raises:
            InputError: wrong input count, or an input the compiled part or
                a host op rejects.
        """
        if len(inputs) != len(self.input_names):
            raise InputError(
                f"expected {len(self.input_names)} inputs "
                f"({', '.join(self.input_names)}), got {len(inputs)}"
            )
        values: dict[str, Any] = dict(self.stages.constants)
        values.update(
            {name: np.asarray(x) for name, x in zip(self.input_names, inputs)}
        )
        self.stages.run_host(self.stages.prologue, values)
        if self.compiled is not None:
            results = self.compiled(
                *(values[name] for name in self.compiled.input_names)
            )
            values.update(zip(self.compiled.output_names, results))
        self.stages.run_host(self.stages.epilogue, values)
        return [values[name] for name in self.output_names]


def compile_onnx(
    model: Any,
    *,
    opset_version: int | None = None,
    data_dir: str | os.PathLike | None = None,
    opt_level: int = 2,
    freeze: bool = False,
) -> CompiledOnnxModel:
    """Compiles an ONNX model for the CPU: ONNX -> torch -> linalg -> LLVM.

    Args:
        model: an ``onnx.ModelProto`` or the path of a ``.onnx`` file
            (external data is read from its directory or `data_dir`).
        opset_version: convert the model to this default-domain opset first
            (``onnx.version_converter``), e.g. to reach an opset whose ops
            have lowerings.
        data_dir: where external-data files are, if not next to the model.
        opt_level: LLVM optimization level of the JIT (0-3).
        freeze: take the hoisted initializers (the weight arguments) as
            constants, as ``torch2mlir.compile(..., freeze=True)`` does: a
            MatMul or Gemm whose B is one runs MKL's packed GEMM (packed once
            per row count of A). The initializers belong to the compiled
            model (nothing outside it can change them), so this only costs
            memory: the packed copies, about 8 MB per matrix plus twice its
            own, freed with the model. Default False.

    Returns:
        A :class:`CompiledOnnxModel`; inputs must have the graph's static
        shapes and dtypes. A model with string tensors gives a
        :class:`HostStagedOnnxModel`: its string nodes run on the host
        before and after the compiled part (:mod:`torch2mlir.onnx.strings`).

    Raises:
        InputError: the file is not a valid ONNX model, external data is
            missing, or it uses an unsupported type (see
            :func:`torch2mlir.onnx.import_onnx`).
        CompileError: an op cannot be lowered (the message names the op,
            the opset and the ONNX node) or code generation failed.
    """
    timings: dict[str, float] = {}
    # The graph without its external data tells whether strings appear.
    graph_only = (
        model if isinstance(model, onnx.ModelProto) else _read_graph_only(model)
    )
    if graph_only is not None and touches_strings(graph_only):
        if not isinstance(model, onnx.ModelProto):
            model = load_model(model, data_dir)
        # String tensors run on the host around the compiled part.
        start = time.perf_counter()
        stages = split_string_stages(
            prepare_model(model, opset_version=opset_version, data_dir=data_dir)
        )
        timings["import"] = time.perf_counter() - start
        compiled = (
            compile_onnx(stages.compiled, opt_level=opt_level, freeze=freeze)
            if stages.compiled is not None
            else None
        )
        if compiled is not None:
            for phase, seconds in compiled.timings.items():
                timings[phase] = timings.get(phase, 0.0) + seconds
        return HostStagedOnnxModel(stages, compiled, timings)
    program = import_onnx_program(
        model, opset_version=opset_version, data_dir=data_dir, timings=timings
    )
    backend = get_backend("linalg-on-tensors")
    start = time.perf_counter()
    backend.lower(program.module)
    program.adopt_value_ranges()
    timings["lowering"] += time.perf_counter() - start
    start = time.perf_counter()
    runner = backend.load(program, opt_level=opt_level, freeze=freeze)
    timings["jit"] = time.perf_counter() - start
    inputs = [spec.name for spec in program.inputs]
    outputs = [spec.name for spec in program.results]
    return CompiledOnnxModel(runner, inputs, outputs, timings)


def import_onnx_program(
    model: Any,
    *,
    opset_version: int | None = None,
    data_dir: str | os.PathLike | None = None,
    min_weight_elements: int = _MIN_HOISTED_ELEMENTS,
    timings: dict[str, float] | None = None,
) -> Program:
    """The ONNX front end: `model` prepared (:func:`torch2mlir.onnx.prepare_model`,
    the preparation ``torch2mlir-import-onnx`` makes too), imported, its
    ``onnx.*`` ops lowered to the backend contract, and its large
    initializers made ``WEIGHT`` arguments (:func:`hoist_literals`), as a
    :class:`~torch2mlir.program.Program` whose signature comes from the
    graph's value infos.

    Args:
        model, opset_version, data_dir: see :func:`compile_onnx`.
        min_weight_elements: initializers of at least this many elements
            become weight arguments; smaller ones stay literals.
        timings: where to record ``import`` and ``lowering`` seconds.

    Raises:
        InputError, CompileError: see :func:`compile_onnx`; a graph input or
            output whose dtype or rank shape inference cannot tell is a
            CompileError.
    """
    timings = timings if timings is not None else {}
    start = time.perf_counter()
    prepared = prepare_model(model, opset_version=opset_version, data_dir=data_dir)
    module = OnnxImporter(prepared).import_model()
    graph = prepared.graph
    initializers = {t.name for t in graph.initializer}
    inputs = [
        _spec(info, ArgumentKind.INPUT)
        for info in graph.input
        if info.name not in initializers
    ]
    outputs = [_spec(info, ResultKind.OUTPUT) for info in graph.output]
    timings["import"] = time.perf_counter() - start

    start = time.perf_counter()
    lower_onnx(module)
    func = _entry_function(module)
    weights = hoist_literals(func, min_weight_elements)
    weight_names = [f"weight{i}" for i in range(len(weights))]
    timings["lowering"] = time.perf_counter() - start
    return Program(
        module=module,
        func_name=ir.StringAttr(func.attributes["sym_name"]).value,
        arguments=inputs
        + [
            TensorSpec.of(name, tensor, ArgumentKind.WEIGHT)
            for name, tensor in zip(weight_names, weights)
        ],
        results=outputs,
        weights=weights,
        weight_names=weight_names,
        output_kinds=[("tensor", None)] * len(outputs),
    )


def _spec(info: Any, kind: ArgumentKind | ResultKind) -> TensorSpec:
    """The spec of a graph input or output, from its (inferred) type.

    Raises:
        CompileError: a dtype or rank shape inference could not tell.
    """
    tensor = info.type.tensor_type
    dtype = MLIR_TO_TORCH_DTYPE.get(ONNX_DTYPE_TO_MLIR.get(tensor.elem_type, ""))
    if dtype is None or not tensor.HasField("shape"):
        raise CompileError(
            f"graph {'input' if kind is ArgumentKind.INPUT else 'output'} "
            f"{info.name!r}: its dtype and rank must be known to compile it "
            "(give it a type in the model, or a value_info)"
        )
    shape = tuple(
        d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else None
        for d in tensor.shape.dim
    )
    return TensorSpec(info.name, shape, dtype, kind)
