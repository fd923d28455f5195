"""Every count in the proposal says which it is: what one run uses, what is bought in year 1
(spares included) and by the plan's last year, and comparisons made on the same basis."""

import copy
from dataclasses import replace
from datetime import date
from functools import cache

from reports.bill import bill_of_materials
from reports.demo import demo_answers, demo_data
from reports.document import render_data
from reports.summary import cluster_line, decisions
from sizing.stored_result import read_result
from sizing.words.counts import Counts, cluster_text, plan_text, read_counts, rented_text
from tests.reports.conftest import pdf_text, squash

TODAY = date(2026, 12, 2)


@cache
def result(scenario: str = ""):
    return read_result(demo_data(answers=demo_answers(scenario), today=TODAY).result)


@cache
def text(scenario: str = "") -> str:
    return squash(pdf_text(render_data(demo_data(scenario=scenario, today=TODAY)).pdf))


def test_the_moe_headline_leads_with_what_is_bought_and_labels_one_runs_share():
    # 512 a run, 568 bought in year 1, 2,248 (the bill's 281 servers) by year 3
    line = cluster_line(result("moe-pretrain"))
    assert line.startswith("568 × NVIDIA H100 SXM5 80GB (71 servers of 8) bought in year 1")
    assert "2,248 (281 servers) by year 3" in line
    assert "one run uses 512 accelerators in 64 servers" in line
    servers = next(i for i in bill_of_materials(result("moe-pretrain"))["lines"])
    assert servers["quantity"] == "281"


def test_the_bought_counts_are_the_ones_the_bill_prices():
    for scenario in ("", "moe-pretrain", "sovereign-eu"):
        counts = read_counts(result(scenario))
        bill = bill_of_materials(result(scenario))["lines"]
        assert int(bill[1]["quantity"].replace(",", "")) == counts.total


def test_an_alternative_is_compared_with_one_run_of_ours_and_says_so():
    # the sovereign lab runs 2 jobs at once of 32: the B200 is compared with one run's 32,
    # not "the 32 we sized" next to a headline of 64
    said = " ".join(decisions(result("sovereign-eu")))
    assert "for one run, 16 accelerators in 2 servers" in said
    # in euros: the sovereign lab's data stays in the EU (sizing.engine.cost.places)
    assert "less than one run's 32 NVIDIA H100 SXM5 80GB we sized (€1." in said
    assert "compared run for run, while the plan buys 64" in said
    assert "each run uses 32 accelerators in 4 servers, 2 runs at once" in cluster_line(
        result("sovereign-eu")
    )


def test_the_rendered_summary_never_calls_one_runs_share_the_whole_recommendation():
    page = text("moe-pretrain")
    assert squash("than the 512 NVIDIA H100 SXM5 80GB we sized") not in page
    assert squash("one run uses 512 accelerators in 64 servers") in page


def test_a_cluster_smaller_than_a_server_is_rented_as_an_instance_of_that_size():
    counts = read_counts(result("lora-one-node"))
    two = counts.__class__(**{**counts.__dict__, "per_run": 2, "cluster": 2})
    assert rented_text(two).startswith("a cloud instance with 2 × NVIDIA H100 SXM5 80GB")
    assert rented_text(counts) == "1 cloud instance of 8 × NVIDIA H100 SXM5 80GB"


def _two_of_eight(scenario: str, option: str):
    """The scenario's result as if its cluster were 2 accelerators of one 8-way server,
    recommended as ``option`` (the reader's walk: 2 × H100 for a 1.3-hour fine-tune)."""
    raw = copy.deepcopy(dict(result(scenario).raw))
    raw["cluster"].update(
        gpus=2, gpus_per_job=2, nodes=1, spare_nodes=0, nodes_per_job=1, gpus_in_service=2
    )
    raw["concurrency"] = {**raw.get("concurrency", {}), "full_size_runs": 1}
    raw["cost"]["recommended_option"] = option
    raw["cost"]["usage"] = {**raw["cost"]["usage"], "owned_gpus_by_year": [2, 2, 2]}
    for item in raw["cost"]["bill_of_materials"]:
        if item["item"] == "servers":
            item.update(quantity=2, total_usd=2 * float(item["unit_usd"]))
    raw["cost"]["bill_of_materials_option"] = "buy"  # the engine lists what buying takes
    if raw["cost"].get("hardware_bought"):
        raw["cost"]["hardware_bought"].update(option="buy", gpus=2, servers=1)
    return read_result(raw)


