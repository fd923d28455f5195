"""A non-CUDA stack's factor by scale, and wider ranges where the evidence stops (issue 27,
defect 4).

ROCm's factor came from one node of 8 (MLPerf Training v5.0 Llama 2 70B LoRA) and was applied
at any scale: an MI300X was at per-GPU parity with an H100 for Llama 3.1 405B on 16,384.  The
only published large AMD run, a 1T model on 3,072 MI250X (Dash et al., arXiv 2312.12705),
reached 0.61 of the share of peak Megatron-LM reached on 3,072 A100 (arXiv 2104.04473).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.assumptions import value
from sizing.engine.vendor_scale import (
    software_scale_factor,
    thin_evidence_widening,
)

TODAY = datetime.date(2026, 12, 4)


def _sized(accelerator: str, gpus: int, model: str) -> dict[str, Any]:
    answers = {
        "model": {"name": model},
        "training": {"method": "pretrain"},
        "data": {"tokens": 1e12},
        "hardware": {"accelerator": accelerator, "count": gpus},
    }
    return size_dict(answers, today=TODAY)


def _per_gpu_speed(out: dict[str, Any]) -> float:
    return 1.0 / out["compute"]["gpu_hours"]


def test_rocm_keeps_its_one_node_factor_on_one_node_and_falls_to_the_frontier_share() -> None:
    assert software_scale_factor("rocm", 8) == 1.0
    assert software_scale_factor("cuda", 16384) == 1.0
    at_scale = value("eff_software_rocm_at_scale") / value("eff_software_rocm")
    assert software_scale_factor("rocm", 3072) == pytest.approx(at_scale)
    assert software_scale_factor("rocm", 16384) == pytest.approx(at_scale)
    assert at_scale < software_scale_factor("rocm", 256) < 1.0


def test_an_mi300x_is_not_at_parity_with_an_h100_for_405b_on_16384() -> None:
    mi300x = _per_gpu_speed(_sized("mi300x", 16384, "Llama 3.1 405B"))
    h100 = _per_gpu_speed(_sized("h100-sxm", 16384, "Llama 3.1 405B"))
    # one node: the MLPerf factor as before; at 16,384 the Frontier share on top
    assert mi300x < 0.95 * h100


def test_the_range_widens_beyond_the_largest_published_comparison() -> None:
    assert thin_evidence_widening("rocm", 8) == 1.0
    assert thin_evidence_widening("gaudi", 64) == 1.0
    assert thin_evidence_widening("cuda", 16384) == 1.0
    assert thin_evidence_widening("rocm", 16) > 1.0
    one_node = _sized("mi300x", 8, "Llama 3.1 8B")["confidence"]
    at_scale = _sized("mi300x", 16384, "Llama 3.1 405B")["confidence"]
    assert at_scale["low_factor"] < one_node["low_factor"]
    assert at_scale["high_factor"] > one_node["high_factor"]
