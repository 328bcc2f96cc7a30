"""ONNX model mutation fuzzing of ``torch2mlir.compile_onnx``.

Each case takes one of ONNX's own node test models (the conformance suite's,
see ``test/e2e/onnx_conformance.py``), applies one mutation chosen by the
case's seed (an attribute value, a dim or rank or dtype of a declared input
or output, an initializer's dims or data type, the opset, an input renamed,
the serialized bytes truncated, ...), compiles and runs it on random inputs,
and compares with ONNX's reference evaluator on the same inputs. A float
result that differs from the reference passes where it is no farther than
the reference's from the exact value: the model widened to float64 (every
float16, bfloat16 and float32 tensor, cast and constant), run by the
reference on the same inputs; the reference rounds every op of a float16
model to float16, torch2mlir computes some (softmax, normalizations) in
float32 and rounds once, as PyTorch does (the OpInfo harness's rule, see
``test/e2e/opinfo.py``'s ``no_farther_from_exact``).

Outcomes: ``ok`` (matches the reference), ``clean`` (a Torch2MlirError, or
the mutated bytes do not parse), ``untyped`` (any other exception escaped
torch2mlir: a bug), ``wrong`` (ran, and differs from a reference that ran),
``unverified`` (ran, but the reference itself failed), ``skip`` (no inputs
could be made). A crash (a signal) is seen by the driver (``run.py``).
"""

from __future__ import annotations

import random
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from onnx_conformance import collect_cases

MUTATIONS = (
    "attribute-int",
    "attribute-ints",
    "attribute-dropped",
    "output-rank",
    "output-dim",
    "output-dtype",
    "input-dim",
    "huge-dim",
    "negative-dim",
    "initializer-dims",
    "initializer-dtype",
    "opset",
    "input-renamed",
    "truncated",
)

_CASES: list[tuple[str, Any]] | None = None

#: Ops whose reference implementation (onnx.reference) departs from the
#: ONNX spec: a difference in a model that uses one is unverified, with the
#: reason, not counted as ours.
REFERENCE_BUGS = {
    # op_type: (the opset from which the reference is right, or None; why)
    "LpNormalization": (
        None,
        (
            "onnx.reference's LpNormalization sums x**p without abs(x), so with "
            "p=1 and negative inputs it is not the L1 norm the spec defines"
        ),
    ),
    **{
        op: (
            13,
            (
                f"onnx.reference's {op} normalizes along `axis` at every opset; "
                f"before opset 13 {op} coerces the input to 2-D at `axis` and "
                "normalizes the whole second dim"
            ),
        )
        for op in ("Softmax", "LogSoftmax", "Hardmax")
    },
    "AveragePool": (
        7,
        (
            "onnx.reference's AveragePool_1 passes count_include_pad=None and so "
            "counts the padding; AveragePool-1 divides by the elements excluding "
            "pad (count_include_pad came at opset 7, default 0)"
        ),
    ),
}


def cases() -> list[tuple[str, Any]]:
    """ONNX's node test cases (name, case), in a fixed order."""
    global _CASES
    if _CASES is None:
        _CASES = sorted(collect_cases().items())
    return _CASES


def _mutate(model: onnx.ModelProto, kind: str, rng: random.Random) -> bytes:
    """Applies mutation `kind` to `model` in place; returns its bytes."""
    graph = model.graph
    node = rng.choice(list(graph.node)) if graph.node else None
    if kind == "attribute-int" and node is not None:
        ints = [a for a in node.attribute if a.type == AttributeProto.INT]
        if ints:
            rng.choice(ints).i = rng.choice([-3, -1, 0, 1, 2, 7, 100, 2**31])
    elif kind == "attribute-ints" and node is not None:
        lists = [a for a in node.attribute if a.type == AttributeProto.INTS]
        if lists:
            attribute = rng.choice(lists)
            if attribute.ints:
                index = rng.randrange(len(attribute.ints))
                attribute.ints[index] = rng.choice([-5, -1, 0, 3, 100])
            if rng.random() < 0.3:
                attribute.ints.append(rng.choice([0, 1, 2]))
    elif kind == "attribute-dropped" and node is not None and node.attribute:
        del node.attribute[rng.randrange(len(node.attribute))]
    elif kind.startswith(("output-", "input-", "huge-", "negative-")):
        values = list(graph.output if kind.startswith("output-") else graph.input)
        if values:
            tensor = rng.choice(values).type.tensor_type
            dims = tensor.shape.dim
            if kind == "output-dtype":
                tensor.elem_type = rng.choice([1, 6, 7, 9, 10, 11])
            elif kind == "output-rank":
                if dims and rng.random() < 0.5:
                    del dims[-1]
                else:
                    dims.add().dim_value = rng.choice([1, 2, 3])
            elif dims:
                dim = dims[rng.randrange(len(dims))]
                if kind == "huge-dim":
                    dim.dim_value = 2**40
                elif kind == "negative-dim":
                    dim.dim_value = -2
                elif rng.random() < 0.5:
                    dim.dim_param = "N"
                else:
                    dim.dim_value = rng.choice([0, 1, 2, 5, 17])
    elif kind.startswith("initializer-") and graph.initializer:
        tensor = rng.choice(list(graph.initializer))
        if kind == "initializer-dims" and tensor.dims:
            tensor.dims[rng.randrange(len(tensor.dims))] += rng.choice([-1, 1, 5])
        else:
            tensor.data_type = rng.choice([99, 14, 15, 16, 8])
    elif kind == "opset":
        model.opset_import[0].version = rng.choice([1, 6, 9, 13, 30])
    elif kind == "input-renamed" and node is not None and node.input:
        index = rng.randrange(len(node.input))
        node.input[index] = rng.choice(["undefined", *node.output])
    data = model.SerializeToString()
    if kind == "truncated":
        data = data[: rng.randrange(max(1, len(data)))]
    return data


