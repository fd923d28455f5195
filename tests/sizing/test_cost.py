"""The cost model: sourced prices, usage from the answers, the cheapest option the rules allow.

Property tests from issue 11's "Done when", plus worked examples whose expected values come
from the published figures in ``docs/cost.md``.
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizing.engine import parse_input, size_dict
from sizing.engine.cost.accelerator_prices import ACCELERATOR_PRICES
from sizing.engine.cost.break_even import break_even
from sizing.engine.cost.choice import excluded_by
from sizing.engine.cost.cloud import STORAGE_PRICES, on_demand, rented_storage_usd, reserved
from sizing.engine.cost.option import BUY, COLOCATION
from sizing.engine.cost.options import (
    CostCase,
    price_options,
    price_options_reading,
    totals,
)
from sizing.engine.cost.owned import (
    INSTALLATION,
    PURCHASE_PRICES,
    SERVERS,
    bill_of_materials,
    bom_total,
    purchases,
)
from sizing.engine.cost.prices import PRICES
from sizing.engine.cost.usage import Usage, usage
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.network import fabric_layout, switch_tiers
from sizing.engine.numbers import format_money
from sizing.engine.provenance import ESTIMATE, PRICE_FLAGS, REGIONS, Price
from sizing.engine.reads import noting_reads
from sizing.engine.resolve.resolved import Resolved, resolve
from sizing.engine.units import HOURS_PER_YEAR
from sizing.engine.vocabulary import COST_OPTIONS

TODAY = datetime.date(2026, 12, 2)
DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?|-H[12])?$")  # 2024, 2024-07, 2024-07-31, 2024-H2
SOME = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=60, deadline=None)


def _every_price() -> list[tuple[str, Price]]:
    found = [(f"PRICES[{key}]", price) for key, price in PRICES.items()]
    for acc, entry in ACCELERATOR_PRICES.items():
        for kind in ("gpu_cloud", "large_cloud", "purchase"):
            price = getattr(entry, kind)
            if price is not None:
                found.append((f"{acc}.{kind}", price))
    return found


@pytest.mark.parametrize(("where", "price"), _every_price(), ids=lambda x: str(x)[:40])
def test_every_price_has_a_source_a_date_a_region_and_a_flag(where: str, price: Price) -> None:
    assert isinstance(price, Price), where
    assert price.source.strip() and price.unit.strip() and price.rationale.strip(), where
    assert DATE.match(price.as_of), (where, price.as_of)
    assert price.flag in PRICE_FLAGS, (where, price.flag)
    assert price.region in REGIONS, (where, price.region)
    assert price.low <= price.value <= price.high, where
    assert "placeholder" not in price.source.lower(), where


def test_every_accelerator_is_priced_or_says_why_not() -> None:
    assert set(ACCELERATOR_PRICES) == set(ACCELERATORS)
    for acc, entry in ACCELERATOR_PRICES.items():
        prices = (entry.gpu_cloud, entry.large_cloud, entry.purchase)
        if any(p is None for p in prices):
            assert entry.missing, f"{acc} lacks a price and does not say why"


def test_no_accelerator_borrows_another_ones_price() -> None:
    seen: dict[tuple[str, str, float], str] = {}
    for acc, entry in ACCELERATOR_PRICES.items():
        for kind in ("gpu_cloud", "large_cloud", "purchase"):
            price = getattr(entry, kind)
            if price is None:
                continue
            key = (kind, price.source, float(price.value))
            assert key not in seen, f"{acc} has the {kind} price of {seen.get(key)}"
            seen[key] = acc


# --- helpers: the engine's own resolution, then the cost functions directly -------------------


def _resolved(answers: dict[str, Any]) -> Resolved:
    return resolve(parse_input(answers), today=TODAY)


def _case(r: Resolved, *, gpus: int, run_gpu_hours: float, storage_tb: float = 10.0) -> CostCase:
    work = usage(
        r,
        run_gpu_hours=run_gpu_hours,
        gpus_per_run=gpus,
        cluster_gpus=gpus,
        all_runs_days=run_gpu_hours / gpus / 24.0,
    )
    return CostCase(ACCELERATORS[r.accelerator], work, gpus, r.gpus_per_node, storage_tb, True)


def _roadmap(
    runs: float, *, growth: float = 0.0, years: int = 3, acc: str = "h100-sxm"
) -> Resolved:
    return _resolved(
        {
            "hardware": {"accelerator": acc},
            "roadmap": {"runs_per_month": runs, "annual_growth": growth, "years": years},
        }
    )


# --- Done when: cost grows with usage ---------------------------------------------------------


@MANY
@given(
    st.floats(min_value=0.0, max_value=40.0),
    st.floats(min_value=0.01, max_value=10.0),
    st.floats(min_value=0.0, max_value=1.0),
    st.sampled_from([1, 8, 64, 512]),
)
def test_every_option_costs_at_least_as_much_for_more_runs(
    runs: float, more: float, growth: float, gpus: int
) -> None:
    run_gpu_hours = gpus * 100.0
    less = totals(
        _case(_roadmap(runs, growth=growth), gpus=gpus, run_gpu_hours=run_gpu_hours), _prices()
    )
    most = totals(
        _case(_roadmap(runs + more, growth=growth), gpus=gpus, run_gpu_hours=run_gpu_hours),
        _prices(),
    )
    # a hybrid appears once demand outgrows one run's accelerators; the rest stay priced
    assert set(less) - {"hybrid"} == set(most) - {"hybrid"}
    for key in set(less) & set(most):
        assert most[key] >= less[key] * (1 - 1e-12), key
    assert most["cloud_on_demand"] > less["cloud_on_demand"]


def _prices() -> Any:
    return _roadmap(1).prices


def test_the_engine_follows_the_runs_a_month_not_an_invented_utilisation() -> None:
    base = {"model": {"name": "Llama 2 7B"}, "data": {"tokens": 2e10}}
    few = size_dict({**base, "roadmap": {"runs_per_month": 1}}, today=TODAY)["cost"]
    # 16 runs of 3.3 days on 8 accelerators a month: more than one cluster of 8 can do
    lots = size_dict({**base, "roadmap": {"runs_per_month": 16}}, today=TODAY)["cost"]
    assert lots["cloud_on_demand"]["total_usd"] > 15 * few["cloud_on_demand"]["total_usd"] * 0.99
    # more runs than the cluster can do: an owned cluster grows with them
    assert lots["usage"]["owned_gpus_by_year"][0] > few["usage"]["owned_gpus_by_year"][0]
    assert few["usage"]["basis"] == "roadmap" and few["usage"]["known"]


# --- Done when: a single-GPU job is never charged a full server -------------------------------


def test_one_accelerator_costs_an_eighth_of_a_server_of_eight() -> None:
    """Purchase, power, space, support and staff are all per accelerator: one accelerator
    doing an eighth of the work costs exactly an eighth of eight (storage left out)."""
    r = _roadmap(2)
    one, eight = (
        price_options(_case(r, gpus=g, run_gpu_hours=g * 50.0, storage_tb=0.0), r.prices)
        for g in (1, 8)
    )
    for key in (BUY, COLOCATION):
        one_total = one.options[key].total_usd
        assert one_total == pytest.approx(eight.options[key].total_usd / 8, rel=1e-9), key
        servers = next(line for line in one.owned[key].bought.bill if line.item == SERVERS)
        assert servers.quantity == 1
        staff = one.owned[key].running.staff_usd[0]
        assert staff == pytest.approx(r.prices.staff_cost.value / r.prices.staff_gpus_per_fte.value)


def test_a_single_gpu_fine_tune_buys_one_accelerator_and_no_switch() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "training": {"method": "qlora"},
            "data": {"tokens": 5e7},
            "roadmap": {"runs_per_month": 4},
        },
        today=TODAY,
    )
    assert out["cluster"]["gpus"] == 1
    bill = {line["item"]: line for line in out["cost"]["bill_of_materials"]}
    assert bill["servers"]["quantity"] == 1
    assert "switches" not in bill and "links" not in bill
    assert switch_tiers(1, 8) == 0


# --- Done when: the cloud total never exceeds the stated runs at on-demand prices -------------


@SOME
@given(
    st.floats(min_value=0.0, max_value=30.0),
    st.floats(min_value=1.0, max_value=400.0),
    st.floats(min_value=0.0, max_value=1.0),
    st.sampled_from(["h100-sxm", "a100-80gb", "l40s", "mi300x"]),
)
def test_the_cloud_total_never_exceeds_the_stated_runs_plus_stated_idle_time(
    runs: float, hours: float, growth: float, acc: str
) -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "data": {"tokens": 1e9},
            "hardware": {"accelerator": acc},
            "roadmap": {"runs_per_month": runs, "hours_per_run": hours, "annual_growth": growth},
        },
        today=TODAY,
    )
    cost = out["cost"]
    price = next(
        a["value"]
        for a in out["assumptions"]
        if a["key"] == "prices.cloud_on_demand_usd_per_gpu_hour"
    )
    idle = PRICES["cloud_idle_share"].value
    gpus = out["cluster"]["gpus_per_job"]
    stated = sum(runs * 12 * (1 + growth) ** k * hours * gpus for k in range(3))
    storage = (
        out["storage"]["total_capacity_tb"]
        * 1000
        * PRICES["cloud_storage_usd_per_gb_month"].value
        * 36
    )
    bound = stated * price * (1 + idle) + storage
    assert cost["cloud_on_demand"]["total_usd"] <= bound * (1 + 1e-5) + 1


def test_with_usage_unknown_only_the_planned_runs_are_priced_and_the_output_says_so() -> None:
    out = size_dict(
        {"model": {"name": "Llama 2 7B"}, "data": {"tokens": 2e10}, "training": {"experiments": 2}},
        today=TODAY,
    )
    cost = out["cost"]
    assert cost["usage"]["basis"] == "planned_runs" and not cost["usage"]["known"]
    assert cost["utilisation"] is None
    run = out["compute"]["gpu_hours"]
    price = cost["one_run_cloud_usd"] / run
    idle = PRICES["cloud_idle_share"].value
    compute = cost["cloud_on_demand"]["scales_with_gpu_hours_usd"]
    assert compute == pytest.approx(2 * run * price * (1 + idle), rel=1e-4)
    assert cost["owned_per_month_usd"] > 0
    assert any("did not tell us how often" in r for r in cost["reasons"])
    assert any("runs a month" in q for q in out["open_questions"])
    assert not any(a["key"] == "roadmap.utilisation" for a in out["assumptions"])


# --- Done when: the recommended option is the cheapest that meets the constraints -------------

rules = st.fixed_dictionaries(
    {
        "location": st.sampled_from([None, "on_prem", "colocation", "cloud", "hybrid"]),
        "air_gapped": st.sampled_from([None, True, False]),
        "dedicated_hardware": st.sampled_from([None, True, False]),
    }
)


@SOME
@given(
    rules, st.sampled_from([None, 0.5, 4.0, 30.0]), st.sampled_from(["h100-sxm", "mi300x", "l40s"])
)
def test_the_recommended_option_is_the_cheapest_the_rules_allow(
    deployment: dict[str, Any], runs: float | None, acc: str
) -> None:
    answers = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 5e10},
        "hardware": {"accelerator": acc},
        "deployment": {k: v for k, v in deployment.items() if v is not None},
        "roadmap": {"runs_per_month": runs},
    }
    cost = size_dict(answers, today=TODAY)["cost"]
    excluded = excluded_by(_resolved(answers))
    allowed = {
        k: o["net_usd"]
        for k, o in cost.items()
        if isinstance(o, dict) and "net_usd" in o and not excluded[k]
    }
    if not allowed:
        assert cost["recommended_option"] is None
        return
    best = cost["recommended_option"]
    assert allowed[best] == min(allowed.values())
    overall = min(
        (o["net_usd"], k) for k, o in cost.items() if isinstance(o, dict) and "net_usd" in o
    )
    if overall[1] != best:
        assert cost["constraints"]["binding"]
        assert cost["constraints"]["relax_saving_usd"] == pytest.approx(
            allowed[best] - overall[0], rel=1e-4
        )


def test_an_air_gapped_site_names_the_rule_and_what_it_costs() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "data": {"tokens": 5e10},
            "deployment": {"air_gapped": True},
            # a run every four months: renting is cheaper than owning, even net of what the
            # hardware is still worth after three years
            "roadmap": {"runs_per_month": 0.25},
        },
        today=TODAY,
    )
    cost = out["cost"]
    assert cost["recommended_option"] in ("buy", "colocation")
    assert cost["constraints"]["binding"] == ["air_gapped"]
    assert cost["constraints"]["relax_saving_usd"] > 0
    assert any("no internet connection" in r and "costs" in r for r in cost["reasons"])


# --- regions, missing prices, break-even, sensitivity ----------------------------------------


def test_an_eu_site_is_priced_with_eu_power_and_space() -> None:
    eu = _resolved({"deployment": {"data_residency": "Data must stay in the Netherlands"}})
    us = _resolved({"deployment": {"data_residency": "USA"}})
    assert eu.price_region == "eu" and us.price_region == "north_america"
    assert eu.prices.electricity.value == PRICES["electricity_usd_per_kwh_eu"].value
    assert eu.prices.colocation.value == PRICES["colocation_usd_per_kw_month_eu"].value
    assert us.prices.colocation.value == PRICES["colocation_usd_per_kw_month_north_america"].value


def test_an_accelerator_without_a_purchase_price_is_not_bought() -> None:
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "data": {"tokens": 1e10},
            "hardware": {"accelerator": "l40s"},
        },
        today=TODAY,
    )
    cost = out["cost"]
    assert cost["buy"] is None and cost["colocation"] is None and cost["hybrid"] is None
    missing = {item["option"] for item in cost["not_priced"]}
    assert {"buy", "colocation", "hybrid"} <= missing
    assert cost["cloud_on_demand"]["total_usd"] > 0


def test_the_mi325x_is_bought_at_a_price_estimated_from_the_mi300x_and_says_so() -> None:
    """No dated public MI325X price exists; buying it is priced from the MI300X's baseboard and
    one provider's rents for both, flagged as an estimate with both sources and the date."""
    out = size_dict(
        {
            "model": {"name": "Llama 2 7B"},
            "data": {"tokens": 1e10},
            "hardware": {"accelerator": "mi325x"},
            "deployment": {"location": "on_prem"},
        },
        today=TODAY,
    )
    assert out["cost"]["buy"] is not None
    price = next(a for a in out["assumptions"] if a["key"] == "prices.purchase_usd_per_gpu")
    host = PRICES["host_platform_usd_per_server"].value / 8  # an 8-accelerator baseboard's
    mi300x = 205_872 / 8
    assert mi300x < price["value"] - host <= mi300x * 256 / 192
    assert price["source"].startswith("estimate: ") and ESTIMATE in price["source"]
    assert "MI300X" in price["source"] and "TensorWave" in price["source"]


