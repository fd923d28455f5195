"""A proposal on servers the customer already owns (customer 5: two DGX A100) neither sizes
hosts for them to buy nor prices them at the cloud's price a run, and says where the help
rented beside them works. Readers found "64 CPU cores and 1,280 GB of RAM in each server"
for the DGX they own, their A100 at "$35,531" a run in the cloud table with "$18,745 less a
run" for a rented B200, and no word on how rented H100 would join their InfiniBand."""

from functools import cache
from typing import Any

from reports.demo import demo_data
from reports.document import build_context
from sizing.public import figures_of, read_result, run_time
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of

OWNS_DGX = "5 robotics owns DGX"


@cache
def _context(story: str) -> dict[str, Any]:
    return build_context(demo_data(answers=answers_of(STORIES[story]), today=TODAY))


def _section(story: str, key: str) -> dict[str, Any]:
    return next(s for s in _context(story)["sections"] if s["key"] == key)


def test_servers_they_own_come_with_their_hosts_and_none_are_sized_to_buy():
    hosts = _section(OWNS_DGX, "hosts")
    assert hosts["recommend"].startswith("Your 2 servers come with their own CPUs and RAM")
    assert "CPU cores" not in hosts["recommend"]
    assert hosts["figures"] == [] and hosts["why"] == []


def test_servers_bought_or_rented_still_have_their_hosts_sized():
    hosts = _section("2 start-up pre-training", "hosts")
    assert "CPU cores and" in hosts["recommend"]
    assert {key for _label, _value, key in hosts["figures"]} >= {"cpu_cores_per_node"}


def test_the_accelerator_table_prices_a_run_on_theirs_at_its_running_cost_not_the_cloud():
    context = _context(OWNS_DGX)
    result = read_result(context["data"].result)
    estate = result.estate
    assert estate is not None and estate.owned_running_usd and estate.add_cost_usd
    # theirs at work, and the rent, each in whole dollars as the summary prints them
    run_usd = round(estate.owned_running_usd) + round(estate.add_cost_usd)
    ours = context["alternatives"][0]
    assert (
        ours["cost"] == result.money.short(run_usd) != result.money.short(result.one_run_cloud_usd)
    )
    assert ours["days"] == run_time(estate.owned_days_used or 0.0)  # the run that cost is for
    assert ours["note"].startswith("recommended: yours, with the 4 ")
    assert context["alternatives_cost_heading"] == "A run"
    # the cloud figure is said to be what renting would cost, beside the run on theirs
    choice = context["accelerator_choice"]
    assert f"One run on yours costs about {result.money(run_usd)}" in choice
    assert f"would cost {result.money(result.one_run_cloud_usd)}" in choice
    # a rented B200 costs more than a run on what they own: never "less a run"
    b200 = next(row for row in context["alternatives"] if row["name"].startswith("NVIDIA B200"))
    assert "more a run" in b200["note"]


def test_a_plan_without_owned_servers_keeps_the_cloud_price_a_run():
    context = _context("2 start-up pre-training")
    result = read_result(context["data"].result)
    assert context["alternatives_cost_heading"] == "A run, cloud"
    assert context["alternatives"][0]["cost"] == result.money.short(result.one_run_cloud_usd)


def test_the_help_rented_beside_theirs_is_a_separate_cloud_job_not_on_their_fabric():
    context = _context(OWNS_DGX)
    apart = "run in the cloud as a separate job on their share of the work"
    assert any(apart in line for line in context["summary"]["estate"])
    assert any(apart in reason for reason in _section(OWNS_DGX, "network")["why"])
    assert "as a separate cloud job" in figures_of(read_result(context["data"].result)).plan


def test_every_label_and_sentence_of_the_cluster_says_server_never_node():
    """The vocabulary says server to a reader (sizing.engine.vocabulary); customer 5's
    proposal mixed "2 nodes of 8", "Accelerators per node" and "CPU cores per node" with
    "2 servers of 8" and "Servers per rack"."""
    context = _context("2 start-up pre-training")
    cluster = _section("2 start-up pre-training", "cluster")
    labels = [label for section in context["sections"] for label, _v, _k in section["figures"]]
    assert "Servers" in labels and "Accelerators per server" in labels, labels
    assert not [label for label in labels if "node" in label.lower()], labels
    assert " servers of 8" in cluster["recommend"] and "node" not in cluster["recommend"]
    network = _section("2 start-up pre-training", "network")
    assert "per server" in network["recommend"] and "node" not in network["recommend"]
    split = " ".join(_section(OWNS_DGX, "parallelism")["why"])  # tensor parallel 2
    assert "Tensor parallelism stays inside one server" in split


def test_the_run_on_theirs_is_the_sum_of_the_two_parts_the_summary_prints():
    # readers added "$4,521 while they work on it" and "about $7,038" to $11,559, not $11,558
    context = _context(OWNS_DGX)
    result = read_result(context["data"].result)
    estate = result.estate
    assert estate is not None and estate.owned_running_usd and estate.add_cost_usd
    parts = (result.money(estate.owned_running_usd), result.money(estate.add_cost_usd))
    as_read = sum(int(part.strip("$").replace(",", "")) for part in parts)
    assert f"One run on yours costs about {result.money(as_read)}" in context["accelerator_choice"]
    # the cost page's figure a run is larger: it also counts the servers between runs
    assert "also counts your servers' running cost between runs" in context["accelerator_choice"]
