"""Ranges on the headline figures, from the engine's cross-validated error on published runs.

The engine's accelerator-hours were off by a measured amount on published runs it had not been
fitted on (:mod:`sizing.engine.measured_error_table`, written by
``benchmarks/calibration.py --write-ranges``).  :func:`confidence` picks the slices of that
table that describe one run and returns the factors of its range:

* the **scale band** of the run's accelerator count (up to 64, 65 to 1,024, more than 1,024);
* the **mixture-of-experts** slice for an MoE model and the **FP8** slice for FP8 training,
  which the engine predicts less well; the range spans every slice used (the widest ends);
* **outside** what the published runs cover (a training method, kind of data, precision or
  accelerator no published run used; fewer or more accelerators, or a smaller or larger model,
  than any of them), the range spans at least the worst error on any published run, in both
  directions: the engine has no evidence that it does better there.

Accelerator-hours, days and the cost of one run scale with these factors.  The accelerators
needed to meet the deadline scale with them too (:func:`gpus_needed`), when the engine sized
the cluster for a deadline it meets; otherwise the count stays and the days move.

References
----------
.. [1] T. Hastie, R. Tibshirani and J. Friedman, The Elements of Statistical Learning, 2nd
       edition (2009), sec. 7.10: cross-validation, the error measured on data left out of the
       fit, as ``benchmarks/calibration.py`` measures it by group of published runs.
.. [2] ``docs/calibration.md``: the published runs (each with its paper) and the error table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .hardware import ACCELERATORS
from .measured_error import MeasuredError
from .measured_error_table import COVERAGE, MEASURED_ERRORS
from .numbers import format_count, format_percent
from .resolve.resolved import Resolved
from .vocabulary import value_words

# Methods whose work per token is pre-training's (6 N + 12 L h s FLOPs, an optimizer step on
# every weight: docs/engine.md, Compute), so pre-training runs describe them; LoRA and QLoRA
# train adapters on a frozen model and are not covered.
_SAME_WORK_AS = {"continued_pretrain": "pretrain", "full_finetune": "pretrain"}
_EVERY_COUNT = 10**9  # the top band's upper bound in the table


@dataclass(frozen=True)
class ConfidenceResult:
    """How far the headline figures may be off, and what backs that.

    ``low_factor`` and ``high_factor`` multiply the engine's accelerator-hours [x];
    ``slices`` are the rows of the error table behind them.
    """

    band: str  # key of the scale band of one run's accelerators
    published_runs: int  # published runs in that band
    low_factor: float  # [x] at most 1
    high_factor: float  # [x] at least 1
    typical_error: float  # [x] the largest median error of the slices used
    covered: bool  # False: outside what the published runs cover, range widened
    outside: tuple[str, ...]  # why: method, modality, precision, accelerator, fewer_gpus ...
    slices: tuple[MeasuredError, ...]
    summary: str  # in plain words


def _slice(slice_: str, key: str) -> MeasuredError | None:
    return next((e for e in MEASURED_ERRORS if e.slice == slice_ and e.key == key), None)


def _band(gpus: int) -> MeasuredError:
    bands = sorted((e for e in MEASURED_ERRORS if e.slice == "band"), key=lambda e: e.gpus_up_to)
    return next((e for e in bands if gpus <= e.gpus_up_to), bands[-1])


def outside_coverage(r: Resolved, gpus: int) -> tuple[str, ...]:
    """What about this run no published run of the table covers (empty when all is covered)."""
    c = COVERAGE
    checks = (
        ("method", _SAME_WORK_AS.get(r.method, r.method) not in c.methods),
        ("modality", r.modality not in c.modalities),
        ("precision", r.precision not in c.precisions),
        ("accelerator", r.accelerator not in c.accelerators),
        ("fewer_gpus", gpus < c.fewest_gpus),
        ("more_gpus", gpus > c.most_gpus),
        ("smaller_model", r.total_params < c.smallest_params),
        ("larger_model", r.total_params > c.largest_params),
    )
    return tuple(reason for reason, applies in checks if applies)


def confidence(r: Resolved, gpus: int) -> ConfidenceResult:
    """The range factors of one run on ``gpus`` accelerators, and what backs them."""
    band = _band(gpus)
    extra = (
        _slice("architecture", "moe") if r.architecture == "moe" else None,
        _slice("precision", "fp8") if r.precision == "fp8" else None,
    )
    used = (band, *(e for e in extra if e is not None))
    low, high = min(e.low for e in used), max(e.high for e in used)
    outside = outside_coverage(r, gpus)
    every = _slice("all", "all") or band
    if outside:
        low, high = min(low, 1.0 / every.worst), max(high, every.worst)
        used = (*used, every)
    return ConfidenceResult(
        band=band.key,
        published_runs=band.runs,
        low_factor=low,
        high_factor=high,
        typical_error=max(e.typical for e in used),
        covered=not outside,
        outside=outside,
        slices=used,
        summary=_summary(r, band, used[1:], outside, every.worst),
    )


def spread(value: float, c: ConfidenceResult) -> tuple[float, float]:
    """The low and high ends of a figure that scales with the accelerator-hours."""
    return scale_range(value, value, (c.low_factor, c.high_factor))


def scale_range(low: float, high: float, factors: tuple[float, float]) -> tuple[float, float]:
    """A range widened by the low and high factors of another (a cost by the hours' range)."""
    return low * factors[0], high * factors[1]


def gpus_needed(
    job_gpus: int, days: float, deadline_days: float, min_gpus: int, factor: float
) -> int:
    """Accelerators one run needs to meet the deadline if it takes ``factor`` times the hours.

    Assumes the time falls in proportion to the count (strong scaling is a little worse, so
    the high end is a lower bound); never fewer than fit the model in memory.
    """
    share = days / deadline_days if deadline_days > 0 else 1.0
    return max(min_gpus, 1, math.ceil(job_gpus * factor * share))


def band_words(e: MeasuredError) -> str:
    """A scale band as people say it: "65 to 1,024 accelerators"."""
    if e.gpus_up_to >= _EVERY_COUNT:
        return f"more than {format_count(e.gpus_above)} accelerators"
    if e.gpus_above == 0:
        return f"up to {format_count(e.gpus_up_to)} accelerators"
    return f"{format_count(e.gpus_above + 1)} to {format_count(e.gpus_up_to)} accelerators"


def _within(e: MeasuredError) -> str:
    return f"typically within {format_percent(e.typical - 1.0)}"


def _share(e: MeasuredError) -> str:
    return "8 in 10 of them" if e.statistic.startswith("10th") else "all of them"


def _outside_words(r: Resolved, reason: str) -> str:
    c = COVERAGE
    words = {
        "method": f"used {value_words('training.method', r.method)}",
        "modality": f"trained on {value_words('data.modality', r.modality).lower()}",
        "precision": f"trained in {value_words('training.precision', r.precision)}",
        "accelerator": f"ran on {ACCELERATORS[r.accelerator].name}",
        "fewer_gpus": f"ran on fewer than {format_count(c.fewest_gpus)} accelerators",
        "more_gpus": f"ran on more than {format_count(c.most_gpus)} accelerators",
        "smaller_model": f"trained a model smaller than {format_count(c.smallest_params)} "
        "parameters",
        "larger_model": f"trained a model larger than {format_count(c.largest_params)} parameters",
    }
    return words[reason]


def _summary(
    r: Resolved,
    band: MeasuredError,
    others: tuple[MeasuredError, ...],
    outside: tuple[str, ...],
    worst: float,
) -> str:
    """What backs the range, in plain words."""
    text = [
        f"The ranges are backed by {format_count(band.runs)} published training runs on "
        f"{band_words(band)}: our estimates of their accelerator-hours were {_within(band)}, "
        f"and the ranges cover {_share(band)}."
    ]
    kinds = {"moe": "mixture-of-experts models", "fp8": "runs in FP8"}
    for e in others:
        if e.key in kinds:
            text.append(
                f"Estimates for {kinds[e.key]} are less certain: on {format_count(e.runs)} "
                f"published ones ours were {_within(e)}, so the ranges are wider."
            )
    if outside:
        reasons = " or ".join(_outside_words(r, reason) for reason in outside)
        text.append(
            f"No published run we compare with {reasons}, so the ranges are widened to the "
            f"largest error on any of them ({format_count(worst, digits=2)} times either way)."
        )
    return " ".join(text)
