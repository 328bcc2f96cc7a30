#!/usr/bin/env python3
"""Generate the ODS of the torch dialect's ATen ops from the PyTorch registry.

Reads the schema of each op in ``OPS`` from the installed ``torch`` (the
pinned version, see build_tools/requirements) and writes
``compiler/include/torch2mlir/Dialect/Torch/IR/GeneratedTorchOps.td``.

Operand and result types follow the schema's argument types; traits follow
the schema's alias annotations: an op that writes none of its arguments is
``HasValueSemantics`` and ``ReadOnly``, and ``AllowsTypeRefinement`` (its
result types may be refined by shape/dtype inference); it is also
``NoMemoryEffect`` unless PyTorch tags it ``nondeterministic_seeded`` (a
random op: each execution must draw new numbers, so it is never CSE'd).

Usage:
    python build_tools/torch_ods_gen.py            # write the .td
    python build_tools/torch_ods_gen.py --check    # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "compiler/include/torch2mlir/Dialect/Torch/IR/GeneratedTorchOps.td"

# (qualified name, overload) of every op that gets an ODS definition. Ops
# that are not listed still import, as `torch.operator`.
OPS: list[tuple[str, str]] = [
    # Matmul family.
    ("aten::mm", ""),
    ("aten::addmm", ""),
    ("aten::bmm", ""),
    ("aten::linear", ""),
    ("aten::matmul", ""),
    # Shapes and data movement.
    ("aten::t", ""),
    ("aten::transpose", "int"),
    ("aten::permute", ""),
    ("aten::view", ""),
    ("aten::view", "dtype"),
    ("aten::_unsafe_view", ""),
    ("aten::reshape", ""),
    ("aten::flatten", "using_ints"),
    ("aten::unsqueeze", ""),
    ("aten::squeeze", ""),
    ("aten::squeeze", "dim"),
    ("aten::squeeze", "dims"),
    ("aten::expand", ""),
    ("aten::cat", ""),
    ("aten::clone", ""),
    ("aten::contiguous", ""),
    ("aten::detach", ""),
    ("aten::alias", ""),
    ("aten::dropout", ""),
    ("aten::_to_copy", ""),
    ("aten::to", "dtype"),
    ("aten::constant_pad_nd", ""),
    ("aten::slice", "Tensor"),
    ("aten::select", "int"),
    ("aten::index_select", ""),
    ("aten::index", "Tensor"),
    ("aten::gather", ""),
    ("aten::embedding", ""),
    # Indexing, scatter, sorting and data movement (see Scatter.cpp, Sort.cpp).
    ("aten::index_put", ""),
    ("aten::scatter", "src"),
    ("aten::scatter", "value"),
    ("aten::scatter_add", ""),
    ("aten::scatter_reduce", "two"),
    ("aten::select_scatter", ""),
    ("aten::slice_scatter", ""),
    ("aten::masked_scatter", ""),
    ("aten::sort", ""),
    ("aten::sort", "stable"),
    ("aten::topk", ""),
    ("aten::flip", ""),
    ("aten::repeat", ""),
    ("aten::diagonal", ""),
    ("aten::as_strided", ""),
    ("aten::split_with_sizes", ""),
    ("aten::copy", ""),
    ("aten::fill", "Scalar"),
    ("aten::empty", "memory_format"),
    ("aten::empty_strided", ""),
    ("aten::nonzero", ""),
    ("aten::scatter", "reduce"),
    ("aten::scatter", "value_reduce"),
    ("aten::diagonal_scatter", ""),
    ("aten::as_strided_scatter", ""),
    ("aten::new_empty", ""),
    ("aten::new_empty_strided", ""),
    ("aten::empty_permuted", ""),
    ("aten::where", "self"),
    ("aten::where", "ScalarOther"),
    ("aten::where", "ScalarSelf"),
    ("aten::full", ""),
    # Random factories (counter-based in the RefBackend; see Random.cpp).
    ("aten::rand", ""),
    ("aten::randn", ""),
    ("aten::randperm", ""),
    ("aten::native_dropout", ""),
    ("aten::full_like", ""),
    ("aten::zeros", ""),
    ("aten::ones", ""),
    ("aten::scalar_tensor", ""),
    # A 0-d (one-element) tensor as a Python scalar: scalar inputs arrive
    # as 0-d tensors and `.item()` (see torch2mlir.compile).
    ("aten::item", ""),
    ("aten::arange", ""),
    ("aten::arange", "start"),
    ("aten::arange", "start_step"),
    # Elementwise.
    ("aten::add", "Tensor"),
    ("aten::add", "Scalar"),
    ("aten::sub", "Tensor"),
    ("aten::sub", "Scalar"),
    ("aten::rsub", "Scalar"),
    ("aten::mul", "Tensor"),
    ("aten::mul", "Scalar"),
    ("aten::div", "Tensor"),
    ("aten::div", "Scalar"),
    ("aten::relu", ""),
    ("aten::neg", ""),
    ("aten::exp", ""),
    ("aten::log", ""),
    ("aten::sqrt", ""),
    ("aten::rsqrt", ""),
    ("aten::abs", ""),
    # Complex numbers (complex64/complex128, see TorchToLinalg/Complex.cpp):
    # the views between a complex tensor and its [..., 2] real pairs, the
    # assembly from real and imaginary parts, and conjugation.
    ("aten::view_as_real", ""),
    ("aten::view_as_complex", ""),
    ("aten::complex", ""),
    ("aten::_conj", ""),
    ("aten::conj_physical", ""),
    ("aten::erf", ""),
    # Orthogonal polynomials of a per-element degree n: a loop per element
    # (TorchToLinalg); the shifted Chebyshev ones decompose into these.
    ("aten::special_chebyshev_polynomial_t", ""),
    ("aten::special_chebyshev_polynomial_u", ""),
    ("aten::special_chebyshev_polynomial_v", ""),
    ("aten::special_chebyshev_polynomial_w", ""),
    ("aten::special_hermite_polynomial_h", ""),
    ("aten::special_hermite_polynomial_he", ""),
    ("aten::special_laguerre_polynomial_l", ""),
    ("aten::special_legendre_polynomial_p", ""),
    ("aten::tanh", ""),
    ("aten::sigmoid", ""),
    ("aten::silu", ""),
    ("aten::hardsigmoid", ""),
    ("aten::hardswish", ""),
    ("aten::reciprocal", ""),
    ("aten::gelu", ""),
    ("aten::div", "Tensor_mode"),
    ("aten::pow", "Tensor_Scalar"),
    ("aten::pow", "Tensor_Tensor"),
    ("aten::maximum", ""),
    ("aten::minimum", ""),
    ("aten::max", "other"),
    ("aten::min", "other"),
    ("aten::clamp", ""),
    ("aten::clamp", "Tensor"),
    ("aten::leaky_relu", ""),
    ("aten::floor", ""),
    ("aten::ceil", ""),
    ("aten::sin", ""),
    ("aten::cos", ""),
    ("aten::asin", ""),
    ("aten::acos", ""),
    ("aten::atan", ""),
    ("aten::log1p", ""),
    ("aten::sign", ""),
    ("aten::tan", ""),
    ("aten::sinh", ""),
    ("aten::cosh", ""),
    ("aten::asinh", ""),
    ("aten::acosh", ""),
    ("aten::atanh", ""),
    ("aten::atan2", ""),
    ("aten::expm1", ""),
    ("aten::log2", ""),
    ("aten::log10", ""),
    ("aten::round", ""),
    ("aten::round", "decimals"),
    ("aten::trunc", ""),
    ("aten::isnan", ""),
    ("aten::isinf", ""),
    ("aten::fmod", "Tensor"),
    ("aten::fmod", "Scalar"),
    ("aten::remainder", "Tensor"),
    ("aten::remainder", "Scalar"),
    ("aten::elu", ""),
    ("aten::hardtanh", ""),
    ("aten::pow", "Scalar"),
    ("aten::div", "Scalar_mode"),
    ("aten::eq", "Tensor"),
    ("aten::ne", "Tensor"),
    ("aten::lt", "Tensor"),
    ("aten::le", "Tensor"),
    ("aten::gt", "Tensor"),
    ("aten::ge", "Tensor"),
    ("aten::eq", "Scalar"),
    ("aten::ne", "Scalar"),
    ("aten::lt", "Scalar"),
    ("aten::le", "Scalar"),
    ("aten::gt", "Scalar"),
    ("aten::ge", "Scalar"),
    ("aten::logical_not", ""),
    ("aten::logical_and", ""),
    ("aten::logical_or", ""),
    ("aten::logical_xor", ""),
    ("aten::bitwise_not", ""),
    ("aten::bitwise_and", "Tensor"),
    ("aten::bitwise_or", "Tensor"),
    ("aten::bitwise_xor", "Tensor"),
    ("aten::bitwise_left_shift", "Tensor"),
    ("aten::bitwise_right_shift", "Tensor"),
    ("aten::bitwise_and", "Scalar"),
    ("aten::bitwise_or", "Scalar"),
    ("aten::bitwise_xor", "Scalar"),
    # Convolution and normalization.
    ("aten::convolution", ""),
    ("aten::conv2d", ""),
    ("aten::conv2d", "padding"),
    ("aten::batch_norm", ""),
    ("aten::_native_batch_norm_legit_no_training", ""),
    ("aten::layer_norm", ""),
    ("aten::native_layer_norm", ""),
    # Pooling.
    ("aten::max_pool2d", ""),
    ("aten::max_pool2d_with_indices", ""),
    ("aten::avg_pool2d", ""),
    ("aten::adaptive_avg_pool2d", ""),
    ("aten::_adaptive_avg_pool2d", ""),
    # Neural-network ops (NN.cpp): padding, pooling, normalization,
    # resampling, bags and distances.
    ("aten::reflection_pad1d", ""),
    ("aten::reflection_pad2d", ""),
    ("aten::reflection_pad3d", ""),
    ("aten::replication_pad1d", ""),
    ("aten::replication_pad2d", ""),
    ("aten::replication_pad3d", ""),
    ("aten::avg_pool1d", ""),
    ("aten::avg_pool3d", ""),
    ("aten::adaptive_avg_pool1d", ""),
    ("aten::_adaptive_avg_pool3d", ""),
    ("aten::max_pool3d_with_indices", ""),
    ("aten::native_group_norm", ""),
    ("aten::_native_batch_norm_legit", "no_stats"),
    ("aten::_native_batch_norm_legit_functional", ""),
    ("aten::upsample_nearest2d", "vec"),
    ("aten::upsample_bilinear2d", "vec"),
    ("aten::grid_sampler_2d", ""),
    ("aten::_embedding_bag", ""),
    ("aten::_embedding_bag_forward_only", ""),
    ("aten::col2im", ""),
    ("aten::_cdist_forward", ""),
    ("aten::_pdist_forward", ""),
    # Reductions and softmax.
    ("aten::mean", "dim"),
    ("aten::mean", ""),
    ("aten::sum", "dim_IntList"),
    ("aten::sum", ""),
    ("aten::amax", ""),
    ("aten::amin", ""),
    ("aten::prod", "dim_int"),
    ("aten::prod", ""),
    ("aten::max", "dim"),
    ("aten::min", "dim"),
    ("aten::max", ""),
    ("aten::min", ""),
    ("aten::var", "correction"),
    ("aten::var", "dim"),
    ("aten::argmax", ""),
    ("aten::argmin", ""),
    ("aten::cumsum", ""),
    ("aten::any", ""),
    ("aten::any", "dim"),
    ("aten::any", "dims"),
    ("aten::softmax", "int"),
    ("aten::_softmax", ""),
    ("aten::log_softmax", "int"),
    ("aten::_log_softmax", ""),
    # Attention: decomposed (DecomposeComplexOps) into matmul, softmax and
    # the mask; PyTorch's own decomposition fails on GPT-2's (torch 2.13).
    ("aten::scaled_dot_product_attention", ""),
    # Scalars (Python int/float arithmetic on shapes).
    ("aten::add", "int"),
    ("aten::sub", "int"),
    ("aten::mul", "int"),
    ("aten::floordiv", "int"),
    ("aten::neg", "int"),
    ("aten::eq", "int"),
    ("aten::lt", "int"),
    ("aten::gt", "int"),
    ("aten::add", "float"),
    ("aten::sub", "float"),
    ("aten::mul", "float"),
    ("aten::div", "float"),
    ("aten::size", "int"),
    ("aten::dim", ""),
    # Integer contractions (int8 x int8 -> int32), the kernels quantized
    # programs run on (torch2mlir/fx/quantization.py): PyTorch's matmul and
    # torch2mlir's own 2-D convolution (torch2mlir/fx/quantized_ops.py).
    ("aten::_int_mm", ""),
    ("torch2mlir::int_conv2d", ""),
]

# Schema type (as printed by torch) -> ODS type constraint.
_TYPES = {
    "Tensor": "AnyTorchTensorType",
    "Tensor?": "AnyTorchOptionalTensorType",
    "Tensor[]": "AnyTorchListOfTensorType",
    "Tensor?[]": "AnyTorchListOfOptionalTensorType",
    "int": "Torch_IntType",
    "int?": "AnyTorchOptionalIntType",
    "int[]": "AnyTorchListOfTorchIntType",
    "int[]?": "AnyTorchOptionalListOfTorchIntType",
    "float": "Torch_FloatType",
    "float?": "AnyTorchOptionalFloatType",
    "float[]": "AnyTorchListOfTorchFloatType",
    "float[]?": "AnyTorchOptionalListOfTorchFloatType",
    "bool": "Torch_BoolType",
    "bool?": "AnyTorchOptionalBoolType",
    "bool[]": "AnyTorchListOfTorchBoolType",
    "Scalar": "AnyTorchScalarType",
    "Scalar?": "AnyTorchOptionalScalarType",
    "Scalar[]": "AnyTorchListOfScalarType",
    "str": "Torch_StringType",
    "str?": "AnyTorchOptionalStringType",
    "Device": "Torch_DeviceType",
    "Device?": "AnyTorchOptionalDeviceType",
    "Generator?": "AnyTorchOptionalGeneratorType",
}


def _schema_type(jit_type) -> str:
    """Spells a JIT type the way schemas do (SymInt -> int, ScalarType -> int)."""
    kind = jit_type.kind()
    if kind == "OptionalType":
        return _schema_type(jit_type.getElementType()) + "?"
    if kind == "ListType":
        return _schema_type(jit_type.getElementType()) + "[]"
    return {
        "TensorType": "Tensor",
        "IntType": "int",
        "SymIntType": "int",
        "FloatType": "float",
        "BoolType": "bool",
        "NumberType": "Scalar",
        "StringType": "str",
        "DeviceObjType": "Device",
        "GeneratorType": "Generator",
    }.get(kind, kind)


def _ods_type(jit_type, where: str) -> str:
    spelled = _schema_type(jit_type)
    try:
        return _TYPES[spelled]
    except KeyError:
        raise SystemExit(
            f"torch_ods_gen: no ODS type for schema type '{spelled}' ({where})"
        )


def _cpp_class(name: str, overload: str) -> str:
    """aten::add + Tensor -> Torch_AtenAddTensorOp (keeps '_' of in-place ops)."""
    ns, op = name.split("::")
    # quantized_decomposed -> QuantizedDecomposed.
    ns = "".join(piece.capitalize() for piece in ns.split("_"))
    parts = [ns]
    for piece in op.split("_"):
        parts.append(piece[:1].upper() + piece[1:] if piece else "_")
    camel = "".join(parts)
    if op.startswith("_"):
        camel = ns + "_" + camel[len(ns) :].lstrip("_")
    ov = "".join(p[:1].upper() + p[1:] for p in overload.split("_")) if overload else ""
    return f"Torch_{camel}{ov}Op"


_RESERVED = {"operator", "default", "new", "delete", "register", "type", "class"}


def _is_random(name: str, overload: str) -> bool:
    """Whether PyTorch tags the op ``nondeterministic_seeded`` (draws numbers
    from the generator)."""
    import torch

    namespace, op = name.split("::")
    packet = getattr(getattr(torch.ops, namespace), op)
    return (
        torch.Tag.nondeterministic_seeded in getattr(packet, overload or "default").tags
    )


def _operand_name(name: str) -> str:
    return name + "_" if name in _RESERVED else name


def _register_torch2mlir_ops() -> None:
    """Registers torch2mlir's own op schemas (``torch2mlir::*``) from their
    module, loaded by path: it needs only torch, not the built package."""
    import importlib.util

    path = REPO / "python_packages/torch2mlir/fx/quantized_ops.py"
    spec = importlib.util.spec_from_file_location("_torch2mlir_quantized_ops", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


def generate(torch) -> str:
    out = [
        "//===- GeneratedTorchOps.td - ATen ops ---------------------*- tablegen -*-===//",
        "//",
        "// GENERATED by build_tools/torch_ods_gen.py from torch "
        + torch.__version__.split("+")[0]
        + ".",
        "// Do not edit: run `nox -s update-ods`.",
        "//",
        "//===----------------------------------------------------------------------===//",
        "",
    ]
    for name, overload in OPS:
        schema = torch._C._get_schema(name, overload)
        mnemonic = name.replace("::", ".") + (f".{overload}" if overload else "")
        cpp = _cpp_class(name, overload)
        writes = any(
            a.alias_info is not None and a.alias_info.is_write for a in schema.arguments
        )
        traits = (
            []
            if writes
            else [
                "AllowsTypeRefinement",
                "HasValueSemantics",
                "ReadOnly",
                "NoMemoryEffect",
            ]
        )
        if not writes and _is_random(name, overload):
            # Each execution draws new numbers: two calls must not be merged
            # (CSE) and the op is not pure, so no NoMemoryEffect.
            traits.remove("NoMemoryEffect")
        operands = []
        for arg in schema.arguments:
            operands.append(
                f"{_ods_type(arg.type, mnemonic + ' ' + arg.name)}:${_operand_name(arg.name)}"
            )
        results = []
        for i, ret in enumerate(schema.returns):
            rname = ret.name or ("result" if len(schema.returns) == 1 else f"result{i}")
            results.append(f"{_ods_type(ret.type, mnemonic + ' return')}:${rname}")
        n_in, n_out = len(operands), len(results)
        out.append(f'def {cpp} : Torch_Op<"{mnemonic}", [{", ".join(traits)}]> {{')
        summary = str(schema).replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'  let summary = "Generated op for `{summary}`";')
        out.append(
            "  let arguments = (ins"
            + ("\n    " + ",\n    ".join(operands) if operands else "")
            + "\n  );"
        )
        out.append(
            "  let results = (outs"
            + ("\n    " + ",\n    ".join(results) if results else "")
            + "\n  );"
        )
        out.append("  let hasCustomAssemblyFormat = 1;")
        out.append("  let extraClassDefinition = [{")
        out.append(
            "    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser, ::mlir::OperationState &result) {"
        )
        out.append(
            f"      return parseDefaultTorchOp(parser, result, {n_in}, {n_out});"
        )
        out.append("    }")
        out.append("    void $cppClass::print(::mlir::OpAsmPrinter &printer) {")
        out.append(f"      printDefaultTorchOp(printer, *this, {n_in}, {n_out});")
        out.append("    }")
        out.append("  }];")
        out.append("}")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="fail if the checked-in .td differs from what this torch generates",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=OUTPUT,
        help="where to write the .td (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    import torch

    _register_torch2mlir_ops()

    text = generate(torch)
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            sys.stdout.writelines(
                difflib.unified_diff(
                    current.splitlines(True),
                    text.splitlines(True),
                    str(args.output),
                    "generated",
                )
            )
            print(
                f"\n{args.output} is stale: run `nox -s update-ods`.", file=sys.stderr
            )
            return 1
        return 0
    args.output.write_text(text)
    print(f"wrote {args.output.relative_to(REPO)} ({len(OPS)} ops)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
