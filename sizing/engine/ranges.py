"""Ranges on the headline figures, from the engine's error on published runs it had not seen.

The engine's accelerator-hours were off by a measured amount on published runs whose source
(paper, model card, README) was left out of its fit (:mod:`sizing.engine.measured_error_table`,
written by ``benchmarks/range_table.py``).  :func:`confidence` reads the slices of
that table that describe one run, its **regime**, and returns the factors of its range:

* the **scale band** of the run's accelerator count (up to 64, 65 to 1,024, more than 1,024);
* the **accelerator generation** (Ampere, Hopper) of the published runs on the same one;
* **dense or mixture-of-experts**, and the training **precision** (BF16, FP8).

Each of the four contributes its slice's range when the slice holds enough runs from enough
sources to measure (:class:`~sizing.engine.measured_error.RangeCalibration` ``min_runs``,
``min_sources``); one that does not contributes the errors of every published run (the pooled
slice) instead, and the words say so.  The range spans the widest ends of what the four
contribute.  The percentiles of each slice were chosen so that ranges built this way held the
stated share of runs, measured leave-one-source-out (``CALIBRATION.measured_coverage``, quoted
in the words).  **Outside** what the published runs cover (a training method, kind of data,
precision or accelerator no published run used; fewer or more accelerators, or a smaller or
larger model, than any of them) the range spans at least the worst error on any published run,
in both directions: the engine has no evidence that it does better there.

**Measured** on the customer's own hardware (the verification kit, :mod:`.measured`): the
engine's share of peak for that accelerator is the one measured, not the calibrated one, so an
accelerator no published run used is no longer a reason to widen the range (the kit measured
what the published runs would have told); the other reasons stay.  The words then name the
measurement and the range it narrowed from.

Accelerator-hours, days and the cost of one run scale with these factors.  The accelerators
needed to meet the deadline scale with them too (:func:`gpus_needed`), when the engine sized
the cluster for a deadline it meets; otherwise the count stays and the days move.

References
----------
.. [1] T. Hastie, R. Tibshirani and J. Friedman, The Elements of Statistical Learning, 2nd
       edition (2009), sec. 7.10: cross-validation, the error measured on data left out of the
       fit, as ``benchmarks/calibration.py`` measures it by source of published runs.
.. [2] ``docs/calibration.md``: the published runs (each with its paper) and the error table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .assumptions import value
from .hardware import ACCELERATORS
from .measured import measured_matmul_share, measured_tflops
from .measured_error import MeasuredError, RangeCalibration
from .measured_error_table import CALIBRATION, COVERAGE, MEASURED_ERRORS
from .numbers import format_count, format_percent
from .resolve.resolved import Resolved
from .team_experience import slow_end_factor
from .vendor_scale import evidence_gpus, thin_evidence_widening
from .vocabulary import value_words

# Methods whose work per token is pre-training's (6 N + 12 L h s FLOPs, an optimizer step on
# every weight: docs/engine.md, Compute), so pre-training runs describe them; LoRA and QLoRA
# train adapters on a frozen model and are not covered.
_SAME_WORK_AS = {"continued_pretrain": "pretrain", "full_finetune": "pretrain"}
_EVERY_COUNT = 10**9  # the top band's upper bound in the table

# NVIDIA architecture generation of the accelerators (NVIDIA A100, H100, H800 and H200 datasheets:
# A100 and RTX A6000 are Ampere, H100, H800 and H200 Hopper): the regime "generation" of the error
# table.  Others have no published run in the table and fall outside (``accelerator``).
GENERATIONS = {
    "a100-40gb": "ampere",
    "a100-80gb": "ampere",
    "rtx-a6000": "ampere",
    "h100-sxm": "hopper",
    "h100-pcie": "hopper",
    "h800": "hopper",
    "h200": "hopper",
}
# The slices of a regime, in the order the words name them.
REGIME_SLICES = ("band", "generation", "architecture", "precision")


@dataclass(frozen=True)
class Regime:
    """What about one run picks the slices of the error table: its key in each slice."""

    band: str  # "up_to_64" | "64_to_1024" | "above_1024"
    generation: str | None  # "ampere" | "hopper"; None for another accelerator
    architecture: str  # "dense" | "moe"
    precision: str  # "bf16" | "fp8" | ...

    def key(self, slice_: str) -> str | None:
        return {
            "band": self.band,
            "generation": self.generation,
            "architecture": self.architecture,
            "precision": self.precision,
        }[slice_]


@dataclass(frozen=True)
class RegimeRange:
    """The factors of one regime's range and the slices behind them."""

    low: float  # [x] at most 1
    high: float  # [x] at least 1
    used: tuple[MeasuredError, ...]  # slices whose errors set the range (the pooled one last)
    thin: tuple[MeasuredError, ...]  # the regime's slices with too few runs or sources alone


