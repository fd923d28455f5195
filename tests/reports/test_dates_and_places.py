"""Issue 28, "Dates and places": every proposal says until when its prices hold; power, space
and currency follow the customer's country; hardware that cannot arrive before the date the
customer needs results by is a risk, with the cloud to bridge it."""

from __future__ import annotations

import copy
import html as entities
import re
from datetime import date, timedelta

import pytest

from reports.demo import demo_answers, demo_data
from reports.document import build_context, render_html
from sizing.adapters import size_answers
from sizing.stored_result import read_result

TODAY = date(2026, 12, 4)


def _answers(scenario: str = "", **deployment: str) -> dict:
    answers = copy.deepcopy(demo_answers(scenario))
    answers.setdefault("deployment", {}).update(deployment)
    return answers


def _html(answers: dict) -> str:
    return _squash(render_html(demo_data(answers=answers, today=TODAY)))


def _squash(text: str) -> str:
    """Runs of white space as one space, a no-break space kept (it binds "SEK" to its figure)."""
    return entities.unescape(re.sub(r"[ \t\r\n]+", " ", text))


def _cost_section(html: str) -> str:
    return html[html.index('id="cost"') : html.index('id="risks"')]


# --- until when the prices hold ---------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["", "lora-one-node", "moe-pretrain", "sovereign-eu"])
def test_every_proposal_says_until_when_its_prices_hold(scenario: str) -> None:
    html = _html(demo_answers(scenario))
    until = "3 January 2027"  # 4 December 2026 + the 30 days of price_validity_days
    cover = html[: html.index('id="summary"')]
    summary = html[html.index('id="summary"') : html.index('class="chapter area"')]
    assert f'<th>Prices hold until</th><td data-figure="prices_hold_until">{until}</td>' in cover
    assert f"Prices hold until {until}, 30 days from this proposal's date." in summary
    assert f"Prices hold until {until}." in _cost_section(html)


# --- currency and prices follow the country ---------------------------------------------------


def _money_signs(text: str) -> set[str]:
    return set(re.findall(r"(\$|€|£|SEK\u00a0|GBP\u00a0|EUR\u00a0|USD\u00a0)\d", text))


def test_a_swedish_customer_is_priced_in_kronor_with_european_power_and_space() -> None:
    data = demo_data(answers=_answers(country="Sweden"), today=TODAY)
    result = read_result(data.result)
    regions = {p["price"]: p["region"] for p in result.price_sources}
    assert regions["electricity"] == "eu" and regions["colocation"] == "eu"
    assert result.currency["code"] == "SEK"
    cost = _cost_section(_squash(render_html(data)))
    assert _money_signs(cost) == {"SEK\u00a0"}
    assert "1 USD = SEK\u00a09.05" in cost and "6 February 2026" in cost


def test_a_us_customer_is_shown_dollars_and_a_uk_customer_pounds() -> None:
    us = _cost_section(_html(_answers(country="United States")))
    assert _money_signs(us) == {"$"}
    uk = _cost_section(_html(_answers(data_residency="UK only")))
    assert _money_signs(uk) == {"£"}


def test_a_euro_country_is_shown_euros_and_an_unknown_one_the_stated_default() -> None:
    germany = read_result(demo_data(answers=_answers(country="Germany"), today=TODAY).result)
    assert germany.currency["code"] == "EUR"
    japan = _answers(country="Japan", data_residency="")
    elsewhere = read_result(demo_data(answers=japan, today=TODAY).result)
    assert elsewhere.currency["code"] == "USD"
    regions = {p["price"]: p["region"] for p in elsewhere.price_sources}
    assert regions["electricity"] == "north_america"


def test_every_amount_of_a_swedish_proposal_is_in_kronor() -> None:
    """One formatter for all money: no dollar figure left anywhere but the price table,
    whose published prices keep their own currency beside their source."""
    html = _html(_answers(country="Sweden"))
    body = html[: html.index('id="assumptions"')]
    assert _money_signs(body) == {"SEK\u00a0"}


# --- lead time against the date results are needed by ------------------------------------------


def test_hardware_that_cannot_arrive_before_the_deadline_is_a_risk_with_the_cloud_to_bridge():
    answers = _answers()
    answers["timeline"] = {**answers["timeline"], "deadline": "2027-02-10"}  # 10 weeks away
    context = build_context(demo_data(answers=answers, today=TODAY))
    assert context["cost"]["capex"]  # the plan buys hardware
    late = [r for r in context["risks"] if r["risk"].startswith("Bought GPU servers")]
    assert len(late) == 1
    assert "cannot arrive in time" in late[0]["risk"]
    assert "8 to 20 weeks" in late[0]["risk"] and "April 2024" in late[0]["risk"]
    assert "10 February 2027, 10 weeks away" in late[0]["risk"]
    result = read_result(demo_data(answers=answers, today=TODAY).result)
    cloud = result.money(result.one_run_cloud_usd)  # in the customer's currency
    assert late[0]["lower"].startswith(f"Start in the GPU cloud (one run costs about {cloud} ")


def test_a_deadline_far_enough_away_raises_no_lead_time_risk() -> None:
    answers = _answers()
    far = TODAY + timedelta(weeks=40)
    answers["timeline"] = {**answers["timeline"], "deadline": far.isoformat()}
    context = build_context(demo_data(answers=answers, today=TODAY))
    assert not [r for r in context["risks"] if r["risk"].startswith("Bought GPU servers")]


def test_the_contact_country_places_a_customer_whose_answers_name_no_place() -> None:
    """The walked Swedish customer gave "Sweden" on the contact step and no residency rule."""
    answers = _answers("", location="on_premises")
    answers["deployment"].pop("data_residency", None)
    sized = size_answers(answers=answers, today=TODAY, contact_country="Sweden")
    assert sized.engine_input["deployment"]["country"] == "Sweden"
    assert sized.sources["deployment.country"] == "derived"
    assert read_result(sized.result).currency["code"] == "SEK"
    # a residency rule that names a place comes first; no place at all is the stated default
    eu = _answers("", data_residency="EU only")
    assert (
        "country"
        not in size_answers(answers=eu, today=TODAY, contact_country="Sweden").engine_input[
            "deployment"
        ]
    )
    assert read_result(size_answers(answers=answers, today=TODAY).result).currency["code"] == "USD"
