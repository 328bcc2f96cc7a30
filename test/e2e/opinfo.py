"""The OpInfo harness: PyTorch's own op samples, compiled and run.

PyTorch describes its operators in ``op_db``
(``torch.testing._internal.common_methods_invocations``): per op, the dtypes
it supports on CPU, a generator of sample inputs (``SampleInput``: a tensor,
positional and keyword arguments) and per-test tolerance overrides. For each
op and each dtype of ``DTYPE_NAMES`` it declares for CPU, this harness takes
the first few samples (``--samples`` for float32 and int64, ``--other-samples``
for the other dtypes; 0: all) and, for each:

1. wraps the call in an ``nn.Module`` whose inputs are the sample's tensors
   (non-tensor arguments, such as ints, lists and dtypes, are baked into the
   module as constants);
2. exports it with the decompositions ``torch2mlir.compile`` uses
   (``decompositions="core-aten"``) and checks that every op of the graph is
   one torch2mlir defines (:func:`torch2mlir.fx.importer.imported_op_name`);
   otherwise the sample is *unsupported* and the reason names the op;
3. compiles that program with ``torch2mlir.compile``, runs it and compares every output
   with eager PyTorch (``torch.testing.assert_close``: the output dtype's default
   tolerances, or the op's own ``toleranceOverride`` for forward-numerics
   tests when larger; see :func:`tolerances`).

Random ops (an exported op tagged ``nondeterministic_seeded``), in-place and
backward-only ops are *not in scope*. ``--backend`` (a name of
``torch2mlir.compiler.backends.BACKENDS``; default ``linalg-on-tensors``) is
the backend every sample compiles for; the (op, dtype) pairs of a dtype the
backend cannot express (:data:`INEXPRESSIBLE_DTYPES`: for ``tosa``, float64
and uint8) are counted out by rule, before running, and reported with that
reason; so are the samples it cannot express (:func:`backend_sample_scope_reason`:
for ``tosa``, zero-size tensors and programs asking for float64), and a
pair all of whose samples are. Samples run in worker processes (see workers.py): a crash in
generated code fails one sample, not the run::

    python test/e2e/opinfo.py                              # all ops
    python test/e2e/opinfo.py -k softmax --dtype float32   # names containing it
    python test/e2e/opinfo.py --op add --dtype float32 --sample 3  # one, in-process
    python test/e2e/opinfo.py --core --backend tosa        # Core ATen on TOSA

The one-line summary goes to stdout; ``--json`` and ``--markdown`` write the
coverage table (op x dtype: pass / fail / xfail / unsupported / not in
scope, with reasons and reproducer commands). A failing pair that
``xfail/opinfo.toml`` lists for the backend is an expected failure
(``xfail``) with the reason given there; any other failure (a wrong value
above all) is *unexpected*, printed with its reproducer, and the run exits 1.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import os
import re
import sys
import time
import tomllib
import traceback
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from workers import Worker, pool_map, serve

HERE = Path(__file__).resolve().parent

#: The dtypes the harness runs, by name (those an op declares for CPU).
DTYPE_NAMES = (
    "float32",
    "float64",
    "float16",
    "bfloat16",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "bool",
    "complex64",
    "complex128",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
)

#: The backend samples compile for unless ``--backend`` names another (one
#: of ``torch2mlir.compiler.backends.BACKENDS``).
DEFAULT_BACKEND = "linalg-on-tensors"

#: The TOSA 1.0 element types of the profiles the ``tosa`` backend targets
#: (``pro_int``, ``pro_fp``, extension ``bf16``), by PyTorch dtype name.
TOSA_DTYPES = ("float32", "float16", "bfloat16", "int8", "int16", "int32", "bool")

#: Per backend, the dtypes of :data:`DTYPE_NAMES` it cannot express, with
#: why: their (op, dtype) pairs are counted out by rule, before running, as
#: *not in scope* for that backend (complex and the other unsigned dtypes,
#: which the harness does not run, by :func:`backend_scope_reason`). int64
#: stays in scope for ``tosa``: the compiler narrows int64 tensors to int32
#: where their values provably fit.
INEXPRESSIBLE_DTYPES = {
    "tosa": {
        "float64": "TOSA 1.0 has no float64 tensors",
        "uint8": "TOSA 1.0 has no unsigned tensors",
    },
}

#: The prefix of every reason :func:`backend_scope_reason` gives.
BACKEND_SCOPE_PREFIX = "not in scope for "

#: Samples per (op, dtype) by default, for float32 and int64 (the dtypes of
#: the headline number; ``--samples``) and for the other dtypes
#: (``--other-samples``); 0 runs all. A full run with these takes about 20
#: minutes on 2 cores: export and decomposition take ~0.3 s per sample.
DEFAULT_SAMPLES = 2
DEFAULT_OTHER_SAMPLES = 1
MAIN_DTYPES = ("float32", "int64")

#: Seconds one sample may take (export + compile + run) before its worker is
#: killed; also the time allowed to generate an (op, dtype)'s samples.
SAMPLE_TIMEOUT = 120.0

#: The tests of PyTorch's own suites whose ``toleranceOverride`` decorators
#: apply here: (test class, test name or None for the whole class). They
#: compare forward outputs of an op against eager or a reference; the others
#: (gradients, JIT, MPS, complex32) measure something else.
FORWARD_TOLERANCE_TESTS = {
    (None, None),
    ("TestCommon", None),
    ("TestCommon", "test_noncontiguous_samples"),
    ("TestCommon", "test_variant_consistency_eager"),
    ("TestInductorOpInfo", "test_comprehensive"),
    ("TestDecomp", "test_comprehensive"),
    ("TestDecomp", "test_quick"),
    ("TestEagerFusionOpInfo", None),
    ("TestUnaryUfuncs", None),
    ("TestUnaryUfuncs", "test_reference_numerics_normal"),
    ("TestBinaryUfuncsDevice", "test_reference_numerics"),
}

#: OpInfos whose outputs PyTorch leaves uninitialized (torch.empty and its
#: kin): their OpInfos skip ``TestCommon.test_compare_cpu`` ("empty is not
#: comparable"). Only their dtypes and shapes are compared.
#: Ops whose index output PyTorch leaves unspecified among equal values
#: (``sort``/``argsort`` unless ``stable=True``, ``topk``, ``kthvalue``):
#: the position of the dim in the sample's arguments (after the input), its
#: default, and which output holds the indices. Those indices are checked
#: by what they select (see :func:`_same_up_to_ties`), not compared with
#: eager's choice among ties.
TIE_ORDER_DIM = {
    "sort": (0, -1, 1),
    "argsort": (0, -1, 0),
    "topk": (1, -1, 1),
    "kthvalue": (1, -1, 1),
}

UNINITIALIZED_OUTPUTS = {
    "empty",
    "empty_like",
    "empty_permuted",
    "empty_strided",
    "new_empty",
    "new_empty_strided",
}

#: Sample statuses. ``skip``: not in scope (a random op) or not runnable
#: eagerly; it counts in no total.
STATUSES = ("pass", "fail", "unsupported", "skip")

#: The expected failures: per backend (a TOML table named after it), the
#: (op, dtype) pairs known to fail, ``"op dtype" = "reason"``. A failing
#: pair listed there is ``xfail`` (not passing, with the listed reason); one
#: that is not is an *unexpected* failure, and the run exits 1. A listed pair
#: that passes is reported as stale.
EXPECTED_FAILURES = HERE / "xfail" / "opinfo.toml"


@dataclass
class SampleResult:
    """The outcome of one sample of one (op, dtype).

    ``status``: one of :data:`STATUSES`; ``reason``: why it did not pass
    (one line); ``seconds``: export + compile + run.
    """

    op: str
    dtype: str
    sample: int
    status: str
    reason: str = ""
    seconds: float = 0.0


@dataclass
class PairResult:
    """The outcome of one (op, dtype): ``pass`` when every sample run passes;
    else ``fail`` (some sample gave wrong values or did not compile; ``xfail``
    when :data:`EXPECTED_FAILURES` lists the pair), else
    ``unsupported`` (some sample exports to an op torch2mlir does not define),
    else ``not in scope``. ``reason`` is the most common reason of the samples
    with that status; ``reproduce`` runs the first such sample."""

    op: str
    dtype: str
    status: str
    reason: str = ""
    reproduce: str = ""
    core_aten: bool = False
    counts: dict[str, int] = field(default_factory=dict)


def reproducer(op: str, dtype: str, sample: int, backend: str = DEFAULT_BACKEND) -> str:
    """The command that runs one sample in-process, with its traceback."""
    command = f"python test/e2e/opinfo.py --op {op} --dtype {dtype} --sample {sample}"
    return command if backend == DEFAULT_BACKEND else f"{command} --backend {backend}"


# ---------------------------------------------------------------------------
# op_db
# ---------------------------------------------------------------------------


def load_op_db() -> dict[str, Any]:
    """PyTorch's OpInfos by full name (``name`` or ``name.variant``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.testing._internal.common_methods_invocations import op_db
    return {opinfo.full_name: opinfo for opinfo in op_db}


