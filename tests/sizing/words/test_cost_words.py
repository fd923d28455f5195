"""The cost in words when nothing is recommended, and for recurring work (issues 26, 28): the
staff list's Cost column gives the reason, never a bare dash; the cost page gives the figure
per month and per run, and names the cloud region."""

from __future__ import annotations

import datetime

from reports.cost_page import cost_page
from sizing.engine import size_dict
from sizing.stored_result import read_result
from sizing.words.cost import cost_headline, cost_line, money_of

TODAY = datetime.date(2026, 12, 4)
H800_ON_PREMISES = {
    "model": {"name": "Llama 3.1 70B"},
    "data": {"tokens": 2e11},
    "hardware": {"accelerator": "h800"},
    "deployment": {"location": "on_prem"},
}


def test_the_staff_cost_column_says_why_nothing_is_recommended() -> None:
    result = read_result(size_dict(H800_ON_PREMISES, today=TODAY))
    assert result.recommended_cost is None
    short = cost_line(result, short=True)
    assert short.startswith("none allowed: only on premises rules out every priced option")
    assert "GPU cloud, pay as you go" in short
    headline = cost_headline(result)
    assert not headline.priced
    assert "relaxing it" in headline.undecided


def test_the_staff_cost_column_says_a_price_is_to_be_quoted_for_gaudi_3() -> None:
    result = read_result(
        size_dict(
            {
                "model": {"name": "Llama 3.1 8B"},
                "training": {"method": "full_finetune", "experiments": 1},
                "data": {"tokens": 1e9},
                "hardware": {"accelerator": "gaudi3"},
            },
            today=TODAY,
        )
    )
    assert cost_line(result, short=True) == "to quote: no cloud price to compare buying with"
    statuses = {row["label"]: row["status"] for row in cost_page(result)["options"]}
    assert "we will quote one" in statuses["Buy, in your own data centre"]


def test_the_cost_page_gives_weekly_work_per_month_and_per_run_and_its_region() -> None:
    result = read_result(
        size_dict(
            {
                "model": {"name": "Llama 3.1 8B"},
                "training": {"method": "lora"},
                "data": {"tokens": 2e8},
                "deployment": {"data_residency": "Germany", "location": "cloud"},
                "roadmap": {"runs_per_month": 52 / 12},
            },
            today=TODAY,
        )
    )
    page = cost_page(result)
    recurring = result.cost_recurring
    assert recurring is not None
    money = money_of(result)  # Germany: euros
    assert money.currency == "EUR"
    assert page["recurring"] == (
        f"About {money(recurring['per_month_usd'])} a month, or "
        f"{money(recurring['per_run_usd'])} a run (about 156 runs over 3 years)."
    )
    assert page["region"].startswith("Cloud options: a region in Germany (Frankfurt)")
    assert "we will quote for Frankfurt" in page["region"]


def test_growing_work_says_its_runs_a_month_and_the_runs_of_todays_size_they_add_up_to() -> None:
    """Customer 2 read "$120,248 a run (about 170 runs over 3 years)" beside "1 run a month":
    the engine counts runs of today's size, and work growing 216 % a year is 170 of them."""
    result = read_result(
        size_dict(
            {
                "model": {"name": "Llama 3.1 8B"},
                "training": {"method": "lora"},
                "data": {"tokens": 2e8},
                "deployment": {"location": "cloud"},
                "roadmap": {"runs_per_month": 1, "annual_growth": 1.0},
            },
            today=TODAY,
        )
    )
    recurring = result.cost_recurring
    assert recurring is not None
    runs = round(recurring["runs"])
    assert runs > 36  # more than 1 run a month for 3 years: the runs grow
    line = cost_page(result)["recurring"]
    assert f"{money_of(result)(recurring['per_run_usd'])} a run of today's size:" in line
    assert "1 run a month, growing 100 % a year" in line
    assert f"come to about {runs:,} such runs over 3 years." in line
    assert f"about {runs:,} runs over" not in line
