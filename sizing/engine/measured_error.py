"""How far off the engine was on published runs: the records of the generated error table.

:mod:`sizing.engine.measured_error_table` holds one :class:`MeasuredError` per slice of the
published runs (scale band, architecture, precision, all rows) and one :class:`Coverage`, both
written by ``benchmarks/calibration.py --write-ranges`` from the leave-one-group-out
cross-validation in ``docs/calibration.md``.  :mod:`sizing.engine.ranges` turns them into the
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
    predicted for them (between the 10th and 90th percentile, or the smallest and largest
    error for a slice with few runs: ``statistic`` says which).  ``typical`` and ``worst`` are
    the median and largest factor by which the engine was off, either way [x].  Bands hold
    runs on more than ``gpus_above`` and at most ``gpus_up_to`` accelerators; other slices
    hold every count (0 and 0).
    """

    slice: str  # "band" | "architecture" | "precision" | "all"
    key: str  # "up_to_64", "64_to_1024", "above_1024", "dense", "moe", "bf16", "fp8", "all"
    runs: int  # published runs in the slice
    low: float  # [x] of the engine's accelerator-hours, at most 1
    high: float  # [x] of the engine's accelerator-hours, at least 1
    typical: float  # [x] median |log2 error| as a factor (1.12: off by 12 % either way)
    worst: float  # [x] largest |log2 error| as a factor
    statistic: str  # how low and high were read: "10th-90th percentile" | "smallest-largest"
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