@pytest.mark.parametrize("owned", [BUY, COLOCATION])
def test_at_the_break_even_utilisation_owning_and_renting_cost_the_same(owned: str) -> None:
    r = _resolved({"roadmap": {"utilisation": 0.5}})
    case = _case(r, gpus=64, run_gpu_hours=64 * 100.0)
    capacity = price_options(case, r.prices).capacity
    even = break_even(case, r.prices, owned=owned, rented="cloud_on_demand", capacity=capacity)
    assert even.utilisation is not None and 0 < even.utilisation < 1
    at = _resolved({"roadmap": {"utilisation": even.utilisation}})
    there = totals(_case(at, gpus=64, run_gpu_hours=64 * 100.0), at.prices)
    assert there[owned] == pytest.approx(there["cloud_on_demand"], rel=1e-9)
    busier = _resolved({"roadmap": {"utilisation": min(1.0, even.utilisation + 0.1)}})
    beyond = totals(_case(busier, gpus=64, run_gpu_hours=64 * 100.0), busier.prices)
    assert beyond[owned] < beyond["cloud_on_demand"]


def _seven_b_cost(runs_per_month: float) -> dict[str, Any]:
    """The cost section for Llama 2 7B on 50B tokens, ``runs_per_month`` runs a month."""
    answers = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 5e10},
        "roadmap": {"runs_per_month": runs_per_month},
    }
    cost: dict[str, Any] = size_dict(answers, today=TODAY)["cost"]
    return cost


