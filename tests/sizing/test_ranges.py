"""Ranges on the headline figures, from the engine's cross-validated error on published runs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from benchmarks.calibration import Result, Row
from benchmarks.range_table import measured_errors
from sizing.engine import ACCELERATORS, ranges, size_dict
from sizing.engine.measured_error import MeasuredError
from sizing.engine.measured_error_table import CALIBRATION, COVERAGE, MEASURED_ERRORS
from sizing.engine.numbers import format_percent
from tests.sizing.test_deadline import LLAMA_405B_15T_30D, _with

EXAMPLES = Path(__file__).resolve().parents[2] / "sizing" / "engine" / "examples"

DENSE_7B: dict[str, Any] = {
    "model": {"name": "Llama 2 7B"},
    "training": {"method": "pretrain", "precision": "bf16"},
    "data": {"tokens": 1e12},
    "hardware": {"accelerator": "h100-sxm"},
    "schedule": {"deadline_days": 30},
}
LORA_ON_ONE_GPU: dict[str, Any] = {
    "model": {"name": "Llama 3.1 8B"},
    "training": {"method": "lora"},
    "data": {"tokens": 1e7},
    "hardware": {"accelerator": "h100-sxm", "count": 1},
}
# 70B, few tokens: the memory minimum finishes far inside the deadline.
FULL_FINETUNE_70B_SHORT: dict[str, Any] = {
    "model": {"name": "Llama 2 70B"},
    "training": {"method": "full_finetune"},
    "data": {"tokens": 1e8},
    "hardware": {"accelerator": "h100-sxm"},
    "schedule": {"deadline_days": 30},
}


CASES: dict[str, dict[str, Any]] = {
    **{path.stem: json.loads(path.read_text()) for path in sorted(EXAMPLES.glob("*.json"))},
    "dense-7b-sized": DENSE_7B,
    "dense-7b-on-256": _with(DENSE_7B, "hardware", count=256),
    "405b-deadline-not-met": LLAMA_405B_15T_30D,
    "lora-on-one-gpu": LORA_ON_ONE_GPU,
    "70b-finetune-short": FULL_FINETUNE_70B_SHORT,
}


@pytest.fixture(scope="module")
def sized() -> dict[str, dict[str, Any]]:
    return {name: size_dict(data) for name, data in CASES.items()}


def _table(slice_: str, key: str) -> MeasuredError:
    return next(e for e in MEASURED_ERRORS if e.slice == slice_ and e.key == key)


def _band_for(gpus: int) -> MeasuredError:
    bands = sorted((e for e in MEASURED_ERRORS if e.slice == "band"), key=lambda e: e.gpus_up_to)
    return next(e for e in bands if gpus <= e.gpus_up_to)


def _factors(out: dict[str, Any]) -> tuple[float, float]:
    return out["confidence"]["low_factor"], out["confidence"]["high_factor"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_range_contains_its_figure(sized: dict[str, dict[str, Any]], case: str) -> None:
    out = sized[case]
    figures = [
        (out["compute"]["gpu_hours_range"], out["compute"]["gpu_hours"]),
        (
            out["compute"]["all_experiments_gpu_hours_range"],
            out["compute"]["all_experiments_gpu_hours"],
        ),
        (out["timeline"]["wall_clock_days_range"], out["timeline"]["wall_clock_days"]),
        (out["timeline"]["all_experiments_days_range"], out["timeline"]["all_experiments_days"]),
        (out["cluster"]["gpus_range"], out["cluster"]["gpus"]),
        *(
            (option["range_usd"], option["net_usd"])
            for option in out["cost"].values()
            if isinstance(option, dict) and "range_usd" in option
        ),
    ]
    if out["cost"]["one_run_cloud_usd"] is not None:
        figures.append((out["cost"]["one_run_cloud_range_usd"], out["cost"]["one_run_cloud_usd"]))
    for (low, high), point in figures:
        assert low <= point <= high
    low_factor, high_factor = _factors(out)
    assert low_factor < 1.0 < high_factor


@pytest.mark.parametrize("count", [32, 256, 2048])
def test_a_covered_run_takes_the_widest_measured_error_of_its_regime(count: int) -> None:
    """A dense BF16 run on H100: its scale band, Hopper, dense and BF16 slices, all measured."""
    out = size_dict(_with(DENSE_7B, "hardware", count=count))
    band = _band_for(count)
    regime = (band, _table("generation", "hopper"), _table("architecture", "dense"))
    regime += (_table("precision", "bf16"),)
    assert all(e.runs >= CALIBRATION.min_runs for e in regime)
    sure = out["confidence"]
    assert sure["covered"] and sure["outside"] == []
    assert (sure["band"], sure["published_runs"]) == (band.key, band.runs)
    low_factor, high_factor = min(e.low for e in regime), max(e.high for e in regime)
    assert _factors(out) == (low_factor, high_factor)
    assert [s["key"] for s in sure["slices"]] == [band.key, "hopper", "dense", "bf16"]
    low, high = out["compute"]["gpu_hours_range"]
    hours = out["compute"]["gpu_hours"]
    assert low == pytest.approx(hours * low_factor, rel=1e-5)
    assert high == pytest.approx(hours * high_factor, rel=1e-5)


def test_the_words_quote_the_measured_coverage(sized: dict[str, dict[str, Any]]) -> None:
    summary = sized["dense-7b-sized"]["confidence"]["summary"]
    assert "8 in 10" not in summary  # the old claim, never measured
    assert f"{format_percent(CALIBRATION.measured_coverage)} of " in summary
    assert f"{CALIBRATION.measured_runs} published runs" in summary


def test_a_regime_with_too_few_runs_takes_the_pooled_errors() -> None:
    """Too few runs, or runs from too few sources, to measure a slice alone: pooled instead."""
    pooled = replace(_table("all", "all"), low=0.8, high=1.3)
    band = replace(_table("band", "up_to_64"), low=0.9, high=1.1, runs=12, sources=5)
    few_runs = replace(_table("architecture", "dense"), key="moe", low=0.2, high=5.0, runs=6)
    one_paper = replace(_table("precision", "bf16"), key="fp8", low=0.3, high=4.0, sources=1)
    regime = ranges.Regime(band="up_to_64", generation=None, architecture="moe", precision="fp8")
    got = ranges.regime_range(
        regime, (pooled, band, few_runs, one_paper), min_runs=10, min_sources=3
    )
    assert (got.low, got.high) == (0.8, 1.3)
    assert got.used == (band, pooled)
    assert got.thin == (few_runs, one_paper)
    measured = replace(few_runs, runs=10, sources=3)
    got = ranges.regime_range(
        regime, (pooled, band, measured, one_paper), min_runs=10, min_sources=3
    )
    assert (got.low, got.high) == (0.2, 5.0)


def _band(key: str, low: float, high: float, above: int, up_to: int) -> MeasuredError:
    return replace(
        _table("band", "up_to_64"), key=key, low=low, high=high, gpus_above=above, gpus_up_to=up_to
    )


def test_a_band_with_more_cross_validated_error_gives_a_wider_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = (
        _band("up_to_64", 0.9, 1.1, 0, 64),
        _band("64_to_1024", 0.5, 2.0, 64, 1024),
        _band("above_1024", 0.8, 1.25, 1024, 10**9),
        replace(_table("all", "all"), low=0.95, high=1.05),
    )
    monkeypatch.setattr(ranges, "MEASURED_ERRORS", table)
    widths = {}
    for count in (32, 256, 2048):
        low, high = size_dict(_with(DENSE_7B, "hardware", count=count))["compute"][
            "gpu_hours_range"
        ]
        widths[count] = high / low
    assert widths[256] > widths[2048] > widths[32]


def _row(band: str, group: str) -> Row:
    return Row(
        id=f"{band}-{group}",
        group=group,
        source=group,
        metric="gpu_hours",
        observed=1.0,
        rule=1.0,
        band=band,
        architecture="dense",
        precision="BF16",
        data={},
    )


def test_the_harness_reads_a_wider_range_from_larger_errors() -> None:
    """Runs that took 2^-e times the engine's hours: the band with the larger errors is wider."""
    errors = {"up to 64 GPUs": 0.1, "64-1,024 GPUs": 0.6}
    results = [
        Result(row=_row(band, f"g{i}"), predicted=2.0 ** (e * k), fitted=())
        for band, e in errors.items()
        for i, k in enumerate((-1.0, -0.5, 0.0, 0.5, 1.0) * 2)
    ]
    table = {m.key: m for m in measured_errors(results, "2026-12-02", (10.0, 90.0))}
    small, large = table["up_to_64"], table["64_to_1024"]
    assert large.low < small.low < 1.0 < small.high < large.high
    assert (large.runs, large.sources, large.statistic) == (10, 10, "10th-90th percentile")
    # A speed metric (MFU) that the engine overestimates means too few hours: the range goes up.
    fast = [
        Result(row=replace(_row("up to 64 GPUs", f"g{i}"), metric="mfu"), predicted=p, fitted=())
        for i, p in enumerate((1.2, 1.3, 1.4))
    ]
    (too_fast,) = (
        m for m in measured_errors(fast, "2026-12-02", (0.0, 100.0)) if m.key == "up_to_64"
    )
    assert too_fast.low == 1.0 and too_fast.high == pytest.approx(1.4, rel=1e-2)
    assert too_fast.statistic == "0th-100th percentile"


