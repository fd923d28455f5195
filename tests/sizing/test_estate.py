"""What the customer already owns and the ceilings they set (issue 26): the owned estate is
sized first, costs no capital, and is never replaced by a purchase when it meets the need;
what to add when it falls short; a budget ceiling excludes options above it; a power ceiling
is honoured, or the output says by how much it is not.

The customers are those of ``../shared/reference/customer-scenarios.md`` (5, 7 and 9).
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

import pytest

from sizing.engine import InvalidInput, parse_input, size_dict
from sizing.engine.cost.explain import basis
from sizing.engine.cost.option import HYBRID, RENTED, Priced
from sizing.engine.estate import (
    added,
    budget_soonest_days,
    most_within_power,
    soonest_with_rented_at_most,
)
from sizing.engine.numbers import USD

TODAY = datetime.date(2026, 12, 4)

# Customer 5: 16 A100 80GB in two DGX A100; a 34B model, fully fine-tuned on 30 billion
# tokens within three weeks; one run a quarter; cloud only for overflow.
ROBOTICS: dict[str, Any] = {
    "model": {"total_params": 34e9, "architecture": "dense"},
    "training": {"method": "full_finetune"},
    "data": {"tokens": 30e9, "epochs": 1},
    "schedule": {"deadline_days": 21},
    "roadmap": {"runs_per_month": 1 / 3},
    "deployment": {"location": "hybrid"},
    "estate": {"accelerator": "a100-80gb", "count": 16},
}

# A lab with 4 L40S (no purchase price in the catalog) and a LoRA on an 8B model.
SMALL_LAB: dict[str, Any] = {
    "model": {"name": "Llama 3.1 8B"},
    "training": {"method": "lora"},
    "data": {"tokens": 2e8, "epochs": 1},
    "schedule": {"deadline_days": 7},
    "deployment": {"location": "on_prem"},
    "estate": {"accelerator": "l40s", "count": 4},
}

# Customer 7, on NVIDIA: a 30B MoE pre-train on 4 trillion tokens in 45 days, in a hall.
HALL: dict[str, Any] = {
    "model": {
        "total_params": 30e9,
        "active_params": 3e9,
        "architecture": "moe",
        "experts": 64,
        "experts_per_token": 8,
    },
    "training": {"method": "pretrain"},
    "data": {"tokens": 4e12, "epochs": 1},
    "schedule": {"deadline_days": 45},
    "deployment": {"location": "on_prem"},
}


def _size(data: dict[str, Any]) -> dict[str, Any]:
    return size_dict(data, today=TODAY)


def test_an_estate_that_meets_the_need_is_never_told_to_buy() -> None:
    out = _size(SMALL_LAB)
    estate = out["estate"]
    assert estate["meets_deadline"] is True
    assert estate["add"] is None and estate["add_count"] == 0
    assert out["cluster"]["accelerator"] == "l40s" and out["cluster"]["gpus"] == 4
    assert out["cost"]["recommended_option"] == "buy"  # run where it is, in their data centre
    assert out["cost"]["capex_usd"] == 0.0
    assert estate["owned_capex_usd"] == 0.0
    assert out["cost"]["running_usd"] > 0  # power, space, staff
    assert not any(line["item"] == "servers" for line in out["cost"]["bill_of_materials"])


def test_owned_cards_without_a_catalog_price_are_priced_by_running_cost() -> None:
    """4 L40S have no purchase price; before issue 26 this gave no recommendation."""
    out = _size(SMALL_LAB)
    assert out["cost"]["recommended_option"] is not None
    assert out["estate"]["owned_running_usd"] > 0


def test_owned_a100s_first_then_rented_h100s_for_the_rest() -> None:
    out = _size(ROBOTICS)
    estate = out["estate"]
    assert out["cluster"]["accelerator"] == "a100-80gb" and out["cluster"]["gpus"] == 16
    assert estate["owned_fits"] is True
    assert estate["owned_days"] > 21 and estate["meets_deadline"] is False
    assert estate["owned_days_used"] == 21
    assert estate["add"] == "rent"
    assert estate["add_count"] > 0 and 0 < estate["add_days"] <= 21
    assert estate["add_cost_usd"] > 0
    assert out["cost"]["capex_usd"] == 0.0  # no purchase pushed
    # the owned cards do 21 / T of the work, the rented ones the rest
    share = 1 - 21 / estate["owned_days"]
    assert estate["add_gpu_hours"] == pytest.approx(
        share * _size(_without_estate(ROBOTICS))["compute"]["gpu_hours"], rel=1e-3
    )


def test_on_premises_only_adds_bought_accelerators() -> None:
    out = _size({**ROBOTICS, "deployment": {"location": "on_prem"}})
    assert out["estate"]["add"] == "buy"
    assert out["estate"]["add_cost_usd"] > 0


def _without_estate(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "estate"}


def test_results_without_an_estate_have_no_estate_section() -> None:
    assert "estate" not in _size(_without_estate(ROBOTICS))


def test_a_budget_ceiling_excludes_the_options_above_it() -> None:
    plain = _size({**HALL, "deployment": {"location": "cloud"}})
    nets = {
        k: plain["cost"][k]["net_usd"]
        for k in ("cloud_on_demand", "cloud_reserved_1yr", "cloud_reserved")
        if plain["cost"].get(k)
    }
    budget = min(nets.values()) * 1.01
    out = _size({**HALL, "deployment": {"location": "cloud"}, "estate": {"budget_usd": budget}})
    excluded = out["cost"]["constraints"]["excluded"]
    for key, net in nets.items():
        assert ("budget" in excluded.get(key, ())) == (net > budget), key
    assert out["cost"][out["cost"]["recommended_option"]]["net_usd"] <= budget
    assert out["estate"]["over_budget_usd"] <= 0


def test_a_budget_nothing_fits_is_shown_with_how_far_over() -> None:
    out = _size({**HALL, "estate": {"budget_usd": 1000}})
    assert out["cost"]["recommended_option"] is not None  # still priced, not hidden
    assert out["estate"]["over_budget_usd"] == pytest.approx(out["estate"]["cost_usd"] - 1000)
    assert out["estate"]["over_budget_usd"] > 0


def test_a_power_ceiling_resizes_the_cluster_to_what_the_hall_holds() -> None:
    plain = _size(HALL)
    ceiling = plain["deployment"]["facility_power_with_pue_kw"] / 2
    out = _size({**HALL, "estate": {"power_kw": ceiling}})
    estate = out["estate"]
    assert estate["power_capped"] is True
    assert out["deployment"]["facility_power_with_pue_kw"] <= ceiling
    assert out["cluster"]["gpus_in_service"] <= estate["power_max_gpus"]
    assert out["cluster"]["gpus"] < plain["cluster"]["gpus"]
    assert out["timeline"]["wall_clock_days"] > plain["timeline"]["wall_clock_days"]


def test_a_power_ceiling_above_the_cluster_changes_nothing() -> None:
    plain = _size(HALL)
    out = _size({**HALL, "estate": {"power_kw": 2000}})  # customer 7's 2 MW
    assert out["estate"]["power_capped"] is False
    assert out["cluster"] == plain["cluster"]
    assert out["estate"]["cluster_power_kw"] <= 2000


def test_an_estate_needs_a_model_and_a_count() -> None:
    with pytest.raises(InvalidInput, match="estate.count"):
        parse_input({"estate": {"accelerator": "a100-80gb"}})
    with pytest.raises(InvalidInput, match="estate.count"):
        parse_input({"estate": {"count": 0, "accelerator": "a100-80gb"}})


@pytest.mark.parametrize(
    ("power_kw", "kw_per_gpu", "per_node", "most"),
    [(2000, 1.6, 8, 1248), (10, 1.6, 8, 4), (1, 1.6, 8, 0), (12.8, 1.6, 8, 8)],
)
def test_most_within_power(power_kw: float, kw_per_gpu: float, per_node: int, most: int) -> None:
    assert most_within_power(power_kw, kw_per_gpu, per_node) == most


def test_added_capacity_is_the_share_the_owned_cards_cannot_do() -> None:
    # 34 days on the owned cards, 21 allowed: 13/34 of a 4,800 GPU-h run, over 21 days
    add = added(
        34.0,
        21.0,
        run_gpu_hours=4800.0,
        gpus_per_node=8,
        cloud_usd_per_gpu_hour=2.0,
        purchase_usd_per_gpu=30_000.0,
        renting=True,
    )
    assert add.how == "rent"
    assert add.gpu_hours == pytest.approx(4800 * 13 / 34)
    assert add.cost_usd == pytest.approx(4800 * 13 / 34 * 2.0)
    assert add.gpus * add.days * 24 == pytest.approx(add.gpu_hours)
    assert add.days <= 21


def test_a_budget_buys_the_soonest_date_linearly() -> None:
    # the whole run rented costs $10M; $5M rents half of it, so half the owned time is left
    assert budget_soonest_days(
        100.0, 5e6, run_gpu_hours=5e6, cloud_usd_per_gpu_hour=2.0
    ) == pytest.approx(50.0)


def test_the_budget_also_pays_for_running_the_estate_meanwhile() -> None:
    # B = r T + H p (1 - T / T_o): $5M with $10,000 a day of running leaves less for renting
    soonest = budget_soonest_days(
        100.0, 5e6, run_gpu_hours=5e6, cloud_usd_per_gpu_hour=2.0, running_usd_per_day=1e4
    )
    assert 1e4 * soonest + 5e6 * 2.0 * (1 - soonest / 100.0) == pytest.approx(5e6)
    assert soonest > 50.0


def _hybrid_basis(gpus_per_run: int, rented_usd: float) -> str:
    """The hybrid's basis when each run it rents at its peaks needs ``gpus_per_run``."""
    priced = Priced(
        by_year_usd=(rented_usd,),
        capex_usd=0.0,
        scales_usd=rented_usd,
        residual_usd=0.0,
        capacity=(gpus_per_run,),
        parts_by_year_usd={RENTED: (rented_usd,)},
        owned_base_gpus=gpus_per_run,
    )
    case = SimpleNamespace(
        usage=SimpleNamespace(gpus_per_run=gpus_per_run), cluster_gpus=gpus_per_run
    )
    prices = SimpleNamespace(cloud_idle_share=SimpleNamespace(value=0.1))
    return basis(HYBRID, priced, case, prices, USD)  # type: ignore[arg-type]


