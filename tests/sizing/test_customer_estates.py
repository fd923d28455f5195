"""Customers 5, 7 and 9 of the shared customer scenarios, through the engine: each story's
credible answer holds (issue 26).

5. A robotics start-up owns two DGX A100 (16 A100 80GB, HDR InfiniBand, a 200 TB NAS): the
   plan runs on what they own, their network and NAS count, nothing is bought.
7. A research centre with 2 MW for IT and cooling, AMD MI325X preferred: the power is
   honoured and the AMD part kept, on ROCm.
9. An AI lab with 512 H100 and at most $40 million, as fast as it can: the owned 512 first,
   rented help to the soonest date the budget allows, the days against the dollars, and no
   accelerator bought beside the rented help.
"""

from __future__ import annotations

import datetime

import pytest

from sizing.engine import size_dict
from sizing.engine.assumptions import overridden, value
from sizing.engine.cost.prices import PRICES
from sizing.engine.hardware import ACCELERATORS
from sizing.owned_reading import read_owned
from sizing.stored_result import read_result
from sizing.words.cost import recurring_line
from sizing.words.estate import estate_lines
from sizing.words.estimate import figures_of
from sizing.words.rival import platform_lines

TODAY = datetime.date(2026, 12, 4)


def _robotics(storage_tb: float = 200.0, runs_per_month: float | None = None) -> dict:
    owned = read_owned("two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS)")
    assert owned is not None
    return size_dict(
        {
            "model": {"total_params": 34e9},
            "training": {"method": "full_finetune"},
            "data": {"tokens": 30e9},
            "schedule": {"deadline_days": 21},
            "hardware": {"vendors": ["nvidia"]},
            "deployment": {"location": "hybrid"},
            **({"roadmap": {"runs_per_month": runs_per_month}} if runs_per_month else {}),
            "estate": {
                "accelerator": owned.accelerator,
                "count": owned.count,
                "fabric": owned.fabric,
                "fabric_gbps": owned.fabric_gbps,
                "storage_tb": storage_tb,
            },
        },
        today=TODAY,
    )


def test_customer_5_reads_their_dgx_servers_fabric_and_nas() -> None:
    owned = read_owned("two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS)")
    assert owned is not None
    assert (owned.accelerator, owned.count) == ("a100-80gb", 16)
    assert (owned.fabric, owned.fabric_gbps, owned.storage_tb) == ("infiniband", 200, 200.0)


def test_customer_5_runs_on_what_they_own_and_buys_no_network_or_storage() -> None:
    out = _robotics()
    estate, cost = out["estate"], out["cost"]
    assert (out["cluster"]["accelerator"], out["cluster"]["gpus"]) == ("a100-80gb", 16)
    assert cost["recommended_option"] == "buy" and cost["capex_usd"] == 0
    assert cost["bill_of_materials"] == []  # no network, no storage, no servers bought
    assert estate["owned_fabric_serves"] is True
    assert estate["fabric_needed_gbps"] <= 200
    assert estate["storage_added_tb"] == 0
    assert estate["storage_needed_tb"] <= 200
    assert estate["owned_capex_usd"] == 0 and estate["owned_running_usd"] > 0
    assert estate["add"] == "rent"  # 21 days holds only with rented help, never a purchase
    # their answer keeps the maker rule: never "any maker" assumed
    vendors = next(a for a in out["assumptions"] if a["key"] == "hardware.vendors")
    assert vendors["provided_by"] == "customer" and "nvidia" in str(vendors["value"])


def test_customer_5_is_not_told_that_dropping_what_they_own_would_save_money() -> None:
    # before: "Your rule (what you already own runs it) rules out GPU cloud ...: keeping it
    # costs $192,433 more", and "Whether your rules are firm: without them ... would save",
    # though the running cost of servers they own is paid whether or not they train
    result = read_result(_robotics())
    constraints = result.section("cost")["constraints"]
    assert constraints["relax_saving_usd"] is None
    reasons = " ".join(result.cost_reasons)
    assert "keeping it costs" not in reasons and "Your rule (" not in reasons
    # the cheapest option of all is the one on what they own, so no rule costs them anything
    assert constraints["binding"] == [] and constraints["cheapest_overall"] == "buy"
    assert "running the accelerators you own costs" in reasons
    # nothing is bought, so no word of when owning pays for itself against renting
    assert "Owning beats renting" not in reasons and "pays for itself" not in reasons