def test_a_given_count_stays_and_the_days_move(sized: dict[str, dict[str, Any]]) -> None:
    out = sized["dense-7b-on-256"]
    assert out["cluster"]["gpus_range"] == [256, 256]
    low, high = out["timeline"]["wall_clock_days_range"]
    days = out["timeline"]["wall_clock_days"]
    low_factor, high_factor = _factors(out)
    assert low == pytest.approx(days * low_factor, rel=1e-5)
    assert high == pytest.approx(days * high_factor, rel=1e-5)


def test_when_the_deadline_sets_the_size_the_count_needed_moves_with_the_hours(
    sized: dict[str, dict[str, Any]],
) -> None:
    out = sized["startup_7b_pretrain"]
    assert out["timeline"]["deadline"]["met"]
    gpus = out["cluster"]["gpus"]
    low, high = out["cluster"]["gpus_range"]
    assert low < gpus < high  # fewer if the run is faster than estimated, more if slower
    low_factor, high_factor = _factors(out)
    share = out["timeline"]["wall_clock_days"] / out["timeline"]["deadline_days"]
    assert high >= gpus * high_factor * share  # at least proportionally more
    assert low >= out["memory"]["min_gpus"]
    # The three-year options price the cluster recommended: their range takes the hours' range
    # on the part that scales with hours (docs/cost.md), not the count needed, so the same
    # cluster given as a count has the same range.
    given = size_dict(_with(CASES["startup_7b_pretrain"], "hardware", count=gpus))
    for option in ("cloud_on_demand", "buy"):
        assert given["cost"][option]["total_usd"] == out["cost"][option]["total_usd"]
        assert given["cost"][option]["range_usd"] == out["cost"][option]["range_usd"]


