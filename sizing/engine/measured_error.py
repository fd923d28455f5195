"""How far off the engine was on published runs: the records of the generated error table.

:mod:`sizing.engine.measured_error_table` holds one :class:`MeasuredError` per slice of the
published runs (scale band, accelerator generation, architecture, precision, all rows), one
:class:`Coverage` and one :class:`RangeCalibration`, all written by
``benchmarks/range_table.py`` from the leave-one-source-out cross-validation in
``docs/calibration.md``.  :mod:`sizing.engine.ranges` turns them into the
ranges on a recommendation's headline figures.

References
----------
.. [1] T. Hastie, R. Tibshirani and J. Friedman, The Elements of Statistical Learning, 2nd
       edition (2009), sec. 7.10 (cross-validation, leaving out one group at a time).
.. [2] ``docs/calibration.md``: the published runs the errors are measured on, with their
       sources.
"""

from __future__ import annotations

from dataclasses import dataclass

# Where every figure of the table comes from.
SOURCE = "cross-validation in docs/calibration.md"


@dataclass(frozen=True)
class MeasuredError:
    """The cross-validated error of the engine's accelerator-hours on one slice of published runs.

    ``low`` and ``high`` multiply the engine's accelerator-hours to give the range [x]: the
    published runs of the slice took between ``low`` and ``high`` times what the engine
    predicted for them (between the two percentiles that ``statistic`` names, chosen so that the
    ranges hold the stated share of runs measured leave-one-source-out: :class:`RangeCalibration`).
    A slice of fewer than ``RangeCalibration.min_runs`` runs or ``min_sources`` sources is recorded
    but not used on its own: the pooled ``all`` slice stands in for it.  ``typical`` and ``worst`` are
    the median and largest factor by which the engine was off, either way [x].  Bands hold
    runs on more than ``gpus_above`` and at most ``gpus_up_to`` accelerators; other slices
    hold every count (0 and 0).
    """

    slice: str  # "band" | "generation" | "architecture" | "precision" | "all"
    key: str  # "up_to_64", "64_to_1024", "above_1024", "ampere", "hopper", "dense", "moe", ...
    runs: int  # published runs in the slice
    sources: int  # documents (papers, model cards, READMEs) those runs were read from
    low: float  # [x] of the engine's accelerator-hours, at most 1
    high: float  # [x] of the engine's accelerator-hours, at least 1
    typical: float  # [x] median |log2 error| as a factor (1.12: off by 12 % either way)
    worst: float  # [x] largest |log2 error| as a factor
    statistic: str  # how low and high were read, e.g. "10th-90th percentile"
    gpus_above: int  # [GPUs] bands only
    gpus_up_to: int  # [GPUs] bands only
    source: str
    as_of: str  # ISO date the cross-validation was run


@dataclass(frozen=True)
class Coverage:
    """What the published runs of the cross-validation span; outside it a range is widened."""

    runs: int
    groups: int  # organisations that published them
    methods: tuple[str, ...]  # training.method values
    modalities: tuple[str, ...]  # data.modality values
    precisions: tuple[str, ...]  # training.precision values
    accelerators: tuple[str, ...]  # accelerator ids
    fewest_gpus: int  # [GPUs] smallest published accelerator count
    most_gpus: int  # [GPUs] largest published accelerator count
    smallest_params: float  # [parameters] total
    largest_params: float  # [parameters] total
    source: str
    as_of: str


@dataclass(frozen=True)
class RangeCalibration:
    """How much the ranges were meant to hold, and how much they held on runs they had not seen.

    ``measured_coverage`` is the share of published runs whose figure fell inside the range the
    engine would have given them had their source (paper, model card) been left out of both the
    fit and the error table: leave-one-source-out, the ranges rebuilt for each left-out source.
    ``set_aside_coverage`` is the same share on the fifth of the sources drawn at random (seed
    ``set_aside_seed``) before any constant was chosen and never used to choose one.
    """

    stated_coverage: float  # [fraction] the share the ranges are built to hold (0.8: 8 in 10)
    measured_coverage: float  # [fraction] held, leave-one-source-out, on the runs below
    measured_runs: int  # published runs behind measured_coverage
    measured_sources: int  # their sources
    set_aside_coverage: float  # [fraction] held on the set-aside runs
    set_aside_runs: int
    set_aside_sources: tuple[str, ...]  # source ids set aside
    set_aside_seed: int
    percentiles: tuple[float, float]  # [percent] of the signed errors a range spans
    min_runs: int  # a slice with fewer runs is not used on its own (the pooled errors are)
    min_sources: int  # nor one read from fewer sources
    source: str
    as_of: str