def scope_reason(opinfo: Any) -> str:
    """Why an OpInfo is out of scope by its name ('' if it is in scope):
    in-place and backward-only ops. Random ops are found by their export."""
    name = opinfo.name
    if name.endswith("_") and not name.endswith("__"):
        return "not in scope: in-place op"
    if "in_place" in opinfo.variant_test_name or "inplace" in opinfo.variant_test_name:
        return "not in scope: in-place variant"
    if "backward" in name:
        return "not in scope: backward-only op"
    return ""


def backend_scope_reason(backend: str, dtype: str) -> str:
    """Why the (op, `dtype`) pairs are out of scope for `backend` by rule
    ('' if they are in scope): a dtype the backend cannot express
    (:data:`INEXPRESSIBLE_DTYPES`; for ``tosa`` also any complex or other
    unsigned dtype, and any dtype not in :data:`TOSA_DTYPES` but int64)."""
    reason = INEXPRESSIBLE_DTYPES.get(backend, {}).get(dtype, "")
    if not reason and backend == "tosa":
        if dtype.startswith("complex"):
            reason = "TOSA 1.0 has no complex tensors"
        elif dtype.startswith("uint"):
            reason = "TOSA 1.0 has no unsigned tensors"
        elif dtype not in (*TOSA_DTYPES, "int64"):
            reason = f"TOSA 1.0 has no {dtype} tensors"
    if not reason:
        return ""
    return f"{BACKEND_SCOPE_PREFIX}{backend}: {reason}"


def op_dtypes(opinfo: Any) -> list[str]:
    """The names of :data:`DTYPE_NAMES` the OpInfo declares for CPU."""
    import torch

    supported = opinfo.supported_dtypes("cpu")
    return [name for name in DTYPE_NAMES if getattr(torch, name) in supported]


def _core_aten_names() -> set[str]:
    """Names (``add``, ``convolution``) of the ATen op packets with a Core
    ATen (``torch.Tag.core``) overload that is neither random nor backward."""
    import torch

    names = set()
    for packet_name in torch.ops.aten:
        packet = getattr(torch.ops.aten, packet_name, None)
        if packet is None or not hasattr(packet, "overloads"):
            continue
        for overload in packet.overloads():
            op = getattr(packet, overload)
            tags = set(op.tags)
            if (
                torch.Tag.core in tags
                and torch.Tag.nondeterministic_seeded not in tags
                and "backward" not in packet_name
            ):
                names.add(packet_name)
    return names


#: OpInfo names (after ``nn.functional.``) whose op is, in Core ATen, one of
#: another name: the functional form that torch.export keeps.
CORE_ATEN_FORMS = {
    "conv1d": "convolution",
    "conv2d": "convolution",
    "conv3d": "convolution",
    "conv_transpose1d": "convolution",
    "conv_transpose2d": "convolution",
    "conv_transpose3d": "convolution",
    "softmax": "_softmax",
    "log_softmax": "_log_softmax",
    "max_pool2d": "max_pool2d_with_indices",
    "max_pool3d": "max_pool3d_with_indices",
    "adaptive_avg_pool2d": "_adaptive_avg_pool2d",
    "adaptive_avg_pool3d": "_adaptive_avg_pool3d",
    "embedding_bag": "_embedding_bag",
    "cdist": "_cdist_forward",
    "pdist": "_pdist_forward",
    "batch_norm": "_native_batch_norm_legit_no_training",
    "fold": "col2im",
}


def is_core_aten(opinfo: Any, core_names: set[str]) -> bool:
    """True if the OpInfo tests a Core ATen forward op: its ATen name, or the
    name after ``nn.functional.``, is a Core ATen op packet, or is the
    functional form of one (:data:`CORE_ATEN_FORMS`)."""
    short = opinfo.name.rsplit(".", 1)[-1]
    candidates = {opinfo.aten_name, short, CORE_ATEN_FORMS.get(short, "")}
    return bool(candidates & core_names)


def tolerances(opinfo: Any, dtype: Any) -> tuple[float, float]:
    """The (rtol, atol) override for `opinfo`'s samples of `dtype`: the
    largest ``toleranceOverride`` the OpInfo declares for that dtype on CPU
    in one of :data:`FORWARD_TOLERANCE_TESTS`, else (0, 0). Each output is
    compared with the larger of this and ``torch.testing.assert_close``'s
    defaults for the output's own dtype (see :func:`_compare`), as PyTorch's
    tests do: an int64 sample of ``sin`` has float32 outputs, compared with
    float32 tolerances."""
    from torch.testing._internal.common_device_type import toleranceOverride
    from torch.testing._internal.opinfo.core import DecorateInfo

    rtol, atol = 0.0, 0.0
    for info in opinfo.decorators:
        if not isinstance(info, DecorateInfo):
            continue
        if (info.cls_name, info.test_name) not in FORWARD_TOLERANCE_TESTS:
            continue
        if info.device_type not in (None, "cpu") or info.active_if is not True:
            continue
        if info.dtypes is not None and dtype not in info.dtypes:
            continue
        for decorator in info.decorators:
            if isinstance(decorator, toleranceOverride) and dtype in decorator.d:
                override = decorator.d[dtype]
                rtol, atol = max(rtol, override.rtol), max(atol, override.atol)
    return rtol, atol


# ---------------------------------------------------------------------------
# One sample
# ---------------------------------------------------------------------------