def test_customer_5s_cost_a_run_says_the_help_rented_for_each_run() -> None:
    # one run a quarter: "About $6,643 a month, or $20,131 a run" priced their A100 alone,
    # while each run also rents 4 H100 for about $7,015 (said only as "for one run" elsewhere)
    result = read_result(_robotics(runs_per_month=1 / 3))
    line = recurring_line(result)
    help_usd = result.estate.add_cost_usd
    # the rent is inside the cost of a run (cost.owned.RentedHelp), and said so
    assert help_usd and f"a run including about {result.money(help_usd)} a run for the 4 " in line
    assert "rented beside them (about 12 runs over 3 years)" in line, line


def test_customer_5_with_a_small_nas_buys_only_the_storage_beyond_it() -> None:
    out = _robotics(storage_tb=1.0)
    estate = out["estate"]
    items = {line["item"]: line for line in out["cost"]["bill_of_materials"]}
    assert set(items) == {"storage", "installation"}
    assert items["storage"]["quantity"] == pytest.approx(estate["storage_added_tb"], rel=1e-3)
    assert estate["storage_added_tb"] == pytest.approx(estate["storage_needed_tb"] - 1.0)
    share = PRICES["installation_share"].value
    assert out["cost"]["capex_usd"] == pytest.approx(
        items["storage"]["total_usd"] * (1 + share), abs=0.01
    )


_AI_LAB_RUN = {
    "model": {"architecture": "dense", "total_params": 120e9},
    "training": {"method": "pretrain"},
    "data": {"tokens": 8e12},
}


def _ai_lab(budget_usd: float = 40e6) -> dict:
    return size_dict(
        {
            **_AI_LAB_RUN,
            "hardware": {"vendors": ["nvidia"]},
            "deployment": {"location": "hybrid"},
            "estate": {"accelerator": "h100-sxm", "count": 512, "budget_usd": budget_usd},
        },
        today=TODAY,
    )


def test_customer_9_rents_at_most_one_short_term_cluster_beside_their_512() -> None:
    """ "As fast as we can but at most $40 million": no cloud rents 64,736 H100 for 4.2 days
    (what this plan rented before), so the help is held to the largest cluster rented for days
    or weeks without a negotiated contract, 512 (an AWS Capacity Block), for no longer than
    such a rental lasts; the run ends when that help allows, within the budget."""
    estate = _ai_lab()["estate"]
    most = value("short_rent_max_gpus")
    assert estate["add"] == "rent" and 0 < estate["add_count"] <= most == 512
    assert estate["rent_capped"] is True and estate["rent_cap_gpus"] == 512
    assert estate["add_days"] <= value("short_rent_max_days")
    assert estate["rent_beyond_short_term"] is False
    assert estate["budget_sets_soonest"] is False and estate["cost_usd"] <= 40e6
    # their 512 and the 512 rented share the run: it ends sooner than on theirs alone
    assert estate["owned_days_used"] < estate["owned_days"]
    # the days against dollars never rent more than that cluster either
    assert all(point["add_count"] <= most for point in estate["trade_off"])


def test_a_larger_short_term_cluster_lets_the_budget_set_the_date_again() -> None:
    """The cap is the assumption's, not a number in the search: with no such limit the same
    customer rents far more for days (the plan before), the soonest any size reaches."""
    with overridden({"short_rent_max_gpus": 10**7}):
        estate = _ai_lab()["estate"]
    assert estate["rent_capped"] is False and estate["add_count"] > 10 * 512
    assert estate["owned_days_used"] < _ai_lab()["estate"]["owned_days_used"] / 10


