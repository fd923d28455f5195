"""Checkpoint-interval formulas against Young (1974) and Daly (2006)."""

from __future__ import annotations

import pytest

from sizing.engine.resilience import daly_interval_hours, job_mtbf_hours, young_interval_hours


@pytest.mark.parametrize(
    ("mtbf_h", "daly_min", "young_min"),
    [(24.0, 116.7, 120.0), (6.0, 56.7, 60.0), (0.25, 9.14, 12.2)],
)
def test_daly_and_young_reproduce_published_optima(
    mtbf_h: float, daly_min: float, young_min: float
) -> None:
    delta = 5 / 60
    assert daly_interval_hours(delta, mtbf_h) * 60 == pytest.approx(daly_min, abs=0.2)
    assert young_interval_hours(delta, mtbf_h) * 60 == pytest.approx(young_min, abs=0.2)


def test_llama3_cluster_interrupts_every_three_hours() -> None:
    assert job_mtbf_hours(16384) == pytest.approx(3.09, rel=0.01)
