"""The verification kit's measurements in the engine: the measured share of peak replaces the
calibrated one on the accelerator measured, and the range narrows where only the accelerator
kept the published runs from backing it (issue 30)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from sizing.engine import ACCELERATORS, size_dict
from sizing.engine.assumptions import value
from sizing.engine.measured import accelerator_of_device
from sizing.engine.measured_error_table import COVERAGE
from sizing.engine.validation import InvalidInput, parse_input

RUN: dict[str, Any] = {
    "model": {"name": "Llama 3.1 8B"},
    "training": {"method": "pretrain", "precision": "bf16"},
    "data": {"tokens": 1e11},
}


def _sized(accelerator: str, measured: dict[str, Any] | None = None) -> dict[str, Any]:
    answers = copy.deepcopy(RUN)
    answers["hardware"] = {"accelerator": accelerator}
    if measured is not None:
        answers["measured"] = measured
    return size_dict(answers)


def _uncovered() -> str:
    """An accelerator no published run of the error table used, and the only reason this run's
    range is widened."""
    return next(
        a
        for a in sorted(ACCELERATORS)
        if a not in COVERAGE.accelerators and _sized(a)["confidence"]["outside"] == ["accelerator"]
    )


def test_a_measurement_leaves_every_other_reason_to_widen_the_range():
    accelerator = next(
        a
        for a in sorted(ACCELERATORS)
        if a not in COVERAGE.accelerators and len(_sized(a)["confidence"]["outside"]) > 1
    )
    before = _sized(accelerator)["confidence"]
    peak = ACCELERATORS[accelerator].peak_bf16_tflops
    sure = _sized(accelerator, {"accelerator": accelerator, "matmul_bf16_tflops": peak / 2})[
        "confidence"
    ]
    assert sure["outside"] == [r for r in before["outside"] if r != "accelerator"]
    assert (sure["low_factor"], sure["high_factor"]) == (
        before["low_factor"],
        before["high_factor"],
    )
    assert "The range stays as it was" in sure["summary"]


def test_a_measurement_on_an_accelerator_no_published_run_used_narrows_the_range():
    accelerator = _uncovered()
    peak = ACCELERATORS[accelerator].peak_bf16_tflops
    tflops = round(peak * value("eff_matmul_ceiling"), 1)  # the assumed share, measured
    before = _sized(accelerator)["confidence"]
    after = _sized(accelerator, {"accelerator": accelerator, "matmul_bf16_tflops": tflops})
    sure = after["confidence"]
    assert "accelerator" in before["outside"]
    assert "accelerator" not in sure["outside"]
    assert sure["high_factor"] / sure["low_factor"] < before["high_factor"] / before["low_factor"]
    assert sure["unmeasured_factors"] == [before["low_factor"], before["high_factor"]]
    assert f"Measured on your {ACCELERATORS[accelerator].name}" in sure["summary"]
    assert "So the range narrowed from" in sure["summary"]


def test_the_measured_share_of_peak_replaces_the_assumed_one():
    accelerator = _uncovered()
    peak = ACCELERATORS[accelerator].peak_bf16_tflops
    slow = _sized(accelerator, {"accelerator": accelerator, "matmul_bf16_tflops": peak * 0.3})
    fast = _sized(accelerator, {"accelerator": accelerator, "matmul_bf16_tflops": peak * 0.9})
    assumed = _sized(accelerator)
    hours = [r["compute"]["gpu_hours"] for r in (fast, assumed, slow)]
    assert hours == sorted(hours) and len(set(hours)) == 3


def test_a_measurement_of_another_accelerator_leaves_the_run_on_this_one_as_it_was():
    other = {"accelerator": "mi300x", "matmul_bf16_tflops": 500.0}
    measured, assumed = _sized("h100-sxm", other), _sized("h100-sxm")
    for section in ("compute", "cluster", "confidence"):
        assert measured[section] == assumed[section]


def test_a_measurement_on_an_accelerator_the_published_runs_cover_keeps_their_range():
    sure = _sized("h100-sxm", {"accelerator": "h100-sxm", "matmul_bf16_tflops": 650.0})[
        "confidence"
    ]
    assert sure["unmeasured_factors"] is None
    assert "The range stays as it was" in sure["summary"]


@pytest.mark.parametrize(
    "measured, problem",
    [
        ({"matmul_bf16_tflops": 500.0}, "needs measured.accelerator"),
        ({"accelerator": "h100-sxm", "matmul_bf16_tflops": 5000.0}, "above the peak"),
        ({"accelerator": "h100-sxm", "matmul_bf16_tflops": -1.0}, "measured.matmul_bf16"),
        ({"accelerator": "cpu", "matmul_bf16_tflops": 1.0}, "measured.accelerator"),
    ],
)
def test_the_engine_refuses_a_measurement_that_cannot_be_one(measured, problem):
    with pytest.raises(InvalidInput) as refused:
        parse_input({**RUN, "measured": measured})
    assert problem in str(refused.value)


@pytest.mark.parametrize(
    "device, accelerator",
    [
        ("NVIDIA H100 80GB HBM3", "h100-sxm"),
        ("NVIDIA H100 PCIe", "h100-pcie"),
        ("NVIDIA A100-SXM4-40GB", "a100-40gb"),
        ("NVIDIA A100-SXM4-80GB", "a100-80gb"),
        ("AMD Instinct MI300X", "mi300x"),
        ("NVIDIA L40S", "l40s"),
        ("NVIDIA L4", "l4"),
        ("CPU only", None),
        ("NVIDIA GeForce RTX 4090", None),
    ],
)
def test_the_accelerator_is_known_by_the_name_its_driver_reports(device, accelerator):
    assert accelerator_of_device(device) == accelerator