def test_a_smaller_budget_sets_the_date_and_is_spent_up_to_it() -> None:
    """At $5 million the budget, not the rented cluster's size, sets the soonest date: one run
    costs the budget (to the search's 2 % in days), and the date lies between the $40 million
    one and the estate alone."""
    estate = _ai_lab(5e6)["estate"]
    assert estate["budget_sets_soonest"] is True and estate["rent_capped"] is False
    assert 0.95 * 5e6 <= estate["cost_usd"] <= 5e6
    soonest = estate["trade_off"][0]
    assert soonest["days"] == estate["owned_days_used"] and soonest["cost_usd"] <= 5e6
    assert _ai_lab()["estate"]["owned_days_used"] < soonest["days"] < estate["owned_days"]


def test_customer_9_three_year_cost_holds_the_rent_every_run_needs() -> None:
    """The 3-year cost was $10.23 million (their 512 running for 3 years) beside one run
    costing $26.07 million: a 3-year figure below one run inside it.  The owned option now
    holds the help rented for every run of the horizon (one planned run here) beside their
    running cost, so it is at least one run's cost and the rent plus their running."""
    out = _ai_lab()
    estate, option = out["estate"], out["cost"]["buy"]
    runs = (
        sum(out["cost"]["usage"]["gpu_hours_by_year"]) / out["cost"]["usage"]["gpu_hours_per_run"]
    )
    rented = sum(option["parts_by_year_usd"]["rented"])
    assert rented == pytest.approx(runs * estate["add_cost_usd"], rel=1e-6)
    running = option["net_usd"] - rented
    assert running >= estate["owned_running_usd"]  # three years of theirs, at least one run's
    assert option["net_usd"] >= estate["add_cost_usd"] * runs + estate["owned_running_usd"]
    assert option["net_usd"] >= estate["cost_usd"]
    assert out["cost"]["running_usd"] == pytest.approx(option["net_usd"])


def test_customer_9_budget_line_names_the_cost_pages_figure() -> None:
    """The budget line gives one run's cost against the ceiling, and the 3-year figure the
    cost page shows, the same amount; and says why no more is rented."""
    result = read_result(_ai_lab())
    lines = estate_lines(result)
    budget = next(line for line in lines if line.startswith("Your budget ceiling"))
    total = result.section("cost")["buy"]["net_usd"]
    assert "Over 3 years, with your accelerators' running cost all the time" in budget
    assert result.money(total) in budget
    assert result.money(result.estate.cost_usd) in budget
    assert any("needs a negotiated reservation with a provider" in line for line in lines)


def test_customer_5_three_year_cost_holds_the_few_rented_beside_their_dgx() -> None:
    """Customer 5 rents a few H100 beside their 16 A100 (no cap binds): the 3-year figure
    holds that rent, and the figure said against a budget is that same total."""
    out = _robotics()
    estate, option = out["estate"], out["cost"]["buy"]
    assert 0 < estate["add_count"] <= 512 and estate["rent_capped"] is False
    assert sum(option["parts_by_year_usd"]["rented"]) == pytest.approx(estate["add_cost_usd"])
    assert estate["cost_usd"] == pytest.approx(option["net_usd"])


def test_customer_9_rents_to_the_soonest_date_the_budget_allows_and_buys_nothing() -> None:
    out = _ai_lab()
    estate = out["estate"]
    assert (out["cluster"]["accelerator"], out["cluster"]["gpus"]) == ("h100-sxm", 512)
    # the owned 512 first, rented help beside them: no server bought beside the help
    assert estate["add"] == "rent" and estate["add_count"] > 0
    assert not [i for i in out["cost"]["bill_of_materials"] if i["item"] == "servers"]
    assert estate["cost_is_one_run"] is True
    assert estate["cost_usd"] <= estate["budget_usd"] == 40e6
    assert estate["cost_usd"] == pytest.approx(
        estate["owned_running_usd"] + estate["add_cost_usd"], rel=1e-6
    )
    assert estate["budget_soonest_days"] == pytest.approx(estate["owned_days_used"])
    assert estate["budget_soonest_days"] < estate["owned_days"]