def test_the_range_holds_the_total_and_the_top_three_prices_move_it_most() -> None:
    cost = _seven_b_cost(2)
    best = cost[cost["recommended_option"]]
    low, high = best["range_usd"]
    assert low < best["net_usd"] < high
    spreads = [abs(s["total_high_usd"] - s["total_low_usd"]) for s in cost["sensitivity"]]
    assert len(spreads) == 3 and spreads == sorted(spreads, reverse=True)
    assert cost["eur"]["total_eur"] == pytest.approx(
        best["net_usd"] / PRICES["usd_per_eur"].value, rel=1e-4
    )
    assert math.isclose(best["capex_usd"] + best["running_usd"], best["total_usd"], rel_tol=1e-4)


def test_what_moves_the_total_varies_the_customers_growth_and_runs_a_month() -> None:
    """Reader finding A12: a plan growing 100 % a year listed only prices as what moves the
    total.  The growth and the runs a month are moved half below and above the answer."""
    answers = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 5e10},
        "roadmap": {"runs_per_month": 4, "annual_growth": 1.0, "years": 3},
    }
    cost = size_dict(answers, today=TODAY)["cost"]
    rows = {s["price"]: s for s in cost["sensitivity"]}
    assert "roadmap_growth" in rows and "runs_per_month" in rows
    assert (rows["roadmap_growth"]["low_value"], rows["roadmap_growth"]["high_value"]) == (
        pytest.approx(0.5),
        pytest.approx(1.5),
    )
    assert (rows["runs_per_month"]["low_value"], rows["runs_per_month"]["high_value"]) == (2, 6)
    best = cost[cost["recommended_option"]]["net_usd"]
    assert rows["runs_per_month"]["total_low_usd"] < best < rows["runs_per_month"]["total_high_usd"]