def _inputs(model: onnx.ModelProto, rng: np.random.Generator) -> list[np.ndarray]:
    """Random inputs of the graph inputs' declared types (unknown or odd dims
    small)."""
    initialized = {t.name for t in model.graph.initializer}
    feeds = []
    for info in model.graph.input:
        if info.name in initialized:
            continue
        tensor = info.type.tensor_type
        shape = [
            d.dim_value if d.HasField("dim_value") and 0 <= d.dim_value < 64 else 2
            for d in tensor.shape.dim
        ]
        dtype = helper.tensor_dtype_to_np_dtype(tensor.elem_type)
        if np.issubdtype(dtype, np.floating):
            feeds.append(rng.standard_normal(shape).astype(dtype))
        elif dtype == np.bool_:
            feeds.append(rng.random(shape) > 0.5)
        else:
            feeds.append(rng.integers(0, 3, shape).astype(dtype))
    return feeds


def _differs(got: list[np.ndarray], want: list[Any]) -> str:
    """Why `got` differs from the reference outputs `want`, or ''."""
    if len(got) != len(want):
        return f"{len(got)} outputs, the reference has {len(want)}"
    for index, (a, b) in enumerate(zip(got, want)):
        b = np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"output {index}: {a.dtype}{list(a.shape)}, reference {b.dtype}{list(b.shape)}"
        if _is_float(a.dtype) or a.dtype.kind == "c":
            wide = np.complex128 if a.dtype.kind == "c" else np.float64
            if not np.allclose(
                a.astype(wide), b.astype(wide), rtol=1e-3, atol=1e-4, equal_nan=True
            ):
                return f"output {index}: values differ"
        elif not np.array_equal(a, b):
            return f"output {index}: values differ"
    return ""


#: A distance at least this large is an overflow or a NaN (distance_to_exact).
_FAR = float(np.finfo(np.float64).max)
#: Element types the float64 reference widens.
_NARROW_FLOATS = (TensorProto.FLOAT16, TensorProto.BFLOAT16, TensorProto.FLOAT)


def _widened(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """`model` with every float16/bfloat16/float32 tensor type, cast target
    and constant made float64; None for a model with subgraphs or local
    functions (not widened)."""
    wide = onnx.ModelProto()
    wide.CopyFrom(model)
    graph = wide.graph
    if wide.functions:
        return None

    def widen_tensor(tensor: onnx.TensorProto) -> None:
        if tensor.data_type in _NARROW_FLOATS:
            array = numpy_helper.to_array(tensor).astype(np.float64)
            tensor.CopyFrom(numpy_helper.from_array(array, tensor.name))

    for info in (*graph.input, *graph.output, *graph.value_info):
        if info.type.tensor_type.elem_type in _NARROW_FLOATS:
            info.type.tensor_type.elem_type = TensorProto.DOUBLE
    for tensor in graph.initializer:
        widen_tensor(tensor)
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS):
                return None
            if attribute.name in ("to", "dtype") and attribute.i in _NARROW_FLOATS:
                attribute.i = TensorProto.DOUBLE
            if attribute.type == AttributeProto.TENSOR:
                widen_tensor(attribute.t)
    return wide


def _is_float(dtype: np.dtype) -> bool:
    """Whether `dtype` is a float dtype (numpy's, or ml_dtypes' bfloat16)."""
    return dtype.kind == "f" or dtype.name == "bfloat16"