def test_customer_9_sees_days_against_dollars() -> None:
    points = _ai_lab()["estate"]["trade_off"]
    assert len(points) == 3
    days = [p["days"] for p in points]
    costs = [p["cost_usd"] for p in points]
    assert days == sorted(days) and costs == sorted(costs, reverse=True)
    assert points[-1]["add_count"] == 0  # the last point: their 512 alone
    assert points[0]["add_count"] > points[1]["add_count"] > 0


def _research_centre() -> dict:
    return size_dict(
        {
            "model": {
                "architecture": "moe",
                "total_params": 30e9,
                "active_params": 3e9,
                "experts": 64,
                "experts_per_token": 8,
            },
            "training": {"method": "pretrain"},
            "data": {"tokens": 4e12},
            "schedule": {"deadline_days": 45},
            "hardware": {"accelerator": "mi325x", "count": 128, "vendors": ["amd", "nvidia"]},
            "deployment": {"location": "on_prem"},
            "estate": {"power_kw": 2000},
        },
        today=TODAY,
    )


def test_customer_7_keeps_the_amd_part_within_the_power_of_the_hall() -> None:
    out = _research_centre()
    assert out["cluster"]["accelerator"] == "mi325x"
    assert ACCELERATORS["mi325x"].software == "rocm"
    assert out["estate"]["cluster_power_kw"] <= 2000
    assert out["timeline"]["wall_clock_days"] <= 45
    # AMD's servers take 400 Gb/s cards, never an end-of-life fabric
    assert out["network"]["nic_gbps"] == 400
    h200 = next(a for a in out["alternatives"] if a["accelerator"] == "h200")
    assert h200["fits"] and h200["wall_clock_days"] <= 45


def test_customer_7_names_rocm_and_sets_the_h200_beside_the_amd_part() -> None:
    out = _research_centre()
    lines = platform_lines(read_result(out))
    assert "AMD ROCm" in lines[0]
    assert lines[1].startswith("On the same 128 accelerators, NVIDIA H200 SXM 141GB would take")
    assert lines[1].count("with cooling") == 2 and lines[1].count("over the plan (buy") == 2
    assert "Both fit within your power available." in lines[1] and "less certain" in lines[1]


def test_customer_7_sets_the_h200_on_as_many_accelerators_with_time_cost_and_power() -> None:
    """The MI325X is compared with the part AMD launched it against, the H200, at the same
    scale: the same way of paying (buying, now the MI325X has an estimated price), the power
    with cooling inside the hall's 2 MW, and the AMD part's range the wider (thin evidence)."""
    out = _research_centre()
    peer = out["peer"]
    assert (peer["accelerator"], peer["gpus"]) == ("h200", out["cluster"]["gpus"])
    assert peer["fits"] and peer["option"] == out["cost"]["recommended_option"] == "buy"
    assert peer["net_usd"] > 0 and out["cost"]["buy"]["net_usd"] > 0
    assert peer["within_power"] and 0 < peer["facility_power_kw"] <= 2000
    low, high = out["timeline"]["wall_clock_days_range"]
    peer_low, peer_high = peer["wall_clock_days_range"]
    assert high / low > peer_high / peer_low


def test_an_nvidia_plan_or_one_on_owned_amd_parts_has_no_peer() -> None:
    assert "peer" not in _ai_lab()
    owned = size_dict(
        {
            "model": {"total_params": 7e9},
            "data": {"tokens": 1e10},
            "estate": {"accelerator": "mi325x", "count": 8},
        },
        today=TODAY,
    )
    assert owned["cluster"]["accelerator"] == "mi325x" and "peer" not in owned


def test_an_nvidia_plan_needs_no_platform_lines() -> None:
    assert platform_lines(read_result(_ai_lab())) == []


