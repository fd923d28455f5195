"""The cost pages add up as printed (issue 28: "arithmetic a CFO re-does"): the year table to
the headline, without inventing trends; the bill's lines to its total; and no network bought
beside words saying none is needed."""

from datetime import date

import pytest

from reports.bill import bill_of_materials
from reports.check_arithmetic import arithmetic_findings, read_number
from reports.check_html import parse_html as _parse
from reports.check_html import read_tagged
from reports.cost_page import _by_year
from reports.demo import DEMO_FORM_DATA, answers_from, demo_data
from reports.document import render_html
from sizing.engine.numbers import Money, format_dollars, format_money
from sizing.stored_result import CostOption, read_result

TODAY = date(2026, 12, 2)


def _option(**parts: tuple[float, ...]) -> CostOption:
    by_year = tuple(map(sum, zip(*parts.values(), strict=True)))
    total = sum(by_year)
    return CostOption(
        key="cloud_on_demand",
        label="GPU cloud",
        total_usd=total,
        low_usd=total * 0.8,
        high_usd=total * 1.3,
        by_year_usd=by_year,
        basis="",
        recommended=True,
        parts_by_year_usd=parts,
        net_usd=total,
        residual_value_usd=0.0,
    )


def _number(text: str) -> float:
    printed = read_number(text)
    assert printed is not None, text
    return printed.value


def test_the_year_table_adds_up_to_the_headline_as_printed():
    """The media demo's case: each part rounded to $10,000 on its own lost $4,000, and the
    parts of a $1.81 million total printed $1.80M beside the headline."""
    best = _option(
        rented=(200_000.0, 201_000.0, 203_000.0),
        storage=(100_000.0, 200_000.0, 304_000.0),
        power=(150_000.0, 200_000.0, 254_000.0),
    )
    table = _by_year(best, 3, Money())
    headline = format_money(best.net_usd)  # "$1.81 million"
    assert abs(_number(table["total"]) - _number(headline)) <= 5_000
    for row in table["rows"]:
        assert sum(map(_number, row["years"])) == _number(row["total"])
    assert sum(map(_number, table["totals"])) == _number(table["total"])
    assert sum(_number(row["total"]) for row in table["rows"]) == _number(table["total"])


def test_a_flat_cost_stays_flat_in_the_year_table():
    """$15,000 a year read $20,000, $20,000, $10,000 once rounded to the headline's step."""
    best = _option(
        rented=(1_200_000.0, 1_300_000.0, 1_400_000.0),
        power=(15_000.0,) * 3,
        storage=(5_333.4,) * 3,
    )
    table = _by_year(best, 3, Money())
    rows = {row["label"]: row["years"] for row in table["rows"]}
    assert rows["Power and cooling"] == ["$15,000"] * 3
    assert rows["Rented storage"] == ["$5,333"] * 3  # the dollar left over goes elsewhere
    assert table["total"] == format_dollars(best.total_usd)


def test_a_table_to_the_dollar_gives_its_dollars_to_the_total_as_stored():
    """$696,781 as the headline says, never parts of $696,782."""
    # each part rounded to the dollar on its own: $696,780
    best = _option(hardware=(450_000.4,), power=(36_000.4,), support=(210_780.4,))
    table = _by_year(best, 1, Money())
    assert table["total"] == "$696,781" == format_money(best.net_usd)
    assert sum(_number(row["total"]) for row in table["rows"]) == 696_781


def _render(**changes: dict) -> str:
    data = {slug: dict(values) for slug, values in DEMO_FORM_DATA.items()}
    for slug, values in changes.items():
        data[slug] = {**data.get(slug, {}), **values}
    return render_html(demo_data(answers=answers_from(data), today=TODAY))


# Runs that each fit in one server, several at once, on hardware bought: a fabric between the
# servers was bought ($36,000 switch, cables) beside "No fast network: each run fits in one
# server".
# (found by the generated proposals of tests/reports/test_proposal_scenarios.py)
ONE_SERVER_RUNS = {
    "model": {"model_name": "Llama 3.1 70B", "architecture": "dense", "total_params": "70B"},
    "method": {"method": "lora", "phases": "1", "experiments": "5"},
    "data": {
        "dataset_size": "50M tokens",
        "dataset_unit": "tokens",
        "modality": "text",
        "epochs": "1",
        "annual_growth_pct": "129 %",
    },
    "timeline": {"run_time_hours": "45 days", "runs_per_month": "5"},
    "teams": {"teams": "1", "concurrent_jobs": "2"},
    "roadmap": {
        "future_runs_per_month": "1",
        "future_hours_per_run": "45 days",
        "annual_growth_pct": "30 %",
        "future_model_sizes": "Similar models next year",
        "budget_years": "5",
        "operations": "some",
    },
    "deployment": {"location": "on_premises", "dedicated": "yes", "internet": "restricted"},
}


def test_no_network_is_bought_when_every_run_fits_in_one_server():
    data = demo_data(answers=answers_from({**DEMO_FORM_DATA, **ONE_SERVER_RUNS}), today=TODAY)
    result = read_result(data.result)
    assert not result.section("network").get("nic_gbps")
    assert result.hardware_bought is not None and result.hardware_bought.servers > 1
    items = {line["item"] for line in bill_of_materials(result)["lines"]}
    assert not items & {"Network switches", "Cables and transceivers", "Network cards"}
    assert {line["item"] for line in result.bill_of_materials} & {"switches", "links"} == set()


@pytest.mark.parametrize("changes", [{}, ONE_SERVER_RUNS], ids=["demo", "runs in one server"])
def test_the_cost_pages_pass_the_arithmetic_rules(changes):
    html = _render(**changes)
    assert arithmetic_findings(read_tagged(_parse(html)), [("html", html)]) == []


def test_the_bill_lines_add_up_to_the_bill_total_as_printed():
    """Lines of $696,782 against a total of $696,781: each line was rounded on its own, and the
    engine stored each to 6 significant digits ($17,452,386 of lines, $17,452,400 of total)."""
    result = read_result(demo_data(today=TODAY).result)
    stored = sum(line["total_usd"] for line in result.bill_of_materials)
    assert abs(stored - (result.recommended_cost.capex_usd or 0)) < 0.05
    bill = bill_of_materials(result)
    priced = [line["total"] for line in bill["lines"] if line["priced"]]
    assert sum(map(_number, priced)) == _number(bill["total"])
    assert read_number(bill["total"]).step == 1.0  # to the dollar, like its lines