def sample_module(opinfo: Any, sample: Any) -> tuple[Any, tuple[Any, ...]]:
    """An ``nn.Module`` calling ``opinfo.op`` on `sample`, and its inputs.

    Every tensor of the sample (input, positional and keyword arguments,
    also inside lists) becomes an input of ``forward``, in pytree order;
    every other leaf (int, float, bool, list of ints, dtype, None) is baked
    into the module.
    """
    import torch
    import torch.utils._pytree as pytree

    leaves, spec = pytree.tree_flatten((sample.input, sample.args, sample.kwargs))
    positions = [i for i, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]
    tensors = tuple(leaves[i] for i in positions)
    op = opinfo.op

    class SampleModule(torch.nn.Module):
        def forward(self, *inputs: torch.Tensor) -> Any:
            values = list(leaves)
            for position, tensor in zip(positions, inputs):
                values[position] = tensor
            first, args, kwargs = pytree.tree_unflatten(values, spec)
            return op(first, *args, **kwargs)

    return SampleModule().eval(), tensors


def _one_line(text: str, limit: int = 240) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compile_error_reason(message: str) -> str:
    """The diagnostic of a CompileError message, without locations: the
    part that is the same for every sample that fails the same way."""
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    main = lines[1] if len(lines) > 1 and lines[0].endswith("failed:") else lines[0]
    main = re.sub(r"^\S+\.py:\d+( \(node [^)]*\))?: ", "", main)
    main = re.sub(r"^\(node [^)]*\): ", "", main)
    main = re.sub(r"^loc\([^)]*\)(\([^)]*\))?: ", "", main)
    return _one_line(main)


def _unclaimed_ops(prog: Any) -> tuple[list[str], list[str]]:
    """(ops torch2mlir does not define, random ops) of an exported graph."""
    import torch
    from torch2mlir import ir
    from torch2mlir.fx.importer import imported_op_name

    unclaimed, random_ops = [], []
    with ir.Context() as context:
        for node in prog.graph.nodes:
            if node.op != "call_function":
                continue
            target = node.target
            name = str(target)
            if isinstance(target, torch._ops.OpOverload):
                name = "aten." + name.removeprefix("aten.")
                if torch.Tag.nondeterministic_seeded in target.tags:
                    random_ops.append(name)
            if imported_op_name(target, context) is None:
                unclaimed.append(name)
    return sorted(set(unclaimed)), sorted(set(random_ops))


def _compare(
    actual: Any, expected: Any, rtol: float, atol: float, values: bool = True
) -> str:
    """'' if `actual` matches `expected` (same pytree structure; tensors
    equal within rtol/atol, same dtype and shape, NaN where eager has NaN;
    without `values`, only dtypes and shapes), else why not (one line)."""
    import torch
    import torch.utils._pytree as pytree
    from torch.testing._comparison import default_tolerances

    got, got_spec = pytree.tree_flatten(actual)
    want, want_spec = pytree.tree_flatten(expected)
    if len(got) != len(want):
        return f"wrong output structure: {got_spec}, expected {want_spec}"
    for index, (a, e) in enumerate(zip(got, want)):
        what = f"output {index}"
        if not isinstance(a, torch.Tensor):
            return f"{what} is a {type(a).__name__}, expected a tensor"
        if a.dtype != e.dtype:
            return f"wrong dtype: {what} is {a.dtype}, expected {e.dtype}"
        if a.shape != e.shape:
            return f"wrong shape: {what} is {list(a.shape)}, expected {list(e.shape)}"
        if not values:
            continue
        default_rtol, default_atol = default_tolerances(e)
        try:
            torch.testing.assert_close(
                a,
                e,
                rtol=max(rtol, default_rtol),
                atol=max(atol, default_atol),
                equal_nan=True,
                check_stride=False,
            )
        except AssertionError as error:
            lines = [line.strip() for line in str(error).splitlines() if line.strip()]
            return _one_line(f"wrong values: {what}: " + " ".join(lines[:4]))
    return ""


def backend_sample_scope_reason(
    backend: str, prog: Any, tensors: list[Any], expected: Any
) -> str:
    """Why one sample is out of scope for `backend` by rule ('' if it is
    in): for ``tosa``, a zero-size tensor among the inputs, outputs or the
    values of the exported program `prog` (TOSA 1.0's tensors have no size
    0: TOSA specification 1.0, section 1.5 "Tensor definitions"), or a
    float64 value in a program whose inputs are not float64 (a ``dtype=``
    argument asking for it; the backend has no float64, as for the pairs
    of :data:`INEXPRESSIBLE_DTYPES`). A pair whose samples are all out of
    scope is counted out with this reason."""
    import torch
    import torch.utils._pytree as pytree

    if backend != "tosa":
        return ""
    values = [*tensors, *pytree.tree_leaves(expected)]
    float64_inputs = any(
        isinstance(t, torch.Tensor) and t.dtype == torch.float64 for t in tensors
    )
    for node in prog.graph.nodes:
        for value in pytree.tree_leaves(node.meta.get("val")):
            if isinstance(value, torch.Tensor):
                values.append(value)
                if value.dtype == torch.float64 and not float64_inputs:
                    return (
                        f"{BACKEND_SCOPE_PREFIX}{backend}: TOSA 1.0 has no "
                        "float64 tensors (the sample computes in float64)"
                    )
    if any(isinstance(t, torch.Tensor) and t.numel() == 0 for t in values):
        return f"{BACKEND_SCOPE_PREFIX}{backend}: TOSA 1.0 has no zero-size tensors"
    return ""


def _result_maker(op: str, dtype_name: str, index: int) -> Any:
    """``result(status, reason="")``: the SampleResult of sample `index`,
    timed from this call."""
    start = time.perf_counter()

    def result(status: str, reason: str = "") -> SampleResult:
        return SampleResult(
            op, dtype_name, index, status, reason, round(time.perf_counter() - start, 3)
        )

    return result


def run_sample(
    opinfo: Any,
    dtype_name: str,
    index: int,
    sample: Any,
    backend: str = DEFAULT_BACKEND,
) -> SampleResult:
    """Exports, checks, compiles (for `backend`), runs and compares one
    sample in this process."""
    import torch
    import torch.utils._pytree as pytree
    import torch2mlir
    from torch2mlir.fx import export

    result = _result_maker(opinfo.full_name, dtype_name, index)
    module, tensors = sample_module(opinfo, sample)
    try:
        with torch.no_grad():
            expected = module(*tensors)
    except Exception as error:  # noqa: BLE001 - eager PyTorch rejects the sample
        return result("skip", _one_line(f"eager PyTorch raised {error!r}"))
    leaves = pytree.tree_leaves(expected)
    if not leaves or not all(isinstance(leaf, torch.Tensor) for leaf in leaves):
        kinds = sorted({type(leaf).__name__ for leaf in leaves}) or ["nothing"]
        return result("unsupported", f"returns {', '.join(kinds)}, not tensors")
    try:
        prog = export(module, tensors)
    except torch2mlir.CompileError as error:
        return result("unsupported", compile_error_reason(str(error)))
    unclaimed, random_ops = _unclaimed_ops(prog)
    if random_ops:
        return result("skip", f"not in scope: random op {', '.join(random_ops)}")
    if unclaimed:
        return result(
            "unsupported",
            f"exports to {', '.join(unclaimed)}, which torch2mlir does not define",
        )
    scope = backend_sample_scope_reason(backend, prog, tensors, expected)
    if scope:
        return result("skip", scope)
    rtol, atol = tolerances(opinfo, getattr(torch, dtype_name))
    try:
        # The program exported above: torch.export takes most of the time.
        compiled = torch2mlir.compile(
            prog, tensors, backend=backend, decompositions="none", cache=False
        )
        actual = compiled(*tensors)
    except torch2mlir.Torch2MlirError as error:
        return result("fail", compile_error_reason(str(error)))
    except Exception as error:  # noqa: BLE001 - a bug of ours: report it
        return result("fail", _one_line(f"{type(error).__name__}: {error}"))
    problem = _compare(
        actual, expected, rtol, atol, values=opinfo.name not in UNINITIALIZED_OUTPUTS
    )
    if problem and (
        _same_up_to_ties(opinfo.name, sample, actual, expected)
        or no_farther_from_exact(module, tensors, actual, expected, rtol, atol)
    ):
        problem = ""
    return result("fail" if problem else "pass", problem)