def _no_farther_from_exact(
    model: onnx.ModelProto,
    feeds: list[np.ndarray],
    names: list[str],
    got: list[np.ndarray],
    want: list[Any],
) -> bool:
    """Whether `got` is no farther than the reference's `want` from the
    float64 result (`_widened`): PyTorch's rule for a reference that
    disagrees with an ATen kernel (``test_ops.py``'s ``_ref_test_helper``:
    the summed absolute distances of each, NaN against NaN at distance 0),
    applied per float output; an element where either is an overflow or a
    NaN (opinfo.distance_to_exact: a NaN is farther than an overflow) is
    judged alone, so one overflow of the reference cannot excuse another of
    ours. Other outputs must be equal."""
    import torch
    from onnx.reference import ReferenceEvaluator
    from opinfo import distance_to_exact

    wide = _widened(model)
    if wide is None:
        return False
    wide_feeds = [f.astype(np.float64) if _is_float(f.dtype) else f for f in feeds]
    try:
        with np.errstate(all="ignore"):
            exact = ReferenceEvaluator(wide).run(None, dict(zip(names, wide_feeds)))
    except Exception:  # noqa: BLE001 - an op the reference has no float64 for
        return False

    for a, b, p in zip(got, want, exact, strict=True):
        b, p = np.asarray(b), np.asarray(p)
        if a.shape != b.shape or a.dtype != b.dtype or p.shape != b.shape:
            return False
        if not _is_float(a.dtype):
            if not np.array_equal(a, b):
                return False
            continue
        exact64 = torch.from_numpy(p.astype(np.float64))
        ours, theirs = (
            distance_to_exact(torch.from_numpy(x.astype(np.float64)), exact64)
            for x in (a, b)
        )
        # An overflow or a NaN is judged alone; other distances are summed.
        alone = (ours >= _FAR) | (theirs >= _FAR)
        if not bool((ours[alone] <= theirs[alone]).all()):
            return False
        if ours[~alone].sum() > theirs[~alone].sum():
            return False
    return True


#: Ops whose results are random draws: they differ from the reference's by
#: construction (its generator is not torch2mlir's).
_RANDOM_OPS = {
    "RandomNormal",
    "RandomNormalLike",
    "RandomUniform",
    "RandomUniformLike",
    "Bernoulli",
    "Multinomial",
}


def _draws_random(model: onnx.ModelProto) -> bool:
    """Whether a node draws random numbers (a Dropout given a training_mode
    input may)."""
    return any(
        node.op_type in _RANDOM_OPS
        or (node.op_type == "Dropout" and len(node.input) > 2 and node.input[2])
        for node in model.graph.node
    )


def run_case(seed: int) -> dict[str, Any]:
    """Runs case `seed`; returns its record (seed, model, mutation, outcome,
    detail)."""
    import torch2mlir
    from onnx.reference import ReferenceEvaluator

    warnings.simplefilter("ignore")
    name, case = cases()[(seed * 7919) % len(cases())]
    rng = random.Random(seed)
    kind = rng.choice(MUTATIONS)
    model = onnx.ModelProto()
    model.CopyFrom(case.model)
    record = {"seed": seed, "model": name, "mutation": kind}
    try:
        model.ParseFromString(_mutate(model, kind, rng))
    except Exception:  # noqa: BLE001 - protobuf's DecodeError and friends
        return {**record, "outcome": "clean", "detail": "bytes do not parse"}
    try:
        feeds = _inputs(model, np.random.default_rng(seed))
    except Exception as error:  # noqa: BLE001 - an input type numpy lacks
        return {**record, "outcome": "skip", "detail": str(error)[:200]}
    try:
        got = torch2mlir.compile_onnx(model)(*feeds)
    except torch2mlir.Torch2MlirError as error:
        return {**record, "outcome": "clean", "detail": str(error)[:200]}
    except Exception as error:  # noqa: BLE001 - what the fuzzer looks for
        return {
            **record,
            "outcome": "untyped",
            "detail": f"{type(error).__name__}: {error}"[:300],
        }
    initialized = {t.name for t in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in initialized]
    try:
        with np.errstate(all="ignore"):
            want = ReferenceEvaluator(model).run(None, dict(zip(names, feeds)))
    except Exception as error:  # noqa: BLE001 - the reference's own failure
        return {
            **record,
            "outcome": "unverified",
            "detail": f"reference: {error}"[:200],
        }
    detail = _differs(got, want)
    if detail and _no_farther_from_exact(model, feeds, names, got, want):
        detail = ""
    opset = next(
        (o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0
    )
    buggy = sorted(
        op
        for op in {n.op_type for n in model.graph.node} & set(REFERENCE_BUGS)
        if REFERENCE_BUGS[op][0] is None or opset < REFERENCE_BUGS[op][0]
    )
    if detail and _draws_random(model):
        return {
            **record,
            "outcome": "unverified",
            "detail": f"{detail}; random draws differ from the reference's"[:300],
        }
    if detail and buggy:
        return {
            **record,
            "outcome": "unverified",
            "detail": f"{detail}; reference: {REFERENCE_BUGS[buggy[0]][1]}"[:300],
        }
    return {**record, "outcome": "wrong" if detail else "ok", "detail": detail}