def test_a_hybrid_renting_peaks_larger_than_a_short_term_cluster_says_it_needs_a_reservation():
    """The hybrid rents whole runs at its peaks: a run of 1,024 is more than one cluster rented
    at short notice (512), so that rent holds only under a negotiated reservation."""
    assert "only under a negotiated reservation; we will ask" in _hybrid_basis(1024, 1e6)
    assert "negotiated" not in _hybrid_basis(512, 1e6)  # within one short-term cluster
    assert "negotiated" not in _hybrid_basis(1024, 0.0)  # nothing rented


def test_the_soonest_date_with_one_short_term_cluster_rents_exactly_that_cluster():
    """At the date :func:`soonest_with_rented_at_most` gives, the rented share of the run is
    worked by exactly that many accelerators; a day sooner needs more."""
    hours, owned_days = 4.2e6, 342.0
    soonest = soonest_with_rented_at_most(owned_days, hours, 512)
    help_then = added(
        owned_days,
        soonest,
        run_gpu_hours=hours,
        gpus_per_node=8,
        cloud_usd_per_gpu_hour=4.0,
        purchase_usd_per_gpu=None,
        renting=True,
    )
    assert help_then.gpus == 512 and help_then.days == pytest.approx(soonest)
    sooner = added(
        owned_days,
        soonest - 1,
        run_gpu_hours=hours,
        gpus_per_node=8,
        cloud_usd_per_gpu_hour=4.0,
        purchase_usd_per_gpu=None,
        renting=True,
    )
    assert sooner.gpus > 512