def test_a_cloud_plan_of_two_accelerators_rents_an_instance_of_two_not_a_server_of_eight():
    bill = bill_of_materials(_two_of_eight("lora-one-node", "cloud_on_demand"))
    assert bill["rented"].startswith(
        "A cloud instance with 2 × NVIDIA H100 SXM5 80GB (the major clouds rent instances of "
        "1, 2, 4 and 8)"
    )
    assert "8 ×" not in bill["rented"]
    assert "1,280 GB RAM" not in bill["rented"]  # a full server's host, not the instance's


def test_an_owned_plan_of_two_accelerators_buys_one_server_of_two_at_its_price():
    owned = _two_of_eight("sovereign-eu", "buy")
    servers = bill_of_materials(owned)["lines"][0]
    assert servers["quantity"] == "1"
    assert servers["what"].startswith("2 × NVIDIA H100 SXM5 80GB")
    unit = next(i for i in owned.bill_of_materials if i["item"] == "servers")["unit_usd"]
    # one server, priced as the 2 it holds, in the customer's currency; the line's total is
    # rounded with the others so that the bill adds up as printed: within one unit
    assert servers["each"] == owned.money(2 * float(unit))
    assert servers["total"][0] == servers["each"][0] == "€"
    assert abs(_whole(servers["total"]) - _whole(servers["each"])) <= 1
    assert cluster_line(owned).startswith("2 × NVIDIA H100 SXM5 80GB (one server) bought")


def _whole(printed: str) -> int:
    return int("".join(c for c in printed if c.isdigit()))


def test_a_cloud_plan_names_no_spare_server_and_does_not_repeat_the_instances():
    # 4 instances of 8 rented while a run goes: a failed instance is replaced, none kept idle
    rented = Counts(
        accelerator="NVIDIA H100 SXM5 80GB",
        per_node=8,
        per_run=32,
        runs_at_once=1,
        cluster=32,
        cluster_servers=4,
        spare_servers=1,
        owned=False,
        bought_by_year=(),
    )
    said = plan_text(rented)
    assert (
        said == "4 cloud instances of 8 × NVIDIA H100 SXM5 80GB, rented only while a run is going"
    )
    owned = plan_text(replace(rented, owned=True, bought_by_year=(40, 40, 40)))
    assert owned.endswith("one run uses 32 accelerators in 4 servers, plus 1 spare server")


def _within_one_server(**changes) -> Counts:
    """3 accelerators of an 8-way server, as each way to pay holds them."""
    fields = dict(
        accelerator="NVIDIA H100 SXM5 80GB",
        per_node=8,
        per_run=3,
        runs_at_once=1,
        cluster=3,
        cluster_servers=1,
        spare_servers=0,
        owned=True,
        bought_by_year=(4, 4, 4),  # the engine buys 1, 2, 4 or 8 within a server
    )
    return Counts(**{**fields, **changes})


def test_a_plan_within_one_server_names_the_size_of_the_server_bought_or_rented():
    bought = _within_one_server()
    assert bought.server_size == 4
    assert cluster_text(bought) == "3 accelerators in one server of 4"
    assert "(one server) bought in year 1" in plan_text(bought)
    # no cloud instance of 3: the 3 run in an instance of a full server's 8, as rented
    rented = _within_one_server(owned=False, bought_by_year=())
    assert rented.server_size == 8
    assert rented_text(rented) == "1 cloud instance of 8 × NVIDIA H100 SXM5 80GB"
    assert _within_one_server(owned=False, cluster=2, per_run=2, bought_by_year=()).server_size == 2
    # nothing chosen yet: neither is said, the server is the accelerator's own
    assert _within_one_server(decided=False).server_size == 8


def test_a_reserved_cloud_plan_is_never_said_to_be_rented_only_while_a_run_goes():
    # customer 2 read "GPU cloud, three-year reservation: 12 cloud instances of 8 × H100,
    # rented only while a run is going": a reservation is paid for its whole term
    reserved = _within_one_server(owned=False, bought_by_year=(), reserved_years=3)
    assert plan_text(reserved).endswith("reserved for 3 years and paid for, used or not")
    assert "only while a run" not in plan_text(reserved)
    by_the_hour = _within_one_server(owned=False, bought_by_year=())
    assert plan_text(by_the_hour).endswith("rented only while a run is going")