def test_with_room_to_spare_before_the_deadline_the_count_stays(
    sized: dict[str, dict[str, Any]],
) -> None:
    out = sized["70b-finetune-short"]
    days, deadline = out["timeline"]["wall_clock_days"], out["timeline"]["deadline_days"]
    assert days * out["confidence"]["high_factor"] < deadline
    assert out["cluster"]["gpus_range"] == [out["cluster"]["gpus"]] * 2


def test_when_no_size_meets_the_deadline_the_count_stays_and_the_days_move(
    sized: dict[str, dict[str, Any]],
) -> None:
    out = sized["405b-deadline-not-met"]
    assert not out["timeline"]["deadline"]["met"]
    assert out["cluster"]["gpus_range"] == [out["cluster"]["gpus"]] * 2
    low, high = out["timeline"]["wall_clock_days_range"]
    assert low < out["timeline"]["wall_clock_days"] < high


def test_one_run_in_the_cloud_scales_with_the_hours(sized: dict[str, dict[str, Any]]) -> None:
    out = sized["startup_7b_pretrain"]
    cost, hours = out["cost"]["one_run_cloud_range_usd"], out["compute"]["gpu_hours_range"]
    per_hour = out["cost"]["one_run_cloud_usd"] / out["compute"]["gpu_hours"]
    assert cost == pytest.approx([hours[0] * per_hour, hours[1] * per_hour], rel=1e-5)


def test_a_run_outside_the_published_runs_says_so_and_is_widened(
    sized: dict[str, dict[str, Any]],
) -> None:
    out = sized["lora-on-one-gpu"]
    sure = out["confidence"]
    assert not sure["covered"]
    assert {"method", "fewer_gpus"} <= set(sure["outside"])
    worst = _table("all", "all").worst
    low, high = _factors(out)
    assert low * worst <= 1.0 + 1e-5 and high >= worst  # the output keeps 6 digits
    assert "LoRA" in sure["summary"]
    assert f"fewer than {COVERAGE.fewest_gpus} accelerators" in sure["summary"]


def test_an_accelerator_no_published_run_used_is_outside() -> None:
    assert "mi300x" not in COVERAGE.accelerators
    out = size_dict(_with(_with(DENSE_7B, "hardware", accelerator="mi300x"), "hardware", count=64))
    sure = out["confidence"]
    # and ROCm's own comparisons stop at one node of 8 (sizing/engine/vendor_scale.py)
    assert sure["outside"] == ["accelerator", "vendor_scale"]
    assert ACCELERATORS["mi300x"].name in sure["summary"]
    covered = size_dict(_with(DENSE_7B, "hardware", count=64))
    assert _factors(out)[1] > _factors(covered)[1]


def test_mixture_of_experts_too_few_to_measure_alone_takes_the_pooled_error(
    sized: dict[str, dict[str, Any]],
) -> None:
    out = sized["lab_mixtral_moe"]
    moe = _table("architecture", "moe")
    assert moe.runs < CALIBRATION.min_runs or moe.sources < CALIBRATION.min_sources
    keys = [s["key"] for s in out["confidence"]["slices"]]
    assert "moe" not in keys and keys[-1] == "all"
    used = [_table(s["slice"], s["key"]) for s in out["confidence"]["slices"]]
    assert _factors(out) == (min(e.low for e in used), max(e.high for e in used))
    assert "Too few published mixture-of-experts models" in out["confidence"]["summary"]


def test_moe_in_fp8_says_once_that_both_are_too_few_to_measure_alone() -> None:
    moe_fp8 = _with(CASES["lab_mixtral_moe"], "training", precision="fp8")
    moe_fp8 = _with(moe_fp8, "hardware", accelerator="h100-sxm")
    moe, fp8 = _table("architecture", "moe"), _table("precision", "fp8")
    assert moe.runs < CALIBRATION.min_runs and fp8.sources < CALIBRATION.min_sources
    summary = size_dict(moe_fp8)["confidence"]["summary"]
    assert summary.count("Too few published") == 1
    assert f"mixture-of-experts models ({moe.runs}) or runs in FP8 ({fp8.runs})" in summary
