"""Advice when the customer's checkpoint interval wastes the run (issue 27, defect 7).

Each interruption repeats on average half an interval of work, and each checkpoint pauses
training for its snapshot: Young (CACM 17(9), 1974) and Daly (FGCS 22(3), 2006) give the
interval that loses least.  An hourly interval on 16,384 H100 (an interruption every 3.1 h:
Llama 3's 419 in 54 days on 16,384) loses half an hour of 16,384 accelerators each time;
the engine said nothing.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest

from sizing.engine.core import size
from sizing.engine.resilience import daly_interval_hours, effective_fraction, job_mtbf_hours
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 4)
SNAPSHOT_H = 10 / 3600  # MegaScale's host-memory snapshot
RESTART_H = 10 / 60  # detection and restart


@pytest.mark.parametrize(
    ("interval_h", "mtbf_h", "expected"),
    [
        # 1 / (1 + delta / tau + (restart + tau / 2) / M)
        (1.0, 3.094, 1 / (1 + SNAPSHOT_H / 1.0 + (RESTART_H + 0.5) / 3.094)),  # 0.821
        (0.129, 3.094, 1 / (1 + SNAPSHOT_H / 0.129 + (RESTART_H + 0.0645) / 3.094)),  # 0.912
        (2.0, 6337.5, 1 / (1 + SNAPSHOT_H / 2.0 + (RESTART_H + 1.0) / 6337.5)),  # 8 GPUs
    ],
)
def test_effective_training_fraction_counts_snapshots_and_repeated_work(
    interval_h: float, mtbf_h: float, expected: float
) -> None:
    assert effective_fraction(interval_h, SNAPSHOT_H, mtbf_h) == pytest.approx(expected)


@pytest.mark.parametrize("gpus", [512, 4096, 16384, 65536])
def test_dalys_interval_wastes_least(gpus: int) -> None:
    mtbf = job_mtbf_hours(gpus)
    best = daly_interval_hours(SNAPSHOT_H, mtbf)
    # Young's first-order optimum sqrt(2 delta M), which Daly refines
    assert best == pytest.approx(math.sqrt(2 * SNAPSHOT_H * mtbf), rel=0.05)
    at_best = effective_fraction(best, SNAPSHOT_H, mtbf)
    for factor in (0.5, 0.8, 1.25, 2.0, 8.0):
        assert effective_fraction(best * factor, SNAPSHOT_H, mtbf) <= at_best


def _run(gpus: int, interval_h: float | None) -> Any:
    data: dict[str, Any] = {
        "model": {"total_params": 4.0e11, "architecture": "dense"},
        "training": {"method": "pretrain"},
        "data": {"tokens": 1.5e13},
        "hardware": {"accelerator": "h100-sxm", "count": gpus},
        "batch": {"sequence_length": 8192, "global_batch_tokens": 1.6e7},
    }
    if interval_h is not None:
        data["resilience"] = {"checkpoint_interval_hours": interval_h}
    return size(parse_input(data), today=TODAY)


def test_an_hourly_interval_on_16384_gpus_gets_the_interval_that_wastes_least() -> None:
    # M = 50,700 h / 16,384 = 3.09 h; Daly's optimum for a 10 s snapshot is 7.8 minutes.
    # Hourly: 0.821 of the wall clock trains; every 8 minutes: 0.912, so the hourly run is
    # 1 - 0.821 / 0.912 = 10 % longer than it needs to be.
    rec = _run(16384, 1.0)
    (warning,) = [w for w in rec.warnings if w.startswith("checkpointing every")]
    assert "1 hour" in warning and "8 minutes" in warning
    assert "10 % longer" in warning
    assert rec.resilience.checkpoint_interval_hours == 1.0  # the customer's answer stands


def test_no_advice_when_the_engine_chose_the_interval_or_the_answer_is_near_best() -> None:
    assert not [w for w in _run(16384, None).warnings if w.startswith("checkpointing every")]
    # on 512 accelerators (M = 99 h) an hour costs well under 3 % against the optimum
    assert not [w for w in _run(512, 1.0).warnings if w.startswith("checkpointing every")]