#: Dtypes whose gradients ``--gradients`` checks.
GRADIENT_DTYPES = ("float32",)

#: Set by ``--gradients``: samples run through the joint graph.
GRADIENTS = False


def run_gradient_sample(
    opinfo: Any,
    dtype_name: str,
    index: int,
    sample: Any,
    backend: str = DEFAULT_BACKEND,
) -> SampleResult:
    """``--gradients``: the joint forward + backward graph of one sample
    (``aot_export_module(..., trace_joint=True)`` of the sum of each float
    output times a fixed random cotangent), compiled for `backend` and run;
    the gradients of every float input are compared with ``torch.autograd``
    on the op itself, at the OpInfo's forward tolerances, or element-wise no
    farther than autograd's from the float64 gradients (the forward
    comparison's rule, :func:`no_farther_from_exact`). This is how the
    backward ops of training graphs (``convolution_backward``,
    ``*_backward``...) reach torch2mlir."""
    import torch
    import torch.utils._pytree as pytree
    import torch2mlir
    from torch._functorch.aot_autograd import aot_export_module

    result = _result_maker(opinfo.full_name, dtype_name, index)
    if not opinfo.supports_autograd:
        return result("skip", "not in scope: the op has no gradient")
    module, tensors = sample_module(opinfo, sample)
    inputs = tuple(t.detach().requires_grad_(t.is_floating_point()) for t in tensors)
    positions = [i for i, t in enumerate(inputs) if t.requires_grad]
    differentiable = [inputs[i] for i in positions]
    if not differentiable:
        return result("skip", "not in scope: no float input")
    try:
        leaves = pytree.tree_leaves(module(*inputs))
    except Exception as error:  # noqa: BLE001 - eager PyTorch rejects the sample
        return result("skip", _one_line(f"eager PyTorch raised {error!r}"))
    # The outputs that depend on a float input, by position among the
    # leaves: the joint graph's loss takes the same ones.
    output_positions = [
        j
        for j, leaf in enumerate(leaves)
        if isinstance(leaf, torch.Tensor) and leaf.requires_grad
    ]
    outputs = [leaves[j] for j in output_positions]
    if not outputs:
        return result("skip", "not in scope: no differentiable output")
    generator = torch.Generator().manual_seed(index)
    cotangents = tuple(
        torch.randn(o.shape, dtype=o.dtype, generator=generator) for o in outputs
    )
    count = len(inputs)

    class JointLoss(torch.nn.Module):
        def forward(self, *values: torch.Tensor) -> tuple[torch.Tensor]:
            traced = pytree.tree_leaves(module(*values[:count]))
            total = sum(
                (traced[j] * c).sum()
                for j, c in zip(output_positions, values[count:], strict=True)
            )
            return (total,)

    try:
        expected = torch.autograd.grad(
            sum((o * c).sum() for o, c in zip(outputs, cotangents, strict=True)),
            differentiable,
            allow_unused=True,
        )
    except Exception as error:  # noqa: BLE001 - autograd rejects the sample
        return result("skip", _one_line(f"eager autograd raised {error!r}"))
    try:
        graph, signature = aot_export_module(
            JointLoss(), (*inputs, *cotangents), trace_joint=True, output_loss_index=0
        )
    except Exception as error:  # noqa: BLE001 - PyTorch cannot export it
        return result("unsupported", _one_line(f"aot_export_module: {error}"))
    args = tuple(t.detach() for t in (*inputs, *cotangents))
    rtol, atol = tolerances(opinfo, getattr(torch, dtype_name))
    try:
        compiled = torch2mlir.compile(graph, args, backend=backend, cache=False)
        actual = compiled(*args)
    except torch2mlir.Torch2MlirError as error:
        return result("fail", compile_error_reason(str(error)))
    except Exception as error:  # noqa: BLE001 - a bug of ours: report it
        return result("fail", _one_line(f"{type(error).__name__}: {error}"))
    # The graph's outputs by node name; gradients_to_user_inputs names the
    # output holding each input's gradient.
    output_node = next(iter(graph.graph.find_nodes(op="output")))
    by_output = {
        node.name: value
        for node, value in zip(output_node.args[0], actual, strict=True)
    }
    gradient_output = {
        name: output
        for output, name in signature.backward_signature.gradients_to_user_inputs.items()
    }
    exact: list[Any] = []

    def exact_gradient(k: int) -> Any:
        """The gradient of the k-th float input computed in float64 (the
        inputs and cotangents widened): the reference of the forward
        comparison's rule, for gradients."""
        if not exact:
            wide = tuple(
                t.detach().double().requires_grad_(True) if t.is_floating_point() else t
                for t in tensors
            )
            try:
                traced = pytree.tree_leaves(module(*wide))
                loss = sum(
                    (traced[j] * c.double()).sum()
                    for j, c in zip(output_positions, cotangents, strict=True)
                )
                exact.extend(
                    torch.autograd.grad(
                        loss, [wide[i] for i in positions], allow_unused=True
                    )
                )
            except Exception:  # noqa: BLE001 - the op has no float64 kernel
                exact.extend([None] * len(positions))
        return exact[k]

    for k, (i, want) in enumerate(zip(positions, expected, strict=True)):
        name = signature.user_inputs[i]
        if want is None:
            continue
        got = by_output.get(gradient_output.get(name, ""))
        if got is None:
            return result("fail", f"no gradient for input {i}")
        problem = _compare(got, want, rtol, atol)
        if problem and tensor_no_farther_from_exact(
            got, want, exact_gradient(k), rtol, atol
        ):
            problem = ""
        if problem:
            return result("fail", f"gradient of input {i}: {problem}")
    return result("pass")


def distance_to_exact(x: Any, exact: Any) -> Any:
    """Element-wise distance of the tensor `x` from the float64 tensor
    `exact`: 0 where equal (NaN against NaN too), infinite for NaN against a
    number, the largest float64 for an infinity against a finite value (an
    overflow is nearer than a NaN), else the absolute difference."""
    import torch

    x = x.double()
    same = (x == exact) | (x.isnan() & exact.isnan())
    far = (x - exact).abs().nan_to_num(nan=float("inf"))
    return torch.where(same, torch.zeros_like(far), far)


