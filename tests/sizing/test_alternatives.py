"""The other accelerators: ranked so that a placeholder price never beats a published one."""

from __future__ import annotations

from typing import Any

import pytest

from sizing.engine import size_dict
from sizing.engine.alternatives import MAX_ALTERNATIVES
from sizing.engine.hardware import ACCELERATORS, cloud_price_confirmed

# Cloud prices the catalog marks "U", "placeholder" or "no public price" (hardware.py).
UNCONFIRMED = {"h800", "rtx-a6000", "l4", "mi300x", "mi325x", "gaudi3", "gaudi2", "mi250x"}

RUNS: list[dict[str, Any]] = [
    {"model": {"name": "Llama 2 7B"}, "data": {"tokens": 1e11}},
    {"model": {"name": "Llama 3.1 70B"}, "data": {"tokens": 1e12}},
    {"model": {"name": "Llama 3.1 8B"}, "training": {"method": "lora"}, "data": {"tokens": 1e8}},
]


@pytest.mark.parametrize("acc_id", sorted(ACCELERATORS))
def test_the_catalogs_placeholder_marks_decide_whether_a_cloud_price_is_confirmed(
    acc_id: str,
) -> None:
    # L40S: the cloud price is CoreWeave's list price; only its purchase price is a placeholder.
    assert cloud_price_confirmed(ACCELERATORS[acc_id]) is (acc_id not in UNCONFIRMED)


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r["model"]["name"])
def test_an_unconfirmed_price_never_ranks_ahead_of_a_published_one(run: dict[str, Any]) -> None:
    alts = [a for a in size_dict(run)["alternatives"] if a["fits"]]
    flags = [a["price_confirmed"] for a in alts]
    assert flags == sorted(flags, reverse=True)
    assert {a["accelerator"] for a in alts if not a["price_confirmed"]} <= UNCONFIRMED


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r["model"]["name"])
def test_gaudi_3_on_a_placeholder_price_is_not_the_top_alternative(run: dict[str, Any]) -> None:
    assert size_dict(run)["alternatives"][0]["accelerator"] != "gaudi3"


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r["model"]["name"])
def test_each_maker_keeps_its_best_alternative_in_a_short_list(run: dict[str, Any]) -> None:
    alts = size_dict(run)["alternatives"]
    assert len(alts) <= MAX_ALTERNATIVES
    assert {ACCELERATORS[a["accelerator"]].vendor for a in alts} == {"NVIDIA", "AMD", "Intel"}


def test_sizing_on_an_accelerator_with_a_placeholder_price_says_its_cost_is_an_estimate() -> None:
    warnings = size_dict({**RUNS[0], "hardware": {"accelerator": "mi300x"}})["warnings"]
    assert any(
        "cloud price of the AMD Instinct MI300X 192GB is not confirmed" in w for w in warnings
    )


def test_a_cloud_price_the_customer_gives_needs_no_such_warning() -> None:
    out = size_dict(
        {
            **RUNS[0],
            "hardware": {"accelerator": "mi300x"},
            "prices": {"cloud_on_demand_usd_per_gpu_hour": 3.5},
        }
    )
    assert not any("not confirmed" in w for w in out["warnings"])
