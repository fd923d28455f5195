"""Accuracy on published runs, measured by leave-one-group-out cross-validation.

The harness is ``benchmarks/calibration.py`` (it prints the table in
``docs/calibration.md``).  Each organisation's rows are predicted with the
efficiency constants fitted on the other organisations only, and the engine
must beat the rule "6 x active parameters x tokens at 40 % of peak" in every
scale band.
"""

from __future__ import annotations

import pytest

from benchmarks.calibration import (
    BANDS,
    WRITE_RANGES,
    Result,
    Row,
    Summary,
    coverage,
    cross_validate,
    load_rows,
    measured_errors,
    summarise,
    table_is_current,
)


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return load_rows()


@pytest.fixture(scope="module")
def results(rows: list[Row]) -> list[Result]:
    return cross_validate(rows)


@pytest.fixture(scope="module")
def summaries(results: list[Result]) -> dict[str, Summary]:
    return {s.label: s for s in summarise(results)}


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


def test_the_checked_in_error_table_is_what_the_harness_computes_now(
    rows: list[Row], results: list[Result]
) -> None:
    """The ranges on every recommendation read sizing/engine/measured_error_table.py."""
    current = table_is_current(measured_errors(results, ""), coverage(rows, ""))
    assert current, f"the error table behind the ranges is out of date: run {WRITE_RANGES}"
