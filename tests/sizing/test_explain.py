"""The drivers name what really sets the cluster: the deadline, memory, or the customer's count."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest

from sizing.engine import size_dict
from sizing.engine.explain import deadline_warnings

TODAY = datetime.date(2026, 12, 2)
# A 70B full fine-tune on 32,768-token sequences: memory needs more accelerators than a
# 7-day deadline does.
LONG_CONTEXT = {
    "model": {"name": "Llama 3.1 70B"},
    "training": {"method": "full_finetune"},
    "data": {"tokens": 2e9},
    "batch": {"sequence_length": 32768},
    "schedule": {"deadline_days": 7},
}


def test_a_size_past_the_memory_minimum_says_it_is_faster_and_cheaper():
    out = size_dict(LONG_CONTEXT, today=TODAY)
    assert out["cluster"]["gpus_per_job"] > out["memory"]["min_gpus"] == 24
    drivers = " ".join(out["drivers"])
    assert "finish sooner and in fewer accelerator-hours than the 24 memory needs" in drivers
    assert "deadline sets" not in drivers


def test_a_count_the_customer_gave_is_never_said_to_be_set_by_the_deadline():
    given = {**LONG_CONTEXT, "hardware": {"accelerator": "h100-sxm", "count": 64}}
    drivers = " ".join(size_dict(given, today=TODAY)["drivers"])
    assert "on the 64 accelerators you gave, one run takes" in drivers
    assert "deadline sets" not in drivers and "cannot be met" not in drivers


@pytest.mark.parametrize(
    ("location", "rents"),
    [("cloud", True), ("on_prem", False)],
)
def test_every_risk_says_what_lowers_it_and_cloud_spend_only_when_the_plan_rents(location, rents):
    out = size_dict(
        {
            "model": {"name": "Llama 3.1 8B"},
            "training": {"method": "pretrain", "precision": "fp8"},
            "data": {"tokens": 200e9},
            "schedule": {"deadline_days": 14},
            "deployment": {"location": location},
        }
    )
    risks = out["risks"]
    assert any(r.startswith("loss spikes") for r in risks)
    for risk in risks:
        what, _, lower = risk.partition(": ")
        assert what and lower, risk
    rented = out["cost"]["recommended_option"] not in ("buy", "colocation")
    assert rented is rents
    assert any(r.startswith("cloud spend") for r in risks) is rents


def test_a_missed_deadline_on_one_accelerator_says_one_accelerator() -> None:
    # found by the generated proposals: "on the recommended 1 accelerators"
    resolved = SimpleNamespace(deadline_days=730, tokens=1e9, epochs=1)
    run = SimpleNamespace(wall_clock_days=8454, gpus=1)
    deadline = SimpleNamespace(
        met=False,
        fastest_gpus=1,
        fastest_days=8454,
        tokens_within_deadline=8.6e7,
        params_within_deadline=None,
    )
    text = " ".join(deadline_warnings(resolved, run, deadline))  # type: ignore[arg-type]
    assert "1 accelerators" not in text
    assert "on the recommended 1 accelerator" in text and "on 1 accelerator:" in text


def test_the_compute_driver_says_parameters_trained_on_tokens_not_x():
    # every customer read "8B parameters x 1.8B tokens set the compute"
    drivers = " ".join(size_dict(LONG_CONTEXT, today=TODAY)["drivers"])
    assert "parameters trained on " in drivers
    assert " x " not in drivers


def test_a_pre_training_run_within_one_server_is_not_called_a_multi_node_job():
    # customer 3 (a 3B video model on 2 H100 in one server) read "Scheduling: multi-node
    # gang-scheduled training jobs"
    small = size_dict(
        {
            "model": {"total_params": 1e9},
            "training": {"method": "pretrain"},
            "data": {"tokens": 5e9},
            "schedule": {"deadline_days": 10},
        },
        today=TODAY,
    )
    assert small["cluster"]["nodes_per_job"] == 1
    assert "multi-node" not in small["concurrency"]["reason"]