def test_what_moves_the_total_leaves_out_swings_under_one_percent() -> None:
    """Reader finding A12: "Cloud storage price … $126,408 to $126,415", a $7 swing, was listed."""
    answers = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 5e9},
        "roadmap": {"runs_per_month": 10},
        "deployment": {"location": "cloud"},
    }
    cost = size_dict(answers, today=TODAY)["cost"]
    best = cost[cost["recommended_option"]]["net_usd"]
    assert cost["sensitivity"]
    for row in cost["sensitivity"]:
        assert abs(row["total_high_usd"] - row["total_low_usd"]) >= 0.01 * best, row["price"]


def test_rented_storage_keeps_final_checkpoints_not_the_rolling_window_between_short_runs() -> None:
    """Reader finding A9: "Rented storage $471 a year" beside "Rented accelerator time $280 a
    year" for a run of under 2 hours twice a month, its five checkpoints billed all year.
    Between runs only the dataset and the final checkpoint are kept; the rolling window is
    rented while runs run (cost.cloud.rented_storage_usd)."""
    answers = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 5.12e7, "epochs": 1},
        "roadmap": {"runs_per_month": 2},
        "deployment": {"location": "cloud"},
    }
    out = size_dict(answers, today=TODAY)
    cost, storage = out["cost"], out["storage"]
    parts = cost["cloud_on_demand"]["parts_by_year_usd"]
    assert parts["storage"][0] < parts["rented"][0]
    price = PRICES["cloud_storage_usd_per_gb_month"].value
    rolling_tb = storage["checkpoint_capacity_tb"] * (1 - 1 / storage["checkpoints_retained"])
    kept_tb = storage["total_capacity_tb"] - rolling_tb
    running_months = cost["usage"]["gpu_hours_by_year"][0] / cost["usage"]["gpus_per_run"] / 730
    expected = (kept_tb * 12 + rolling_tb * running_months) * 1000 * price
    assert parts["storage"][0] == pytest.approx(expected, rel=1e-4)


