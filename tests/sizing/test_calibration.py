"""Accuracy on published runs, measured by leave-one-group-out cross-validation.

The harness is ``benchmarks/calibration.py`` (it prints the table in
``docs/calibration.md``).  Each organisation's rows are predicted with the
efficiency constants fitted on the other organisations only, and the engine
must beat the rule "6 x active parameters x tokens at 40 % of peak" in every
scale band.
"""

from __future__ import annotations

import pytest

from benchmarks.calibration import BANDS, Summary, cross_validate, load_rows, summarise


@pytest.fixture(scope="module")
def summaries() -> dict[str, Summary]:
    return {s.label: s for s in summarise(cross_validate(load_rows()))}


def test_every_row_has_a_source_and_a_group() -> None:
    rows = load_rows()
    assert len(rows) >= 60
    assert len({r.group for r in rows}) >= 10
    assert all(r.data["source"] for r in rows)


@pytest.mark.parametrize("band", [name for name, _, _ in BANDS])
def test_cross_validated_engine_beats_the_6nd_rule_in_every_band(
    summaries: dict[str, Summary], band: str
) -> None:
    s = summaries[band]
    assert s.n >= 10
    assert s.median < s.rule_median, s


@pytest.mark.parametrize("label", ["dense", "MoE", "BF16", "FP8"])
def test_cross_validated_engine_beats_the_rule_per_architecture_and_precision(
    summaries: dict[str, Summary], label: str
) -> None:
    s = summaries[label]
    assert s.median < s.rule_median, s