def no_farther_from_exact(
    module: Any,
    tensors: tuple[Any, ...],
    actual: Any,
    expected: Any,
    rtol: float,
    atol: float,
) -> bool:
    """Whether `actual`, which differs from eager's `expected`, is at every
    element at least as close as eager to the exact value: `module` run on
    its floating inputs cast to float64 (PyTorch's own rule for comparing a
    reference with the ATen kernel, ``test_ops.py``'s ``_ref_test_helper``,
    made element-wise so one overflow in eager cannot excuse an error
    elsewhere). An element passes if it is within (rtol, atol) of eager's,
    or if its distance to the exact value is no larger than eager's (equal
    values and NaN against NaN are at distance 0; NaN against a number is
    infinitely far). Eager's float16 kernels that accumulate in float16, or
    overflow where the float32 computation PyTorch documents does not, are
    judged this way. Only dtypes and shapes equal to eager's, floating
    outputs, and samples with a floating input qualify."""
    import torch
    import torch.utils._pytree as pytree

    if not any(t.is_floating_point() for t in tensors):
        return False
    wide = tuple(t.double() if t.is_floating_point() else t for t in tensors)
    try:
        with torch.no_grad():
            exact = module(*wide)
    except Exception:  # noqa: BLE001 - the op has no float64 kernel
        return False
    got, want, best = (pytree.tree_leaves(x) for x in (actual, expected, exact))
    if not (len(got) == len(want) == len(best)):
        return False

    return all(
        tensor_no_farther_from_exact(a, e, p, rtol, atol)
        for a, e, p in zip(got, want, best, strict=True)
    )


def tensor_no_farther_from_exact(
    a: Any, e: Any, p: Any, rtol: float, atol: float
) -> bool:
    """:func:`no_farther_from_exact`'s element-wise rule for one tensor:
    `a` (ours) against `e` (eager's) and `p` (the float64 computation)."""
    import torch
    from torch.testing._comparison import default_tolerances

    if not isinstance(a, torch.Tensor) or not isinstance(p, torch.Tensor):
        return False
    if a.dtype != e.dtype or a.shape != e.shape or p.shape != e.shape:
        return False
    if not a.is_floating_point():
        return bool(torch.equal(a, e))
    p = p.double()
    default_rtol, default_atol = default_tolerances(e)
    near = torch.isclose(
        a,
        e,
        rtol=max(rtol, default_rtol),
        atol=max(atol, default_atol),
        equal_nan=True,
    )
    return bool((near | (distance_to_exact(a, p) <= distance_to_exact(e, p))).all())


def _same_up_to_ties(
    name: str, sample: Any, actual: Any, expected: Any, x: Any = None
) -> bool:
    """For an op of :data:`TIE_ORDER_DIM` (not ``stable=True``): whether the
    outputs match eager except for the order of indices of equal values:
    values equal, each int64 output selects (``gather`` along the dim) what
    eager's selects, and for sort/argsort is a permutation along the dim.
    `x` is the input the op ran on, if not ``sample.input`` (a perturbed
    copy)."""
    import torch
    import torch.utils._pytree as pytree

    if name not in TIE_ORDER_DIM or sample.kwargs.get("stable"):
        return False
    position, default, index_output = TIE_ORDER_DIM[name]
    args = list(sample.args)
    if name in ("sort", "argsort") and len(args) > 2 and args[2]:
        return False  # sort(dim, descending, stable=True)
    dim = sample.kwargs.get("dim", args[position] if len(args) > position else default)
    x = sample.input if x is None else x
    got, _ = pytree.tree_flatten(actual)
    want, _ = pytree.tree_flatten(expected)
    if len(got) != len(want) or len(got) <= index_output:
        return False
    for i, (a, e) in enumerate(zip(got, want, strict=True)):
        if a.dtype != e.dtype or a.shape != e.shape:
            return False
        if i != index_output:
            if not torch.equal(a, e) and not (
                a.is_floating_point() and torch.allclose(a, e, equal_nan=True)
            ):
                return False
            continue
        if x.dim() == 0:
            if not torch.equal(a, e):
                return False
            continue
        if a.dim() < x.dim():  # keepdim=False
            a, e = a.unsqueeze(dim), e.unsqueeze(dim)
        try:
            chosen, reference = x.gather(dim, a), x.gather(dim, e)
        except RuntimeError:
            return False
        if not torch.equal(chosen.isnan(), reference.isnan()) or not torch.equal(
            chosen.nan_to_num(), reference.nan_to_num()
        ):
            return False
        if name in ("sort", "argsort"):
            order = torch.arange(x.shape[dim]).view(
                [-1 if d == dim % x.dim() else 1 for d in range(x.dim())]
            )
            if not torch.equal(a.sort(dim).values, order.expand_as(a)):
                return False
    return True


def generate_samples(opinfo: Any, dtype_name: str, limit: int | None) -> list[Any]:
    """The first `limit` (None: all) CPU samples of `opinfo` for the dtype,
    generated from seed 0 (the same samples in every process)."""
    import torch

    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        samples = opinfo.sample_inputs("cpu", getattr(torch, dtype_name))
        first = list(itertools.islice(samples, limit))
        if hasattr(samples, "close"):
            samples.close()  # now, not inside a later torch.export trace
        return first


# ---------------------------------------------------------------------------
# Workers
# ---------------------------------------------------------------------------


def _worker(backend: str) -> None:
    """Serves requests ``{"op", "dtype", "start", "limit"}``: for each sample
    from ``start`` to ``limit`` (compiled for `backend`), ``{"start": i}``
    then the SampleResult; finally ``{"done": number of samples generated}``."""
    import torch

    torch.set_num_threads(1)
    ops = load_op_db()

    def handle(line: str) -> Any:
        request = json.loads(line)
        opinfo = ops[request["op"]]
        try:
            samples = generate_samples(opinfo, request["dtype"], request["limit"])
        except Exception as error:  # noqa: BLE001 - the OpInfo's own bug
            yield {"error": _one_line(f"generating samples raised {error!r}")}
            return
        for index in range(request["start"], len(samples)):
            yield {"start": index}
            run = run_gradient_sample if GRADIENTS else run_sample
            yield asdict(run(opinfo, request["dtype"], index, samples[index], backend))
        yield {"done": len(samples)}

    serve(handle)