def test_owned_capacity_grows_with_demand_beyond_what_the_cluster_can_run() -> None:
    r = _roadmap(30.0, growth=1.0)
    case = _case(r, gpus=8, run_gpu_hours=8 * 100.0)
    capacity = price_options(case, r.prices).capacity
    assert capacity == tuple(sorted(capacity)) and capacity[0] > 8
    demand = case.usage.gpu_hours_by_year[-1]
    assert capacity[-1] * HOURS_PER_YEAR * 0.9 >= demand


# --- worked examples of docs/cost.md, against published figures ------------------------------


@pytest.mark.parametrize(
    ("gpus", "published_usd", "switches"),
    [
        # H100 Freakonomics spreadsheet (Aug 2024): nodes + switches + connectors and cables
        (512, 19_840_000 + 288_000 + 675_840, 8),
        (1024, 39_680_000 + 1_728_000 + 2_621_440, 48),
    ],
)
def test_an_h100_cluster_bill_matches_the_published_spreadsheet(
    gpus: int, published_usd: float, switches: int
) -> None:
    prices = _resolved({"hardware": {"accelerator": "h100-sxm"}}).prices
    bill = bill_of_materials(gpus, gpus_per_node=8, storage_tb=0.0, prices=prices)
    lines = {line.item: line for line in bill}
    assert lines["switches"].quantity == switches
    hardware = bom_total(bill, hardware_only=True)
    assert hardware == pytest.approx(published_usd, rel=0.002)
    assert lines[INSTALLATION].total_usd == pytest.approx(
        hardware * PRICES["installation_share"].value
    )


@pytest.mark.parametrize(
    ("gpus", "oversubscription"), [(320, 1.0), (416, 2.0), (800, 1.0), (800, 2.0)]
)
def test_the_bill_buys_the_switches_and_links_of_the_fabric_layout(
    gpus: int, oversubscription: float
) -> None:
    prices = _resolved({"hardware": {"accelerator": "h100-sxm"}}).prices
    bill = bill_of_materials(
        gpus, gpus_per_node=8, storage_tb=0.0, prices=prices, oversubscription=oversubscription
    )
    lines = {line.item: line.quantity for line in bill}
    layout = fabric_layout(gpus, 8, oversubscription)
    assert lines["switches"] == layout.switches
    assert lines["links"] == gpus  # one per network card
    assert lines.get("switch_links", 0) == layout.switch_links
    if layout.tiers == 1:  # rail switches: nothing between switches
        assert "switch_links" not in lines and layout.switches == 8
    else:
        assert lines["switch_links"] == math.ceil(gpus / oversubscription)


