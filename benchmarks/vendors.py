"""Software-stack efficiency factors from public same-benchmark comparisons.

Usage (from the repository root)::

    PYTHONPATH=. python benchmarks/vendors.py

The efficiency model (``sizing/engine/efficiency.py``) is fitted on published
NVIDIA runs, so peak FLOPS and memory bandwidth alone make a non-NVIDIA
accelerator look as fast as its datasheet.  Its software does not reach the
same share of that peak.  Each comparison in
``tests/sizing/data/vendor_benchmarks.json`` ran the same model on the same
number of accelerators with the same sequence length, batch and precision on
a non-NVIDIA accelerator and on an NVIDIA one, and gives the measured ratio of
their per-accelerator speed.  The engine predicts the same ratio on the same
configuration; for a software stack (``rocm``, ``gaudi``) the factor
``eff_software_<stack>`` that makes the engine agree is

    f = f_now x geometric mean over the stack's comparisons of (measured / predicted)

iterated until it no longer moves (the factor scales the computation, not the
communication, so one step is not exact).  ``eff_software_cuda`` is 1: the
model's other constants are fitted on NVIDIA runs (``docs/calibration.md``).
The factors are derived, never fitted on the published runs of the calibration.
"""

from __future__ import annotations

import datetime
import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sizing.engine import assumptions
from sizing.engine.assumptions import overridden
from sizing.engine.cluster import estimate_run
from sizing.engine.compute import training_flops
from sizing.engine.hardware import ACCELERATORS, peak_tflops
from sizing.engine.parallelism import workload
from sizing.engine.resolve.resolved import resolve
from sizing.engine.validation import parse_input

DATA_PATH = (
    Path(__file__).resolve().parents[1] / "tests" / "sizing" / "data" / "vendor_benchmarks.json"
)
TODAY = datetime.date(2026, 12, 2)  # dates only the answers
_TOKENS = 1e10  # tokens of the sized run: the speed ratio does not depend on it
_ITERATIONS = 5


@dataclass(frozen=True)
class Comparison:
    id: str
    stack: str
    accelerator: str
    reference: str
    measured: float  # per-accelerator speed of `accelerator` over `reference` [-]
    data: dict[str, Any]


def load_comparisons(path: Path = DATA_PATH) -> list[Comparison]:
    out = []
    for raw in json.loads(path.read_text())["comparisons"]:
        if raw["metric"] == "time_to_train_minutes":
            measured = raw["reference_value"] / raw["value"]
        else:
            measured = raw["value"] / raw["reference_value"]
        out.append(
            Comparison(
                id=raw["id"],
                stack=raw["stack"],
                accelerator=raw["accelerator"],
                reference=raw["reference"],
                measured=measured,
                data=raw,
            )
        )
    return out


def tokens_per_s_per_gpu(c: Comparison, accelerator: str) -> float:
    """The engine's training throughput per accelerator on the comparison's set-up [tokens/s]."""
    raw = c.data
    batch: dict[str, Any] = {"sequence_length": raw["sequence_length"]}
    if raw["global_batch_sequences"]:
        batch["global_batch_tokens"] = raw["global_batch_sequences"] * raw["sequence_length"]
    r = resolve(
        parse_input(
            {
                "model": {"name": raw["model"]},
                "training": {"method": raw["method"], "precision": raw["precision"]},
                "data": {"tokens": _TOKENS},
                "batch": batch,
                "hardware": {"accelerator": accelerator, "count": raw["gpus"]},
            }
        ),
        today=TODAY,
    )
    acc = ACCELERATORS[r.accelerator]
    w = workload(r)
    run = estimate_run(w, r, acc, raw["gpus"], training_flops(w.model_flops_per_token, _TOKENS, 1))
    return peak_tflops(acc, r.precision) * 1e12 * run.plan.mfu / w.model_flops_per_token


def predicted_ratio(c: Comparison) -> float:
    """The engine's per-accelerator speed of ``c.accelerator`` over ``c.reference`` [-]."""
    return tokens_per_s_per_gpu(c, c.accelerator) / tokens_per_s_per_gpu(c, c.reference)


def log2_error(c: Comparison) -> float:
    """log2(predicted / measured) with the engine's current factors."""
    return math.log2(predicted_ratio(c) / c.measured)


def derive_factor(stack: str, comparisons: Sequence[Comparison]) -> float:
    """The factor of ``stack`` at which the geometric-mean error over its comparisons is 0."""
    mine = [c for c in comparisons if c.stack == stack]
    key = f"eff_software_{stack}"
    factor = assumptions.value(key)
    for _ in range(_ITERATIONS):
        with overridden({key: factor}):
            mean_error = statistics.fmean(log2_error(c) for c in mine)
        factor *= 2.0 ** (-mean_error)
    return factor


def main() -> None:
    comparisons = load_comparisons()
    print("| comparison | measured | engine | log2 error |")
    print("|---|---|---|---|")
    for c in comparisons:
        predicted = predicted_ratio(c)
        error = math.log2(predicted / c.measured)
        print(f"| {c.id} | {c.measured:.3f} | {predicted:.3f} | {error:+.2f} |")
    print()
    for stack in sorted({c.stack for c in comparisons}):
        key = f"eff_software_{stack}"
        print(
            f"{key}: engine {assumptions.value(key):.2f}, derived {derive_factor(stack, comparisons):.4f}"
        )


if __name__ == "__main__":
    main()
