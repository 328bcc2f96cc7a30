"""The FX front end's :class:`~torch2mlir.program.Program`: an exported
program imported with its weights as arguments, and its signature read from
the graph's own metadata (``meta["val"]`` of the placeholders and outputs,
the graph signature, the range constraints)."""

from __future__ import annotations

from collections.abc import Collection

import torch
from torch.export import ExportedProgram

from ..program import ArgumentKind, Program, ResultKind, TensorSpec
from ..shapes import DynamicShapes
from .importer import FxImporter

__all__ = ["import_program"]

#: The dtype of the 0-d tensor that carries a scalar result.
_SCALAR_RESULT_DTYPES = {"int": torch.int64, "float": torch.float64, "bool": torch.bool}


def import_program(
    prog: ExportedProgram,
    *,
    scalar_inputs: Collection[int] = (),
    func_name: str = "main",
) -> Program:
    """Imports `prog` for a backend: parameters, buffers and constant
    tensors become trailing ``WEIGHT`` arguments (the generated code does not
    embed them: one copy of the weights, the model's own), scalar results
    0-d tensors, and buffer and input mutations trailing results.

    Args:
        prog: the exported program (decomposed as the caller wants).
        scalar_inputs: positions of the user inputs that carry Python
            scalars as 0-d tensors (see :mod:`torch2mlir.compiler.scalars`).
        func_name: the name of the imported function.

    Raises:
        CompileError: an op or value the importer cannot import, or an output
            size that no input size determines.
    """
    importer = FxImporter()
    module = importer.import_program(
        prog, func_name, params_as_arguments=True, scalar_results_as_tensors=True
    )
    weights = importer.parameters
    user_count = len(importer.argument_nodes) - len(weights)
    arguments = []
    for index, node in enumerate(importer.argument_nodes):
        if index >= user_count:
            name = importer.parameter_sources[index - user_count][0]
            kind = ArgumentKind.WEIGHT
        else:
            name = node.name
            kind = ArgumentKind.SCALAR if index in scalar_inputs else ArgumentKind.INPUT
        arguments.append(TensorSpec.of(name, node.meta["val"], kind))
    outputs = [kind for kind, _ in importer.output_kinds if kind != "constant"]
    results = []
    for index, node in enumerate(importer.result_nodes):
        name = f"result{index}"
        if index >= len(outputs):
            results.append(TensorSpec.of(name, node.meta["val"], ResultKind.MUTATION))
        elif outputs[index] == "tensor":
            results.append(TensorSpec.of(name, node.meta["val"], ResultKind.OUTPUT))
        else:
            dtype = _SCALAR_RESULT_DTYPES[outputs[index]]
            results.append(TensorSpec(name, (), dtype, ResultKind.SCALAR))
    user_names = [node.name for node in importer.argument_nodes[:user_count]]
    return Program(
        module=module,
        func_name=func_name,
        arguments=arguments,
        results=results,
        weights=list(weights),
        weight_names=[name for name, _ in importer.parameter_sources],
        mutated_arguments=list(importer.mutated_arguments),
        output_kinds=list(importer.output_kinds),
        layouts={
            user_names.index(name): strides
            for name, strides in importer.layout_inputs.items()
            if name in user_names
        },
        out_spec=getattr(prog.call_spec, "out_spec", None),
        shapes=_dynamic_shapes(importer, user_count, prog),
    )


def _dynamic_shapes(
    importer: FxImporter, user_count: int, prog: ExportedProgram
) -> DynamicShapes | None:
    """The symbolic sizes of the user inputs and of the results, or None
    when every size is static."""
    user_nodes = importer.argument_nodes[:user_count]
    input_sizes = [tuple(node.meta["val"].shape) for node in user_nodes]
    output_sizes = [
        tuple(node.meta["val"].shape)
        if isinstance(node.meta.get("val"), torch.Tensor)
        else ()
        for node in importer.result_nodes
    ]
    symbolic = any(
        not isinstance(size, int)
        for sizes in input_sizes + output_sizes
        for size in sizes
    )
    if not symbolic:
        return None
    shapes = DynamicShapes(
        input_sizes,
        output_sizes,
        dict(prog.range_constraints),
        [node.name for node in user_nodes],
    )
    return None if shapes.is_static else shapes
