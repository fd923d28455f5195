"""Expert parallelism, its schedule and the default batch (issue 27, defect 3).

DeepSeek-V3 (671B, 37B active) trained on 14.8T tokens on 2,048 H800 with no tensor
parallelism, 16 pipeline stages and 64-way expert parallelism, in FP8 with DualPipe, for
2,664K H800 GPU-hours (DeepSeek-V3 technical report, arXiv 2412.19437, Table 1, sec. 3.2).
The engine said 6.1M with that layout: every routed copy crossed InfiniBand, half of the
all-to-all was hidden whatever the schedule, and the batch defaulted to 4M tokens.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from sizing.engine import assumptions, size_dict
from sizing.engine.cluster import estimate_run
from sizing.engine.compute import training_flops
from sizing.engine.expert_traffic import (
    all_to_all_copies,
    dualpipe_bubble,
    dualpipe_stretch,
    overlapped_schedule,
)
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.memory import activation_bytes_per_layer
from sizing.engine.parallelism import workload
from sizing.engine.resolve.resolved import Resolved, resolve
from sizing.engine.validation import parse_input

TODAY = datetime.date(2026, 12, 4)
PUBLISHED_GPU_HOURS = 2_664_000  # arXiv 2412.19437, Table 1 (pre-training)


def _deepseek_v3(*, layout: bool = True, batch: float | None = 15_360 * 4_096) -> dict[str, Any]:
    data: dict[str, Any] = {
        "model": {"name": "DeepSeek-V3"},
        "training": {"method": "pretrain", "precision": "fp8", "optimizer": "adamw"},
        "data": {"tokens": 14.8e12},
        "batch": {"sequence_length": 4096},
        "hardware": {"accelerator": "h800", "count": 2048},
    }
    if batch is not None:
        data["batch"]["global_batch_tokens"] = batch
    if layout:
        data["parallelism"] = {"tensor": 1, "pipeline": 16, "expert": 64}
    return data


def _resolved(data: dict[str, Any]) -> Resolved:
    return resolve(parse_input(data), today=TODAY)


def _gpu_hours(data: dict[str, Any]) -> float:
    r = _resolved(data)
    w = workload(r)
    assert r.count is not None
    run = estimate_run(
        w,
        r,
        ACCELERATORS[r.accelerator],
        r.count,
        training_flops(w.model_flops_per_token, r.tokens, r.epochs),
    )
    assert run.plan.fits
    return run.gpu_hours


def test_deepseek_v3_with_its_published_layout_lands_within_a_quarter() -> None:
    assert _gpu_hours(_deepseek_v3()) == pytest.approx(PUBLISHED_GPU_HOURS, rel=0.25)


def test_node_limited_routing_crosses_infiniband_once_per_node() -> None:
    # 64 expert ranks on 8 nodes of 8; top-8 routing
    flat_out, _ = all_to_all_copies(top_k=8, ep=64, nodes=8)
    limited_out, limited_up = all_to_all_copies(top_k=8, ep=64, nodes=8, node_limit=4)
    # at most 4 nodes reached, 7 in 8 of them another node
    assert limited_out <= 4 * 7 / 8
    assert limited_out < flat_out < 8 * 63 / 64
    # the forwarding inside each node carries the copies InfiniBand did not
    assert limited_up == pytest.approx(8 * (1 - 1 / 8))
    # inside one node every remote copy goes over NVLink, none over InfiniBand
    assert all_to_all_copies(top_k=8, ep=8, nodes=1) == (0.0, pytest.approx(8 * 7 / 8))


def test_dualpipe_hides_the_all_to_all_that_1f1b_waits_for() -> None:
    share = assumptions.value("dualpipe_communication_sm_share")
    assert dualpipe_stretch(0.5) == pytest.approx(1 / (1 - share))  # hidden, slower compute
    assert dualpipe_stretch(1.5) == pytest.approx(1.5)  # longer than the compute: exposed
    # DeepSeek-V3 Table 2: (PP/2 - 1)(F&B + B - 3W) against 1F1B's (PP - 1)(F + B)
    assert dualpipe_bubble(16, 120) == pytest.approx(7 * 2 / 3 / (120 + 7 * 2 / 3))
    assert dualpipe_bubble(2, 10) == 0.0
    assert overlapped_schedule(moe=True, ep=64, pp=16, nodes=8)
    assert not overlapped_schedule(moe=True, ep=8, pp=16, nodes=1)  # NVLink: 1F1B
    assert not overlapped_schedule(moe=False, ep=1, pp=16, nodes=8)


def test_fp8_caches_linear_inputs_in_one_byte() -> None:
    args = (4096, 1, 7168, 128, 1, "selective")
    bf16 = activation_bytes_per_layer(*args)
    fp8 = activation_bytes_per_layer(*args, fp8_linear_inputs=True)
    sbh = 4096 * 7168
    # attention's two linear inputs (2 + 2 B) and the MLP's first (2 B) halve; selective
    # recomputation already rebuilds the second's input
    assert (bf16 - fp8) / sbh == pytest.approx((4 + 2) / 2)


@pytest.mark.parametrize(
    ("params", "tokens", "low", "high"),
    [
        (7e9, 2e12, 2e6, 1.2e7),  # Llama 2 7B published 4M
        (37e9, 14.8e12, 2e7, 7e7),  # DeepSeek-V3 ramped to 63M
        (124e6, 10e9, 2.5e5, 1e6),  # GPT-2 124M (llm.c: 0.5M)
    ],
)
def test_default_batch_grows_with_compute(
    params: float, tokens: float, low: float, high: float
) -> None:
    data = {
        "model": {"total_params": params},
        "training": {"method": "pretrain"},
        "data": {"tokens": tokens},
        "batch": {"sequence_length": 4096},
    }
    batch = _resolved(data).global_batch_tokens
    expected = 0.292 * (6 * params * tokens) ** 0.3271  # DeepSeek LLM, arXiv 2401.02954
    assert batch == pytest.approx(expected, rel=0.1)  # whole sequences of 4,096
    assert low <= batch <= high
    assert batch % 4096 == 0


def test_a_dualpipe_plan_needs_no_faster_nics_than_it_was_costed_with() -> None:
    # DeepSeek-V3 trained on H800 with 400 Gb/s InfiniBand per GPU (arXiv 2412.19437, sec. 3.1);
    # its hidden all-to-all need only last no longer than the step (it asked for 800 Gb/s)
    answers = {**_deepseek_v3(), "schedule": {"deadline_days": 60}}
    network = size_dict(answers, today=TODAY)["network"]
    assert network["scale_out_gb_per_s_per_gpu_needed"] <= 400 / 8  # [GB/s]: 400 Gb/s
    assert network["scale_up_gb_per_s_needed"] <= network["scale_up_gb_per_s_available"]


def test_the_plan_says_it_assumes_dualpipe() -> None:
    plan = size_dict(_deepseek_v3(), today=TODAY)["parallelism"]
    assert "DualPipe" in plan["reason"]
    dense = {**_deepseek_v3(layout=False), "model": {"name": "Llama 3.1 70B"}}
    assert "DualPipe" not in size_dict(dense, today=TODAY)["parallelism"]["reason"]