def regime_range(
    regime: Regime, errors: tuple[MeasuredError, ...], *, min_runs: int, min_sources: int
) -> RegimeRange:
    """The range of a run of ``regime`` from the error table ``errors``.

    Each slice of the regime with at least ``min_runs`` runs from ``min_sources`` sources gives
    its range; a slice with fewer (or none: no published run of that kind) gives the pooled
    range of every run instead.  The range spans the widest ends.
    """

    def slice_of(slice_: str) -> MeasuredError | None:
        key = regime.key(slice_)
        return next((e for e in errors if e.slice == slice_ and e.key == key), None)

    def enough(e: MeasuredError) -> bool:
        return e.runs >= min_runs and e.sources >= min_sources

    found = [slice_of(s) for s in REGIME_SLICES]
    used = [e for e in found if e is not None and enough(e)]
    thin = tuple(e for e in found if e is not None and not enough(e))
    pooled = next(e for e in errors if e.slice == "all")
    if len(used) < len(REGIME_SLICES):
        used.append(pooled)
    return RegimeRange(
        low=min(1.0, *(e.low for e in used)),
        high=max(1.0, *(e.high for e in used)),
        used=tuple(used),
        thin=thin,
    )


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
    # the range without the kit's measurement [x], when the measurement narrowed it
    unmeasured_factors: tuple[float, float] | None = None


def band_of(gpus: int, errors: tuple[MeasuredError, ...]) -> MeasuredError:
    """The scale band of ``gpus`` accelerators in the error table ``errors``."""
    bands = sorted((e for e in errors if e.slice == "band"), key=lambda e: e.gpus_up_to)
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
    band = band_of(gpus, MEASURED_ERRORS)
    regime = Regime(
        band=band.key,
        generation=GENERATIONS.get(r.accelerator),
        architecture=r.architecture,
        precision=r.precision,
    )
    measured = regime_range(
        regime,
        MEASURED_ERRORS,
        min_runs=CALIBRATION.min_runs,
        min_sources=CALIBRATION.min_sources,
    )
    every = next(e for e in MEASURED_ERRORS if e.slice == "all")
    share = measured_matmul_share(r.measured, r.accelerator, r.precision)
    outside = tuple(
        reason
        for reason in outside_coverage(r, gpus)
        if not (reason == "accelerator" and share is not None)
    )
    unmeasured = _factors(measured, outside_coverage(r, gpus), every)
    low, high, used = _factors(measured, outside, every)
    # a stack's factor measured on fewer accelerators than this run: wider still (one node
    # measured by the kit says nothing of the stack at scale, so it widens both)
    software = ACCELERATORS[r.accelerator].software
    widening = thin_evidence_widening(software, gpus)
    if widening > 1.0:
        low, high = low / widening, high * widening
        unmeasured = (unmeasured[0] / widening, unmeasured[1] * widening, unmeasured[2])
        outside = (*outside, "vendor_scale")
    # no one on the team knows the set-up: the slow end reaches what published teams took
    team_high = slow_end_factor(r.team_knows_setup)
    high = max(high, team_high)
    unmeasured = (unmeasured[0], max(unmeasured[1], team_high), unmeasured[2])
    narrowed = (unmeasured[0], unmeasured[1]) if (low, high) != unmeasured[:2] else None
    summary = _summary(r, band, measured, outside, every.worst)
    if team_high > 1.0:
        summary += " " + team_words(team_high)
    if share is not None:
        summary += " " + measured_words(r, share, narrowed, (low, high))
    return ConfidenceResult(
        band=band.key,
        published_runs=band.runs,
        low_factor=low,
        high_factor=high,
        typical_error=max(e.typical for e in used),
        covered=not outside,
        outside=outside,
        slices=used,
        summary=summary,
        unmeasured_factors=narrowed,
    )