def test_customer_9_reads_the_owned_512_then_the_rented_help_and_no_choice_of_theirs() -> None:
    """The headline leads with their 512 and the help rented beside them (it led with the 512
    alone), calls the owned accelerators theirs, not "your choice", and sets no deadline we
    assumed against "as fast as we can"."""
    figures = figures_of(read_result(_ai_lab()))
    assert figures.plan.startswith(
        "512 × NVIDIA H100 SXM5 80GB you already own (64 servers of 8), with "
    )
    assert "× NVIDIA H100 SXM5 80GB rented beside them for about" in figures.plan
    assert "nothing bought" in figures.plan and "as a separate cloud job" in figures.plan
    assert figures.accelerator_by == "the ones you own"
    assert figures.deadline == ""
    assert figures.with_help.startswith("about ") and "rented beside them" in figures.with_help
    assert figures.help_cost.startswith("including about $")


def test_customer_9s_run_on_all_their_512_keeps_no_spare_server_they_do_not_own() -> None:
    """They own 64 servers and the run uses all of them: the plan said "plus 6 spare servers of
    yours" and the site counted 70 servers, 6 they do not have."""
    result = read_result(_ai_lab())
    cluster = result.section("cluster")
    assert cluster["gpus_in_service"] == 512 and cluster["spare_nodes"] == 0
    assert "spare server" not in figures_of(result).plan


def test_customer_9_is_not_told_a_slower_rental_saves_money() -> None:
    """With the help's rent inside the owned total, a one-year reservation of 512 is cheaper
    but runs at the pace of 512 alone (about twice as long): no saving is claimed for dropping
    their rule, since it would buy a slower run."""
    cost = _ai_lab()["cost"]
    assert cost["recommended_option"] == "buy"
    assert cost["constraints"]["relax_saving_usd"] is None
    assert not [reason for reason in cost["reasons"] if "rules out" in reason]


def test_a_deadline_needing_more_than_one_short_term_cluster_is_met_as_far_as_it_can_be() -> None:
    """With a 30-day deadline of theirs, 512 H100 cannot be helped enough by one cluster
    rented at short notice: 512 are rented, the run ends later, and the words say the deadline
    needs more and that more is possible only under a negotiated reservation."""
    out = size_dict(
        {
            **_AI_LAB_RUN,
            "schedule": {"deadline_days": 30},
            "hardware": {"vendors": ["nvidia"]},
            "deployment": {"location": "hybrid"},
            "estate": {"accelerator": "h100-sxm", "count": 512},
        },
        today=TODAY,
    )
    estate = out["estate"]
    assert estate["rent_capped"] is True and estate["add_count"] == 512
    assert estate["owned_days_used"] > 30
    words = " ".join(estate_lines(read_result(out)))
    assert "your deadline needs more. Renting more needs a negotiated reservation" in words


def test_help_longer_than_a_short_term_rental_lasts_is_said_to_need_a_reservation() -> None:
    with overridden({"short_rent_max_days": 100}):
        out = _ai_lab()
        words = " ".join(estate_lines(read_result(out)))
    assert out["estate"]["rent_beyond_short_term"] is True
    assert "longer than the 100 days a short-term rental lasts" in words
    assert "Renting more, or for that long, needs a negotiated reservation" in words


def test_customer_9_is_told_once_that_we_will_ask_for_a_reservation() -> None:
    """Customer 9's help is both larger and longer than a short-term rental: the estate lines
    say both limits and then, once, what follows (they once read "we will ask" twice)."""
    words = " ".join(estate_lines(read_result(_ai_lab())))
    assert words.count("we will ask") == 1
    assert words.count("negotiated reservation") == 1


def test_customer_5s_deadline_met_with_help_is_not_said_to_be_impossible():
    # customer 5 read "The 21-day deadline cannot be met: ... with 4 H100 rented beside them it
    # is met" in one sentence
    warnings = " ".join(read_result(_robotics()).warnings)
    assert "deadline is not met on yours alone" in warnings
    assert "cannot be met" not in warnings
