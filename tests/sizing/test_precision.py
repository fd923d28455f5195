"""A precision the accelerator lacks: FP8 asked on an accelerator without FP8 arithmetic is
sized in BF16 throughout (speed, memory, range), and says so."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.hardware import ACCELERATORS

TODAY = datetime.date(2026, 12, 3)
NO_FP8 = sorted(acc_id for acc_id, acc in ACCELERATORS.items() if not acc.peak_fp8_tflops)


def _run(acc_id: str, precision: str) -> dict[str, Any]:
    return {
        "model": {"name": "Llama 2 7B"},
        "training": {"method": "pretrain", "precision": precision},
        "data": {"tokens": 1e11},
        "hardware": {"accelerator": acc_id, "count": 64},
    }


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "gpu_hours": result["compute"]["gpu_hours"],
        "gpu_hours_range": result["compute"]["gpu_hours_range"],
        "per_gpu_gb": result["memory"]["per_gpu_gb"],
        "bytes_per_param": result["memory"]["bytes_per_param"]["total"],
        "checkpoint_size_gb": result["storage"]["checkpoint_size_gb"],
    }


def test_the_catalog_has_accelerators_without_fp8() -> None:
    assert {"a100-40gb", "a100-80gb"} <= set(NO_FP8)


@pytest.mark.parametrize("acc_id", NO_FP8)
def test_fp8_on_an_accelerator_without_fp8_is_sized_exactly_as_bf16(acc_id: str) -> None:
    fp8 = size_dict(_run(acc_id, "fp8"), today=TODAY)
    bf16 = size_dict(_run(acc_id, "bf16"), today=TODAY)
    assert _comparable(fp8) == _comparable(bf16)
    assert fp8["memory"]["bytes_per_param"]["total"] == 18.0  # no FP8 weight copy


def test_fp8_on_an_a100_says_in_plain_words_that_it_is_sized_in_bf16() -> None:
    result = size_dict(_run("a100-80gb", "fp8"), today=TODAY)
    assert "the NVIDIA A100 SXM4 80GB has no FP8 arithmetic: sized in BF16" in " ".join(
        result["warnings"]
    )
    assert not any("FP8" in w for w in size_dict(_run("h100-sxm", "fp8"), today=TODAY)["warnings"])


def test_an_alternative_without_fp8_is_sized_in_bf16_and_says_so() -> None:
    run = _run("h100-sxm", "fp8")
    run["hardware"]["vendors"] = ["nvidia"]  # NVIDIA only: an A100 makes the list
    result = size_dict(run, today=TODAY)
    precisions = {a["accelerator"]: a["precision"] for a in result["alternatives"]}
    assert set(precisions) & set(NO_FP8), "no alternative without FP8 to check"
    for acc_id, precision in precisions.items():
        assert precision == ("bf16" if acc_id in NO_FP8 else "fp8"), acc_id


def test_an_fp8_alternative_of_a_run_on_an_a100_is_sized_in_fp8() -> None:
    result = size_dict(_run("a100-80gb", "fp8"), today=TODAY)
    h100 = [a for a in result["alternatives"] if a["accelerator"] == "h100-sxm"]
    assert h100 and h100[0]["precision"] == "fp8"