def _factors(
    measured: RegimeRange, outside: tuple[str, ...], every: MeasuredError
) -> tuple[float, float, tuple[MeasuredError, ...]]:
    """The range's low and high factors and the slices behind them: the regime's, widened to
    the worst error on any published run when something about the run is ``outside``."""
    low, high, used = measured.low, measured.high, measured.used
    if outside:
        low, high = min(low, 1.0 / every.worst), max(high, every.worst)
        used = used if every in used else (*used, every)
    return low, high, used


def team_words(high: float) -> str:
    """Why the slow end is wider for a team new to its set-up, in plain words."""
    return (
        "You told us no one on your team knows the training set-up yet: published runs by "
        "teams outside the largest labs and the frameworks' makers took up to "
        f"{format_count(high, digits=2)} times our estimate of the accelerator-hours, so the "
        f"ranges reach at least {format_count(high, digits=2)} times it."
    )


def measured_words(
    r: Resolved,
    share: float,
    narrowed: tuple[float, float] | None,
    factors: tuple[float, float],
) -> str:
    """What the kit measured, on what, and how the range moved, in plain words."""
    name = ACCELERATORS[r.accelerator].name
    tflops = measured_tflops(r.measured, r.precision) or 0.0
    text = (
        f"Measured on your {name}: its matrix multiplies ran at {format_count(tflops)} "
        f"TFLOP/s in {value_words('training.precision', r.precision)}, "
        f"{format_percent(share)} of its peak; we used that instead of our assumption "
        f"({format_percent(value('eff_matmul_ceiling'))})."
    )
    if narrowed is None:
        return text + " The range stays as it was: published runs on it already back it."
    return text + (
        f" So the range narrowed from {_factor_words(narrowed)} to {_factor_words(factors)} "
        "our estimate of the accelerator-hours."
    )


def _factor_words(factors: tuple[float, float]) -> str:
    return f"{format_count(factors[0], digits=2)}–{format_count(factors[1], digits=2)} times"


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


def coverage_words(c: RangeCalibration) -> str:
    """How much ranges built this way held on runs they had not seen, as measured."""
    return (
        f"Ranges built this way held {format_percent(c.measured_coverage)} of "
        f"{format_count(c.measured_runs)} published runs left out of our fit (we aim for "
        f"{format_percent(c.stated_coverage)})."
    )


# The regimes the words name when their own errors widen a range, or are too few to measure.
_KINDS = {"moe": "mixture-of-experts models", "fp8": "runs in FP8"}


def _outside_words(r: Resolved, reason: str) -> str:
    c = COVERAGE
    software = ACCELERATORS[r.accelerator].software
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
        "vendor_scale": "ran its software stack on this many accelerators (the public "
        f"comparisons stop at {format_count(evidence_gpus(software) or 0)}; wider still, by "
        f"{format_count(thin_evidence_widening(software, 10**9), digits=2)} times)",
    }
    return words[reason]


def _summary(
    r: Resolved,
    band: MeasuredError,
    measured: RegimeRange,
    outside: tuple[str, ...],
    worst: float,
) -> str:
    """What backs the range, in plain words."""
    text = [
        f"The ranges are backed by {format_count(band.runs)} published training runs on "
        f"{band_words(band)}: our estimates of their accelerator-hours were {_within(band)}.",
        coverage_words(CALIBRATION),
    ]
    for e in measured.used:
        if e.key in _KINDS:
            text.append(
                f"Estimates for {_KINDS[e.key]} are less certain: on {format_count(e.runs)} "
                f"published ones ours were {_within(e)}, so the ranges are wider."
            )
    thin = [f"{_KINDS[e.key]} ({format_count(e.runs)})" for e in measured.thin if e.key in _KINDS]
    if thin:
        text.append(
            f"Too few published {' or '.join(thin)} to measure our error on them alone, so the "
            "ranges also span our error on every published run."
        )
    if outside:
        reasons = " or ".join(_outside_words(r, reason) for reason in outside)
        text.append(
            f"No published run we compare with {reasons}, so the ranges are widened to the "
            f"largest error on any of them ({format_count(worst, digits=2)} times either way)."
        )
    return " ".join(text)