@pytest.mark.parametrize("kind", ["gpu_cloud", "large_cloud"])
def test_the_alpaca_fine_tune_costs_under_100_dollars_in_the_cloud(kind: str) -> None:
    """Stanford Alpaca (CRFM, 2023-03-13): 3 hours on 8 x A100 80GB, "less than $100 on most
    cloud compute providers"; priced here at today's on-demand prices with idle time."""
    r = _resolved({"hardware": {"accelerator": "a100-80gb"}, "training": {"experiments": 1}})
    work = usage(r, run_gpu_hours=24.0, gpus_per_run=8, cluster_gpus=8, all_runs_days=0.125)
    price = getattr(r.prices, kind).value
    bill = on_demand(work, price, storage_tb=0.0, prices=r.prices)
    assert 50.0 < bill.total_usd < 100.0
    assert bill.total_usd == pytest.approx(24.0 * price * (1 + PRICES["cloud_idle_share"].value))


def test_docs_list_every_price() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "cost.md").read_text()
    for key in PRICES:
        assert f"`{key}`" in doc, key
    for acc in ACCELERATOR_PRICES:
        assert f"| {acc} |" in doc, acc


def test_owning_buys_the_hot_spares_the_plan_keeps_and_renting_does_not() -> None:
    r = _roadmap(2)
    priced = price_options(_case(r, gpus=64, run_gpu_hours=64 * 100.0), r.prices)
    servers = next(line for line in priced.owned[BUY].bought.bill if line.item == SERVERS)
    assert servers.quantity == 64 + 8  # 8 nodes keep one spare node (8 %, from 4 nodes up)
    assert priced.options["cloud_reserved"].capacity == (64, 64, 64)


@pytest.mark.parametrize(("wanted", "more"), [(False, False), (None, True), (True, True)])
def test_spare_servers_are_bought_only_when_the_customer_does_not_refuse_them(
    wanted: bool | None, more: bool
) -> None:
    data = {
        "model": {"name": "Llama 3.1 70B"},
        "data": {"tokens": 1e12},
        "schedule": {"deadline_days": 30},
        "deployment": {"location": "on_prem"},
        "resilience": {"spare_nodes": wanted},
    }
    out = size_dict(data, today=TODAY)
    cluster, cost = out["cluster"], out["cost"]
    spare = cluster["spare_nodes"]
    assert (spare > 0) is more
    first_year = cost["usage"]["owned_gpus_by_year"][0]
    working = math.ceil(cluster["gpus"] / cluster["gpus_per_node"]) * cluster["gpus_per_node"]
    assert (first_year > working) is more


def test_the_site_powers_and_racks_every_server_an_owned_cluster_buys() -> None:
    data = {
        "model": {"name": "Llama 3.1 70B"},
        "data": {"tokens": 1e12},
        "schedule": {"deadline_days": 30},
        "deployment": {"location": "on_prem"},
        "roadmap": {"runs_per_month": 1, "annual_growth": 1.0, "years": 3},
    }
    out = size_dict(data, today=TODAY)
    owned = out["cost"]["usage"]["owned_gpus_by_year"]
    per_node = out["cluster"]["gpus_per_node"]
    assert owned[-1] > owned[0]  # the cluster grows: the site is for its largest year
    site = out["deployment"]
    assert site["servers"] == math.ceil(max(owned) / per_node)
    assert site["racks"] == math.ceil(site["servers"] / site["nodes_per_rack"])
    assert site["facility_power_kw"] == pytest.approx(
        site["servers"] * site["rack_power_kw"] / site["nodes_per_rack"]
    )


def test_the_cost_says_what_the_projects_own_runs_alone_would_cost() -> None:
    data = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 2e10},
        "training": {"experiments": 3},
        "roadmap": {"runs_per_month": 1},
    }
    out = size_dict(data, today=TODAY)
    one_run = out["cost"]["one_run_cloud_usd"]
    (sentence,) = [s for s in out["cost"]["reasons"] if "This project alone" in s]
    assert "(3 runs)" in sentence
    said = re.search(r"would cost about \$([\d,]+) in the GPU cloud", sentence)
    assert said and float(said.group(1).replace(",", "")) == pytest.approx(one_run * 3, abs=1)


def test_a_plan_shorter_than_a_reservations_term_pays_the_whole_term() -> None:
    r = resolve(parse_input({"model": {"name": "Llama 2 7B"}}), today=TODAY)
    work = Usage(
        basis="roadmap",
        runs_per_month=1.0,
        gpus_per_run=8,
        gpu_hours_per_run=1000.0,
        gpu_hours_by_year=(12000.0, 12000.0),
        months_by_year=(12.0, 12.0),
    )
    two_years = reserved(work, (8, 8), 2.0, term_years=3, storage_tb=0.0, prices=r.prices)
    # three years of 8 accelerators held, though the plan covers two
    assert sum(two_years.by_year_usd) == pytest.approx(3 * 8 * HOURS_PER_YEAR * 2.0)
    assert two_years.by_year_usd[0] == pytest.approx(8 * HOURS_PER_YEAR * 2.0)
    three_years = reserved(
        replace(work, gpu_hours_by_year=(12000.0,) * 3, months_by_year=(12.0,) * 3),
        (8, 8, 8),
        2.0,
        term_years=3,
        storage_tb=0.0,
        prices=r.prices,
    )
    assert sum(three_years.by_year_usd) == pytest.approx(sum(two_years.by_year_usd))