def run_pairs(
    pairs: list[tuple[str, str]],
    limits: dict[str, int | None],
    jobs: int,
    progress: Any = None,
    backend: str = DEFAULT_BACKEND,
) -> list[SampleResult]:
    """Runs the samples of every (op, dtype) in `jobs` worker processes: the
    first ``limits[dtype]`` (None: all) of each, compiled for `backend`.

    A sample whose worker dies (a crash in generated code) or exceeds
    :data:`SAMPLE_TIMEOUT` fails with that reason; the (op, dtype)'s later
    samples run in a fresh worker. `progress` (a tqdm bar or None) advances
    by one per (op, dtype).
    """
    results: list[SampleResult] = []

    def work(worker: Worker, pair: tuple[str, str]) -> None:
        op, dtype = pair
        begin = 0
        while True:
            request = {
                "op": op,
                "dtype": dtype,
                "start": begin,
                "limit": limits[dtype],
            }
            if not worker.send(json.dumps(request)):
                worker.restart()
                continue
            current, started = None, time.perf_counter()
            while True:
                answer = worker.receive(SAMPLE_TIMEOUT)
                if answer is None:
                    break
                if "start" in answer:
                    current, started = answer["start"], time.perf_counter()
                elif "error" in answer:
                    results.append(SampleResult(op, dtype, 0, "fail", answer["error"]))
                    break
                elif "done" in answer:
                    break
                else:
                    results.append(SampleResult(**answer))
            if answer is not None:
                break
            # The worker died or hung while running sample `current`.
            if worker.timed_out:
                reason = f"timeout: killed after {SAMPLE_TIMEOUT:.0f} s"
            else:
                reason = (
                    f"crash: the worker process died (exit code {worker.exit_code()})"
                )
            results.append(
                SampleResult(
                    op,
                    dtype,
                    current if current is not None else begin,
                    "fail",
                    reason,
                    round(time.perf_counter() - started, 3),
                )
            )
            worker.restart()
            if current is None:
                break
            begin = current + 1
        if progress is not None:
            progress.update(1)

    command = [sys.executable, __file__, "--worker", "--backend", backend]
    if GRADIENTS:
        command.append("--gradients")
    pool_map(pairs, work, command, jobs)
    return results


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def summarize_pairs(
    samples: list[SampleResult],
    pairs: list[tuple[str, str]],
    out_of_scope: dict[tuple[str, str], str],
    core_ops: set[str],
    backend: str = DEFAULT_BACKEND,
) -> list[PairResult]:
    """One PairResult per (op, dtype), from its samples (`backend`: the one
    they compiled for, in the reproducer commands)."""
    by_pair: dict[tuple[str, str], list[SampleResult]] = collections.defaultdict(list)
    for sample in samples:
        by_pair[(sample.op, sample.dtype)].append(sample)
    table = []
    for op, dtype in pairs:
        if (op, dtype) in out_of_scope:
            reason = out_of_scope[(op, dtype)]
            # Counted out for the backend: whether it is a Core ATen pair
            # still counts (the Core ATen pairs the backend cannot express).
            core = op in core_ops and reason.startswith(BACKEND_SCOPE_PREFIX)
            table.append(PairResult(op, dtype, "not in scope", reason, "", core))
            continue
        runs = sorted(by_pair[(op, dtype)], key=lambda s: s.sample)
        counts = dict(collections.Counter(s.status for s in runs))
        status = "not in scope"
        for candidate in ("fail", "unsupported"):
            if counts.get(candidate):
                status = candidate
                break
        else:
            if counts.get("pass"):
                status = "pass"
        pair = PairResult(op, dtype, status, core_aten=op in core_ops, counts=counts)
        if status != "pass":
            chosen = [
                s
                for s in runs
                if s.status == (status if status != "not in scope" else "skip")
            ]
            if chosen:
                reasons = collections.Counter(s.reason for s in chosen)
                pair.reason = reasons.most_common(1)[0][0]
                first = next(s for s in chosen if s.reason == pair.reason)
                if status != "not in scope":
                    pair.reproduce = reproducer(op, dtype, first.sample, backend)
            else:
                pair.reason = "no samples"
        table.append(pair)
    return table


def load_expected_failures(
    backend: str, path: Path = EXPECTED_FAILURES
) -> dict[tuple[str, str], str]:
    """The expected failures of `backend` in `path` (see
    :data:`EXPECTED_FAILURES`): ``{(op, dtype): reason}``.

    Raises:
        ValueError: a key is not ``"op dtype"`` with a dtype of
            :data:`DTYPE_NAMES`, or a reason is empty.
    """
    if not path.exists():
        return {}
    with path.open("rb") as file:
        table = tomllib.load(file).get(backend, {})
    expected = {}
    for key, reason in table.items():
        op, _, dtype = key.rpartition(" ")
        if not op or dtype not in DTYPE_NAMES or not str(reason).strip():
            raise ValueError(
                f"{path} [{backend}]: {key!r} = {reason!r}: keys are 'op dtype' "
                f"(dtype one of {', '.join(DTYPE_NAMES)}), values a reason"
            )
        expected[(op, dtype)] = str(reason)
    return expected


def apply_expected_failures(
    table: list[PairResult], expected: dict[tuple[str, str], str]
) -> list[str]:
    """Marks the failing pairs of `table` that `expected` lists as ``xfail``,
    their reason the listed one followed by this run's. Returns the listed
    pairs that passed (stale entries), as ``"op dtype"``."""
    stale = []
    for pair in table:
        listed = expected.get((pair.op, pair.dtype))
        if listed is None:
            continue
        if pair.status == "fail":
            pair.status = "xfail"
            pair.reason = f"expected failure: {listed} (this run: {pair.reason})"
        elif pair.status == "pass":
            stale.append(f"{pair.op} {pair.dtype}")
    return stale


def summary(
    table: list[PairResult],
    samples: list[SampleResult],
    backend: str = DEFAULT_BACKEND,
) -> dict[str, Any]:
    """The numbers of the one-line summary (see :func:`summary_line`): over
    the pairs and ops in scope; ``counted_out`` (``core_counted_out``: of
    Core ATen ops) gives the pairs counted out for `backend` by rule
    (:func:`backend_scope_reason`), by reason."""
    in_scope = [p for p in table if p.status != "not in scope"]
    by_op: dict[str, list[PairResult]] = collections.defaultdict(list)
    for pair in in_scope:
        by_op[pair.op].append(pair)

    def fully_passing(pairs: list[PairResult]) -> bool:
        main = [p for p in pairs if p.dtype in ("float32", "int64")] or pairs
        return all(p.status == "pass" for p in main)

    core = {op: pairs for op, pairs in by_op.items() if pairs[0].core_aten}
    run = [s for s in samples if s.status != "skip"]
    core_pairs = [p for p in in_scope if p.core_aten]
    counted_out = [p for p in table if p.reason.startswith(BACKEND_SCOPE_PREFIX)]
    return {
        "core_ops_passing": sum(fully_passing(p) for p in core.values()),
        "core_ops": len(core),
        "ops_passing": sum(fully_passing(p) for p in by_op.values()),
        "ops": len(by_op),
        "samples_passing": sum(s.status == "pass" for s in run),
        "samples": len(run),
        "pairs_passing": sum(p.status == "pass" for p in in_scope),
        "pairs": len(in_scope),
        "unexpected_failures": sum(p.status == "fail" for p in in_scope),
        "expected_failures": sum(p.status == "xfail" for p in in_scope),
        "core_pairs_passing": sum(p.status == "pass" for p in core_pairs),
        "core_pairs": len(core_pairs),
        "backend": backend,
        "counted_out": dict(collections.Counter(p.reason for p in counted_out)),
        "core_counted_out": dict(
            collections.Counter(p.reason for p in counted_out if p.core_aten)
        ),
    }


def _percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100.0 * part / max(1, whole):.1f}%)"


def summary_line(numbers: dict[str, Any]) -> str:
    """``OpInfo: Core ATen ops fully passing (every float32 and int64
    sample) a/b; samples passing c/d; (op, dtype) pairs passing e/f ...;
    backend B``, then, if any, the pairs counted out for B by rule (all
    numbers before are over the pairs and ops in scope)."""
    n = numbers
    line = (
        "OpInfo: Core ATen forward ops passing every float32 and int64 sample "
        f"{_percent(n['core_ops_passing'], n['core_ops'])}; "
        f"samples passing {_percent(n['samples_passing'], n['samples'])}; "
        f"(op, dtype) pairs passing {_percent(n['pairs_passing'], n['pairs'])} "
        f"(Core ATen {_percent(n['core_pairs_passing'], n['core_pairs'])}); "
        f"all ops fully passing {_percent(n['ops_passing'], n['ops'])}"
    )
    if "unexpected_failures" in n:
        line += (
            f"; failing pairs: {n['unexpected_failures']} unexpected, "
            f"{n['expected_failures']} expected (xfail/opinfo.toml)"
        )
    if n.get("stale_expected_failures"):
        line += "; listed as expected failures but passing: " + ", ".join(
            n["stale_expected_failures"]
        )
    if "backend" in n:
        line += f"; backend {n['backend']}"
    counted_out = n.get("counted_out") or {}
    if counted_out:
        core = n.get("core_counted_out") or {}
        prefix = f"{BACKEND_SCOPE_PREFIX}{n.get('backend', '')}: "
        reasons = ", ".join(
            f"{reason.removeprefix(prefix)} {count} (Core ATen {core.get(reason, 0)})"
            for reason, count in sorted(counted_out.items())
        )
        line += (
            f"; counted out by rule, in no total: {sum(counted_out.values())} "
            f"pairs (Core ATen {sum(core.values())}): {reasons}"
        )
    return line


