"""The bill of materials: the fabric it buys is the one the network section describes, counted
by the network module's layout rule (rail switches and no switch-to-switch links in one tier; a
leaf-spine fat tree with its uplinks from two tiers on)."""

from datetime import date

import pytest

from reports.bill import bill_of_materials, fabric_growth, purchase_terms, when_published
from reports.demo import SCENARIOS, demo_answers, demo_data
from reports.document import build_context, render_html
from reports.method import method_rows
from sizing.engine.network import fabric_layout, fabric_words
from sizing.engine.numbers import format_count
from sizing.stored_result import read_result

TODAY = date(2026, 12, 2)


@pytest.fixture(scope="module", params=["", *SCENARIOS])
def sized(request):
    data = demo_data(answers=demo_answers(request.param), today=TODAY)
    return request.param, data, read_result(data.result)


def _lines(result):
    return {line["item"]: line for line in bill_of_materials(result)["lines"]}


def test_the_bill_counts_the_switches_and_links_of_the_layout_it_names(sized):
    _name, _data, result = sized
    bought = {str(line["item"]): line for line in result.bill_of_materials}
    if "servers" not in bought or not result.section("network").get("nic_gbps"):
        pytest.skip("nothing bought, or no fabric")
    gpus = int(bought["servers"]["quantity"])
    network = result.section("network")
    layout = fabric_layout(gpus, result.gpus_per_node, network["oversubscription"])
    assert bought["switches"]["quantity"] == layout.switches
    assert bought["links"]["quantity"] == gpus == layout.server_links
    assert bought.get("switch_links", {}).get("quantity", 0) == layout.switch_links
    lines = _lines(result)
    assert fabric_words(layout) in lines["Network switches"]["what"]
    assert lines["Cables and transceivers"]["quantity"] == format_count(gpus)
    if layout.tiers == 1:
        assert "Switch-to-switch links" not in lines
        assert "fat tree" not in lines["Network switches"]["what"]
    else:
        assert lines["Switch-to-switch links"]["quantity"] == format_count(layout.switch_links)


def test_the_network_section_and_the_summary_describe_the_fabric_of_one_run(sized):
    _name, data, result = sized
    network = result.section("network")
    if not network.get("nic_gbps"):
        pytest.skip("no fabric")
    context = build_context(data)
    area = next(s for s in context["sections"] if s["key"] == "network")
    assert network["fabric"] in area["recommend"]
    assert network["fabric"] in context["summary"]["network"]
    run = fabric_layout(result.gpus_per_job, result.gpus_per_node, network["oversubscription"])
    assert network["fabric"] == fabric_words(run)
    assert ("fat tree" in network["fabric"]) == (run.tiers > 1)


def test_a_fleet_that_outgrows_one_tier_buys_a_leaf_spine_fabric_and_says_for_how_many():
    data = demo_data(answers=demo_answers("moe-pretrain"), today=TODAY)
    result = read_result(data.result)
    assert result.section("network")["switch_tiers"] == 1  # one run: 64 servers
    what = _lines(result)["Network switches"]["what"]
    servers = int(_lines(result)["Servers"]["quantity"].replace(",", ""))
    assert servers > 64
    assert "two-tier leaf-spine fat tree" in what
    assert f"for all {format_count(servers)} servers bought" in what
    network = next(s for s in build_context(data)["sections"] if s["key"] == "network")
    assert network["why"][-1] == fabric_growth(result)
    assert "One run's 64 servers need one layer of switches; the " in network["why"][-1]
    assert f"{format_count(servers)} servers bought over the plan need more" in network["why"][-1]
    assert fabric_growth(read_result(demo_data(today=TODAY).result)) == ""  # 52 fit one tier


def test_lead_times_are_dated_and_sourced_and_said_alike_on_the_summary_and_the_bill():
    data = demo_data(today=TODAY)
    result = read_result(data.result)
    terms = purchase_terms(result)
    low = next(a for a in result.assumptions if a.key == "gpu_server_lead_weeks_low")
    high = next(a for a in result.assumptions if a.key == "gpu_server_lead_weeks_high")
    assert low.source and low.as_of == "2024-04" and low.value < high.value
    assert f"{low.value:g} to {high.value:g} weeks" in terms["lead"]
    assert "April 2024" in terms["lead"]
    text = " ".join(render_html(data).split())
    assert text.count("GPU servers took 8 to 20 weeks") == 2  # the summary and the bill
    assert "to be confirmed by your account manager" not in text
    method = [
        {**row, "what": row["what"].lower()} for row in method_rows(result, data.engine_input)
    ]
    (lead,) = [row for row in method if "published time from order to delivery" in row["what"]]
    assert lead["value"] == "8 to 20 weeks" and lead["source"] == low.source


def test_the_prices_hold_statement_names_the_date_of_the_price_the_plan_rests_on():
    owned = read_result(demo_data(today=TODAY).result)
    purchase = next(p for p in owned.price_sources if p.get("price") == "purchase")
    validity = purchase_terms(owned)["validity"]
    assert when_published(str(purchase["as_of"])) in validity
    assert "purchase price per accelerator" in validity
    cloud = read_result(demo_data(answers=demo_answers("lora-one-node"), today=TODAY).result)
    terms = purchase_terms(cloud)
    assert terms["lead"] == ""  # nothing is bought
    rented = next(p for p in cloud.price_sources if p.get("price") == "gpu_cloud")
    assert when_published(str(rented["as_of"])) in terms["validity"]


@pytest.mark.parametrize(
    ("as_of", "words"),
    [
        ("2024-04", "April 2024"),
        ("2025-02-28", "28 February 2025"),
        ("2024-H2", "the second half of 2024"),
        ("2023", "2023"),
    ],
)
def test_source_dates_read_as_words(as_of, words):
    assert when_published(as_of) == words


def test_the_engine_states_the_hardware_the_bill_buys(sized):
    """``cost.hardware_bought`` (engine 2026.12.11) is the bill's own count: its accelerators
    are the servers line, its switches the switches line, its servers hold them all."""
    _name, data, result = sized
    bought = {str(line["item"]): line for line in result.bill_of_materials}
    stored = data.result["cost"]["hardware_bought"]
    if "servers" not in bought:
        assert stored is None
        return
    assert stored["option"] == result.bill_of_materials_option
    assert stored["gpus"] == bought["servers"]["quantity"]
    assert stored["fabric"]["switches"] == bought.get("switches", {}).get("quantity", 0)
    assert stored["fabric"]["switch_links"] == bought.get("switch_links", {}).get("quantity", 0)
    assert stored["servers"] * result.gpus_per_node >= stored["gpus"] or stored["servers"] == 1


def test_a_result_from_before_the_engine_stated_what_it_buys_reads_the_same(sized):
    """A stored result of an older engine (no ``hardware_bought``, ``nodes_per_job``,
    ``gpus_in_service``) reads as the new one does: the reader lays the fabric out by the
    engine's rule, so an old proposal renders its bill unchanged."""
    _name, data, result = sized
    old = {
        **data.result,
        "cost": dict(data.result["cost"]),
        "cluster": dict(data.result["cluster"]),
    }
    del old["cost"]["hardware_bought"]
    del old["cluster"]["nodes_per_job"]
    del old["cluster"]["gpus_in_service"]
    older = read_result(old)
    assert older.hardware_bought == result.hardware_bought
    assert older.nodes_per_job == result.nodes_per_job
    assert older.gpus_in_service == result.gpus_in_service
    assert bill_of_materials(older) == bill_of_materials(result)