def test_one_run_and_nothing_after_pays_each_reservation_for_its_whole_term() -> None:
    # One three-week run on 8 accelerators (4,032 GPU-h) and nothing after it: a one-year
    # reservation holds the 8 for 8,760 hours each (4,032 / 70,080 = 5.8 % used), a three-year
    # one for three times that (1.9 %), whether used or not.
    r = resolve(parse_input({"model": {"name": "Llama 2 7B"}}), today=TODAY)
    run = 8 * 21 * 24.0
    work = Usage(
        basis="planned_runs",
        runs_per_month=None,
        gpus_per_run=8,
        gpu_hours_per_run=run,
        gpu_hours_by_year=(run, 0.0, 0.0),
        months_by_year=(0.7, 0.0, 0.0),
    )
    one_year = reserved(work, (8, 8, 8), 2.0, term_years=1, storage_tb=0.0, prices=r.prices)
    assert one_year.total_usd == pytest.approx(8 * HOURS_PER_YEAR * 2.0)  # the whole year
    assert one_year.commitment_years == 1
    assert one_year.commitment_used_share == pytest.approx(run / (8 * HOURS_PER_YEAR))
    three = reserved(work, (8, 8, 8), 2.0, term_years=3, storage_tb=0.0, prices=r.prices)
    assert three.total_usd == pytest.approx(3 * 8 * HOURS_PER_YEAR * 2.0)
    assert three.commitment_used_share == pytest.approx(run / (3 * 8 * HOURS_PER_YEAR))
    # the sized plan says so in words when the customer gave no runs after the planned one
    cost = size_dict({"model": {"name": "Llama 2 7B"}, "data": {"tokens": 5e10}}, today=TODAY)[
        "cost"
    ]
    assert cost["usage"]["known"] is False
    for key, term in (("cloud_reserved_1yr", 1), ("cloud_reserved", 3)):
        assert cost[key]["commitment_years"] == term
        assert 0 < cost[key]["commitment_used_share"] < 1
    (sentence,) = [s for s in cost["reasons"] if "whole term" in s]
    assert "worth it only if you use the capacity after" in sentence
    # with runs a month (question 15) the reservations are priced for that use, without it
    known = _seven_b_cost(1)
    assert not [s for s in known["reasons"] if "whole term" in s]


# --- each year's cost by part: what the CFO's table adds up ------------------------------------

PART_CASES = [
    {
        "model": {"name": "Llama 3.1 70B"},
        "data": {"tokens": 4e11},
        "roadmap": {"runs_per_month": 1},
    },
    {
        "model": {"name": "Llama 3.1 8B"},
        "data": {"tokens": 2e9},
        "deployment": {"location": "cloud"},
        "roadmap": {"runs_per_month": 10, "years": 2},
    },
    {
        "model": {"name": "Mixtral 8x22B"},
        "data": {"tokens": 2e12},
        "schedule": {"deadline_days": 60},
        "roadmap": {"runs_per_month": 0.5, "annual_growth": 1.0},
    },
]


@pytest.mark.parametrize("case", PART_CASES)
def test_each_years_parts_add_up_to_that_years_cost_for_every_option(case) -> None:
    cost = size_dict(case, today=TODAY)["cost"]
    for key in COST_OPTIONS:
        option = cost.get(key)
        if not option:
            continue
        parts = option["parts_by_year_usd"]
        for year, amount in enumerate(option["by_year_usd"]):
            assert sum(p[year] for p in parts.values()) == pytest.approx(amount, rel=1e-4), key
        hardware = sum(parts.get("hardware", ()))
        assert hardware == pytest.approx(option["capex_usd"], rel=1e-4, abs=1.0), key
        if option["capex_usd"]:  # owned: the running parts are power, space, support, staff
            assert {"power", "space", "support", "staff"} <= set(parts)
            assert 0 < option["residual_value_usd"] < option["capex_usd"]
        else:
            assert option["residual_value_usd"] == 0


