"""A share on the bill says of what, and a trivially small line reads as small, not as a typo.

The insurance group's proposal showed "Installation 3%" (3 % of what?) and shared storage at
"$7" beside a $600,000 purchase.
"""

from datetime import date

from questionnaire.demo import INSURANCE
from reports.bill import _line, bill_of_materials
from reports.demo import answers_from, demo_data
from reports.document import build_context, render_html
from reports.wording import alternative_rows
from sizing.engine.numbers import format_money, format_money_line
from sizing.stored_result import read_result
from tests.reports.stories import story_data

TODAY = date(2026, 12, 4)


def _insurance():
    return demo_data(answers=answers_from(INSURANCE.answers), today=TODAY)


def test_installation_names_its_base_and_its_amount():
    result = read_result(_insurance().result)
    lines = {line["item"]: line for line in bill_of_materials(result)["lines"]}
    installed = lines["Installation"]
    hardware = sum(
        float(line["total_usd"])
        for line in result.bill_of_materials
        if line["item"] != "installation"
    )
    assert installed["what"] == (
        f"racking, cabling and acceptance tests: 3 % of the {format_money(hardware)} of "
        "hardware above"
    )
    assert installed["total"].startswith("$")


def test_the_price_table_says_what_installation_is_a_share_of():
    rows = {row["item"]: row for row in build_context(_insurance())["prices"]}
    assert rows["Installation"]["value"] == "3 % of the hardware bought"


def test_a_line_of_a_few_dollars_reads_under_ten_dollars():
    # 14.9 GB of shared storage at $440 per TB was printed "$7" beside a $600,000 purchase
    assert _line("Shared storage", "", "14.9 GB", 440, 6.56)["total"] == "under $10"
    assert _line("Shared storage", "", "2 TB", 440, 880)["total"] == "$880"
    assert format_money_line(0) == "$0"


def test_an_accelerator_a_few_cents_dearer_a_run_costs_about_the_same():
    # the game studio's comparison read "$0 less a run" and "$0 more a run"
    result = read_result(story_data("game-studio").result)
    notes = " ".join(row["note"] for row in alternative_rows(result))
    assert "$0 more" not in notes and "$0 less" not in notes
    assert "about the same a run" in notes


def test_a_headline_of_a_few_dollars_reads_under_ten_dollars():
    # the game studio (one short run priced, no usage given) was offered "3-year cost: $6"
    html = render_html(story_data("game-studio"))
    summary = html[html.index('id="summary"') :]
    assert '<strong data-figure="cost_total">under $10</strong>' in summary
