"""Concurrent jobs share one cluster: full-size runs only as far as runs are planned."""

from __future__ import annotations

import math
from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.assumptions import value

BASE: dict[str, Any] = {
    "model": {"name": "Llama 2 7B"},
    "training": {"method": "pretrain"},
    "data": {"tokens": 2e11},
    "hardware": {"accelerator": "h100-sxm"},
    "schedule": {"deadline_days": 10},
}


def _jobs(jobs: int, runs: int | None = None) -> dict[str, Any]:
    training = {"method": "pretrain", **({"experiments": runs} if runs else {})}
    return {
        **BASE,
        "training": training,
        "schedule": {"deadline_days": 10, "concurrent_jobs": jobs},
    }


def test_three_jobs_with_one_planned_run_hold_one_full_run_and_room_for_smaller_jobs() -> None:
    one = size_dict(BASE)
    three = size_dict(_jobs(3))
    per_job = three["cluster"]["gpus_per_job"]
    assert per_job == one["cluster"]["gpus_per_job"]
    assert per_job < three["cluster"]["gpus"] < 3 * per_job
    assert three["concurrency"]["full_size_runs"] == 1
    asked = [q for q in three["open_questions"] if "at once" in q]
    assert len(asked) == 1 and "1 full-size run" in asked[0]


def test_three_jobs_with_three_planned_runs_hold_three_full_runs() -> None:
    three = size_dict(_jobs(3, runs=3))
    per_job = three["cluster"]["gpus_per_job"]
    assert three["cluster"]["gpus"] >= 3 * per_job
    assert three["concurrency"]["full_size_runs"] == 3


@pytest.mark.parametrize(("jobs", "runs", "waves"), [(3, None, 1), (3, 3, 1), (3, 7, 3), (1, 4, 4)])
def test_all_experiments_run_in_waves_of_what_the_cluster_holds(
    jobs: int, runs: int | None, waves: int
) -> None:
    out = size_dict(_jobs(jobs, runs))
    days = out["timeline"]["wall_clock_days"]
    assert out["timeline"]["all_experiments_days"] == pytest.approx(waves * days, rel=1e-4)


def test_spare_nodes_cover_the_whole_cluster() -> None:
    out = size_dict(_jobs(3, runs=3))
    nodes = out["cluster"]["nodes"]
    assert out["cluster"]["spare_nodes"] == math.ceil(value("spare_node_fraction") * nodes)


@pytest.mark.parametrize(
    "inputs",
    [
        _jobs(3),
        {**BASE, "model": {"name": "Llama 2 70B"}, "data": {"tokens": 2e12}},
        {**BASE, "model": {"name": "Mixtral 8x7B"}, "data": {"tokens": 1e12}},
        {**_jobs(3, runs=3), "data": {"tokens": 1e12}, "network": {"oversubscription": 2.0}},
        {
            **BASE,
            "model": {"name": "Llama 3.1 8B"},
            "data": {"tokens": 1e12},
            "schedule": {"deadline_days": 3},
            "network": {"oversubscription": 2.0},
        },
    ],
)
def test_the_nic_delivers_the_utilisation_the_run_assumed(inputs: dict[str, Any]) -> None:
    out = size_dict(inputs)
    if not out["network"]["nic_gbps"]:
        pytest.skip("single node")
    again = size_dict(
        {
            **inputs,
            "hardware": {"accelerator": "h100-sxm", "count": out["cluster"]["gpus_per_job"]},
            "network": {
                **inputs.get("network", {}),
                "nic_gbps_per_gpu": out["network"]["nic_gbps"],
            },
        }
    )
    assert again["compute"]["assumed_mfu"] >= out["compute"]["assumed_mfu"] * 0.999