def top_reasons(table: list[PairResult], count: int = 15) -> list[tuple[str, int]]:
    """The most common reasons of failing and unsupported pairs, with the
    number of pairs, numbers and shapes in them generalized."""
    reasons: collections.Counter[str] = collections.Counter()
    for pair in table:
        if pair.status in ("fail", "xfail", "unsupported"):
            reasons[f"{pair.status}: {_generalize(pair.reason)}"] += 1
    return reasons.most_common(count)


def _generalize(reason: str) -> str:
    reason = re.sub(r"expected failure: .*", "expected failure", reason)
    reason = re.sub(r"wrong values: .*", "wrong values", reason)
    reason = re.sub(r"'?!torch\.vtensor<[^>]*>'?", "!torch.vtensor<...>", reason)
    return reason[:160]


def write_json(
    path: Path,
    table: list[PairResult],
    samples: list[SampleResult],
    numbers: dict[str, Any],
    settings: dict[str, Any],
) -> None:
    """The whole run: settings, summary numbers, pairs and samples."""
    import torch

    samples = sorted(
        samples, key=lambda s: (s.op, DTYPE_NAMES.index(s.dtype), s.sample)
    )
    document = {
        "schema": "torch2mlir-opinfo/1",
        "torch": torch.__version__,
        "settings": settings,
        "summary": numbers,
        "summary_line": summary_line(numbers),
        "top_reasons": [
            {"reason": reason, "pairs": n} for reason, n in top_reasons(table)
        ],
        "pairs": [asdict(p) for p in table],
        "samples": [
            {
                **asdict(s),
                "reproduce": reproducer(
                    s.op,
                    s.dtype,
                    s.sample,
                    settings.get("backend", DEFAULT_BACKEND),
                )
                if s.status == "fail"
                else "",
            }
            for s in samples
        ],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n")


_MARKS = {
    "pass": "✅",
    "fail": "❌",
    "xfail": "❎",
    "unsupported": "➖",
    "not in scope": "·",
}


def write_markdown(
    path: Path, table: list[PairResult], numbers: dict[str, Any], settings: dict
) -> None:
    """The coverage grid (op x dtype) and the list of non-passing pairs."""
    by_op: dict[str, dict[str, PairResult]] = collections.defaultdict(dict)
    for pair in table:
        by_op[pair.op][pair.dtype] = pair
    lines = [
        "# OpInfo coverage",
        "",
        summary_line(numbers),
        "",
        (
            f"Settings: {json.dumps(settings)}. Marks: ✅ pass, ❌ fail, "
            "❎ expected failure (xfail/opinfo.toml), "
            "➖ unsupported (exports to an op torch2mlir does not define), "
            "· not in scope; blank: the op does not declare the dtype for CPU."
        ),
        "",
        "## Top reasons",
        "",
        "| pairs | reason |",
        "| ---: | --- |",
    ]
    lines += [f"| {n} | {_cell(r)} |" for r, n in top_reasons(table)]
    counted_out = numbers.get("counted_out") or {}
    if counted_out:
        core = numbers.get("core_counted_out") or {}
        lines += [
            "",
            "## Counted out",
            "",
            (
                f"Pairs not in scope for {numbers.get('backend')} by rule, before "
                "running (a dtype it cannot express); they count in no total."
            ),
            "",
            "| pairs | Core ATen pairs | reason |",
            "| ---: | ---: | --- |",
        ]
        lines += [
            f"| {n} | {core.get(r, 0)} | {_cell(r)} |"
            for r, n in sorted(counted_out.items())
        ]
    lines += [
        "",
        "## Coverage",
        "",
        "| op | core | " + " | ".join(DTYPE_NAMES) + " |",
        "| --- | --- | " + " | ".join("---" for _ in DTYPE_NAMES) + " |",
    ]
    for op in sorted(by_op):
        row = by_op[op]
        core = "yes" if any(p.core_aten for p in row.values()) else ""
        cells = [_MARKS[row[d].status] if d in row else "" for d in DTYPE_NAMES]
        lines.append(f"| {op} | {core} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Not passing",
        "",
        "| op | dtype | status | samples | reason | reproduce |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for pair in table:
        if pair.status in ("fail", "xfail", "unsupported"):
            counts = ", ".join(f"{k} {v}" for k, v in sorted(pair.counts.items()))
            lines.append(
                f"| {pair.op} | {pair.dtype} | {pair.status} | {counts} | "
                f"{_cell(pair.reason)} | `{pair.reproduce}` |"
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def merge_earlier_run(
    path: Path,
    pairs: list[tuple[str, str]],
    samples: list[SampleResult],
    out_of_scope: dict[tuple[str, str], str],
    core_ops: set[str],
    backend: str = DEFAULT_BACKEND,
) -> tuple[list[tuple[str, str]], list[SampleResult]]:
    """This run's pairs and samples plus those of the run in `path` (a JSON
    of :func:`write_json`) for the pairs this run did not select; fills
    `out_of_scope` and `core_ops` for them.

    Raises:
        ValueError: that run compiled for another backend than `backend`.
    """
    earlier = json.loads(path.read_text())
    earlier_backend = earlier["settings"].get("backend", DEFAULT_BACKEND)
    if earlier_backend != backend:
        raise ValueError(f"{path} is a run of backend {earlier_backend}, not {backend}")
    ran = set(pairs)
    kept = [p for p in earlier["pairs"] if (p["op"], p["dtype"]) not in ran]
    for pair in kept:
        if pair["status"] == "not in scope" and not pair["counts"]:
            out_of_scope[(pair["op"], pair["dtype"])] = pair["reason"]
        if pair["core_aten"]:
            core_ops.add(pair["op"])
    fields = set(SampleResult.__dataclass_fields__)
    kept_samples = [
        SampleResult(**{k: v for k, v in sample.items() if k in fields})
        for sample in earlier["samples"]
        if (sample["op"], sample["dtype"]) not in ran
    ]
    merged = sorted(
        [*((p["op"], p["dtype"]) for p in kept), *pairs],
        key=lambda pair: (pair[0], DTYPE_NAMES.index(pair[1])),
    )
    return merged, kept_samples + samples


def _run_one(opinfo: Any, dtype: str, index: int, backend: str) -> int:
    samples = generate_samples(opinfo, dtype, index + 1)
    if index >= len(samples):
        print(f"{opinfo.full_name} has {len(samples)} {dtype} samples", file=sys.stderr)
        return 2
    sample = samples[index]
    print(f"{opinfo.full_name} {dtype} sample {index}: {sample}")
    if GRADIENTS:
        result = run_gradient_sample(opinfo, dtype, index, sample, backend)
        print(f"{result.status}: {result.reason}")
        return 0 if result.status == "pass" else 1
    module, tensors = sample_module(opinfo, sample)
    try:
        import torch2mlir

        compiled = torch2mlir.compile(module, tensors, backend=backend, cache=False)
        compiled(*tensors)
    except Exception:  # noqa: BLE001 - show where it failed
        traceback.print_exc()
    result = run_sample(opinfo, dtype, index, sample, backend)
    print(f"{result.status}: {result.reason}")
    return 0 if result.status == "pass" else 1


def backend_names() -> list[str]:
    """The names of torch2mlir's backends
    (``torch2mlir.compiler.backends.BACKENDS``)."""
    from torch2mlir.compiler.backends import BACKENDS

    return sorted(BACKENDS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-k", dest="filter", default="", help="ops whose name contains this"
    )
    parser.add_argument(
        "--op", action="append", default=[], help="this op (repeatable)"
    )
    parser.add_argument(
        "--dtype",
        action="append",
        default=[],
        choices=DTYPE_NAMES,
        help="this dtype (repeatable)",
    )
    parser.add_argument("--sample", type=int, help="run this one sample in-process")
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"samples per (op, float32/int64) (default {DEFAULT_SAMPLES}; 0: all)",
    )
    parser.add_argument(
        "--other-samples",
        type=int,
        default=DEFAULT_OTHER_SAMPLES,
        help=f"samples per (op, other dtype) (default {DEFAULT_OTHER_SAMPLES}; 0: all)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", type=Path, help="write the whole run here")
    parser.add_argument("--markdown", type=Path, help="write the coverage table here")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--update",
        type=Path,
        help="a JSON of an earlier run: keep its pairs that this run does not "
        "select (rerun a subset after a fix, e.g. --update reports/opinfo.json -k softmax)",
    )
    parser.add_argument(
        "--core", action="store_true", help="only the OpInfos of Core ATen ops"
    )
    parser.add_argument(
        "--not-passing",
        action="store_true",
        help="with --update: only the pairs that did not pass in that run "
        "(rerun what a change may have fixed)",
    )
    parser.add_argument(
        "--backend",
        default=DEFAULT_BACKEND,
        choices=backend_names(),
        help=f"compile every sample for this backend (default {DEFAULT_BACKEND}); "
        "pairs of a dtype it cannot express are counted out, not run",
    )
    parser.add_argument(
        "--gradients",
        action="store_true",
        help="instead of the forward op, its gradients through the joint "
        "forward + backward graph (float32; reported, no expected-failure list)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    global GRADIENTS
    GRADIENTS = args.gradients
    if args.gradients and not args.dtype:
        args.dtype = list(GRADIENT_DTYPES)
    if args.worker:
        _worker(args.backend)
        return 0
    ops = load_op_db()
    unknown = [op for op in args.op if op not in ops]
    if unknown:
        parser.error(
            f"unknown ops {unknown}; names are OpInfo full names, e.g. add, max.reduction_with_dim"
        )
    if args.not_passing and not args.update:
        parser.error("--not-passing needs --update")
    if args.update:
        earlier = json.loads(args.update.read_text())["settings"]
        if earlier.get("backend", DEFAULT_BACKEND) != args.backend:
            parser.error(
                f"--update {args.update} is a run of backend "
                f"{earlier.get('backend', DEFAULT_BACKEND)}; pass that --backend"
            )
    if args.sample is not None:
        if len(args.op) != 1 or len(args.dtype) != 1:
            parser.error("--sample needs exactly one --op and one --dtype")
        reason = backend_scope_reason(args.backend, args.dtype[0])
        if reason:
            print(reason, file=sys.stderr)
        return _run_one(ops[args.op[0]], args.dtype[0], args.sample, args.backend)

    core_names = _core_aten_names()
    selected = [
        ops[name]
        for name in sorted(ops)
        if (not args.op or name in args.op) and args.filter in name
    ]
    passed_before: set[tuple[str, str]] = set()
    if args.not_passing:
        passed_before = {
            (p["op"], p["dtype"])
            for p in json.loads(args.update.read_text())["pairs"]
            if p["status"] in ("pass", "not in scope")
        }
    pairs, out_of_scope, core_ops = [], {}, set()
    for opinfo in selected:
        core = is_core_aten(opinfo, core_names)
        if args.core and not core:
            continue
        if core:
            core_ops.add(opinfo.full_name)
        reason = scope_reason(opinfo)
        for dtype in op_dtypes(opinfo):
            if args.dtype and dtype not in args.dtype:
                continue
            if (opinfo.full_name, dtype) in passed_before:
                continue
            pairs.append((opinfo.full_name, dtype))
            # An op out of scope stays so for its own reason; else a dtype
            # the backend cannot express counts its pairs out.
            pair_reason = reason or backend_scope_reason(args.backend, dtype)
            if pair_reason:
                out_of_scope[(opinfo.full_name, dtype)] = pair_reason
    todo = [pair for pair in pairs if pair not in out_of_scope]
    limits = {
        name: (args.samples if name in MAIN_DTYPES else args.other_samples) or None
        for name in DTYPE_NAMES
    }
    start = time.perf_counter()
    progress = None
    if not args.no_progress:
        from tqdm import tqdm

        # Off a terminal (CI logs), a line every minute.
        progress = tqdm(
            total=len(todo),
            unit="pair",
            file=sys.stderr,
            smoothing=0.05,
            mininterval=1.0 if sys.stderr.isatty() else 60.0,
        )
    try:
        samples = run_pairs(todo, limits, args.jobs, progress, args.backend)
    finally:
        if progress is not None:
            progress.close()
    elapsed = time.perf_counter() - start
    if args.update:
        pairs, samples = merge_earlier_run(
            args.update, pairs, samples, out_of_scope, core_ops, args.backend
        )
    table = summarize_pairs(samples, pairs, out_of_scope, core_ops, args.backend)
    # The expected-failure lists are the forward ops'; gradients are reported.
    expected_failures = {} if args.gradients else load_expected_failures(args.backend)
    stale = apply_expected_failures(table, expected_failures)
    numbers = summary(table, samples, args.backend)
    numbers["stale_expected_failures"] = stale
    numbers["seconds"] = round(elapsed, 1)
    settings = {
        "samples_per_pair": args.samples or "all",
        "samples_per_other_pair": args.other_samples or "all",
        "jobs": args.jobs,
        "filter": args.filter,
        "ops": args.op,
        "dtypes": args.dtype,
        "core_only": args.core,
        "not_passing_only": args.not_passing,
        "updated": str(args.update or ""),
        "backend": args.backend,
        "gradients": args.gradients,
    }
    if args.json:
        write_json(args.json, table, samples, numbers, settings)
    if args.markdown:
        write_markdown(args.markdown, table, numbers, settings)
    for reason, n in top_reasons(table, 10):
        print(f"{n:5} pairs  {reason}")
    mode = "; gradients through the joint graph" if args.gradients else ""
    print(summary_line(numbers) + f"{mode}; {len(samples)} samples in {elapsed:.0f} s")
    if args.gradients:
        for pair in table:
            if pair.status == "fail":
                print(
                    f"FAILING GRADIENT {pair.op} {pair.dtype}: {_one_line(pair.reason)}"
                )
        return 0
    unexpected = [p for p in table if p.status == "fail"]
    for pair in unexpected:
        print(
            f"UNEXPECTED FAILURE {pair.op} {pair.dtype}: {_one_line(pair.reason)}\n"
            f"  reproduce: {pair.reproduce}"
        )
    # A failure nobody listed (a wrong value above all) fails the run.
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