def test_options_are_ranked_net_of_what_the_hardware_is_still_worth() -> None:
    # One run a month of a 7B model: bought servers cost more in all than a three-year
    # reservation, but are still worth about a third of their price after three years.  The
    # proposal shows that value; ranking by the gross total would call the reservation cheapest
    # beside a table where buying nets out lower.
    cost = _seven_b_cost(1)
    priced = {k: o for k, o in cost.items() if isinstance(o, dict) and "by_year_usd" in o}
    for option in priced.values():
        assert option["net_usd"] == pytest.approx(
            option["total_usd"] - option["residual_value_usd"], rel=1e-5
        )
    assert min(priced, key=lambda k: priced[k]["total_usd"]) == "cloud_reserved"
    assert cost["recommended_option"] == min(priced, key=lambda k: priced[k]["net_usd"]) == "buy"
    first = cost["reasons"][0]
    assert format_money(priced["buy"]["net_usd"]) in first
    assert "still worth at the end of year 3" in first
    # the reservation is within the likely range: no winner is declared without saying so
    assert "ranges overlap" in first


def test_the_monthly_accelerator_hours_are_the_runs_times_the_hours_printed() -> None:
    """Reader finding A7: "2 runs a month, each of 3 accelerator-hours (5 accelerator-hours a
    month)"."""
    answers = {
        "model": {"name": "Llama 2 7B"},
        "data": {"tokens": 5.12e7, "epochs": 1},
        "roadmap": {"runs_per_month": 2},
    }
    reasons = " ".join(size_dict(answers, today=TODAY)["cost"]["reasons"])
    found = re.search(
        r"Priced for 2 runs a month, each of ([\d.,]+) accelerator-hours "
        r"\(([\d.,]+) accelerator-hours a month\)",
        reasons,
    )
    assert found, reasons
    each, monthly = (float(g.replace(",", "")) for g in found.groups())
    assert monthly == pytest.approx(2 * each)


def test_a_cluster_busy_a_fraction_of_a_per_cent_is_not_called_busy_0_per_cent() -> None:
    # reader finding A13: "an owned cluster would be busy 0 % of the time"
    small = {
        "model": {"name": "Llama 3.1 8B"},
        "training": {"method": "lora"},
        "data": {"tokens": 1e7},
        "roadmap": {"runs_per_month": 1},
    }
    reasons = " ".join(size_dict(small)["cost"]["reasons"])
    assert "busy 0 %" not in reasons
    assert "busy less than 1 % of the time" in reasons


# --- Priced once: the options the sensitivity analysis starts from ------------------------------


def test_the_options_priced_while_noting_the_prices_read_cost_what_they_cost() -> None:
    """The costs the sensitivity analysis starts from are priced on copies of the prices that
    note what each option reads (``options.price_options_reading``)."""
    r = _roadmap(2.0, growth=0.3)
    case = _case(r, gpus=64, run_gpu_hours=64 * 300.0)
    priced, reads = price_options_reading(case, r.prices)
    plain = price_options(case, r.prices)
    assert priced.options == plain.options
    assert priced.owned == plain.owned
    assert (priced.capacity, priced.owned_gpus) == (plain.capacity, plain.owned_gpus)
    assert "purchase" in reads[BUY] and "purchase" in reads[COLOCATION]


@pytest.mark.parametrize("owned_gpus", [0, 16, 64])
@pytest.mark.parametrize("fabric", [True, False])
def test_purchases_read_only_the_purchase_prices(owned_gpus: int, fabric: bool) -> None:
    """A pricing at other prices keeps what was bought when the prices in ``PURCHASE_PRICES``
    are the same (``OptionPricing.at_prices``): right only while :func:`purchases` reads no
    other price."""
    prices = _resolved({"hardware": {"accelerator": "h100-sxm"}}).prices
    reads: set[str] = set()
    purchases(
        (32, 64, 128),
        gpus_per_node=8,
        storage_tb=40.0,
        prices=noting_reads(prices, reads),
        oversubscription=2.0,
        owned_gpus=owned_gpus,
        fabric=fabric,
        owned_storage_tb=10.0 if owned_gpus else None,
    )
    assert reads == set(PURCHASE_PRICES)


@pytest.mark.parametrize("kept_tb", [None, 0.0, 25.0])
def test_rented_storage_reads_only_the_storage_prices(kept_tb: float | None) -> None:
    """A pricing at other prices keeps the storage rented when the prices in
    ``STORAGE_PRICES`` are the same (``OptionPricing.at_prices``): right only while
    :func:`rented_storage_usd` reads no other price."""
    r = _roadmap(3)
    reads: set[str] = set()
    work = _case(r, gpus=64, run_gpu_hours=64 * 240.0).usage
    rented_storage_usd(work, 100.0, kept_tb, noting_reads(r.prices, reads))
    assert reads == set(STORAGE_PRICES)
