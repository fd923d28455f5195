"""Customers 9 and 7 of ``../shared/reference/customer-scenarios.md`` in the browser (issue
26), each on the short path as that person would answer it: their discovery sentence, the
answers it gives used from the check page, "not sure" wherever their words say nothing.

9. An AI lab that owns 512 H100 wants a 120B dense pre-train on 8 trillion tokens "as fast as
   we can but at most $40 million", renting more if need be. The credible answer, asserted:
   the owned 512 first, rented capacity to the soonest date the budget allows, the budget
   beside the cost, the days against the dollars; no accelerator bought beside the rented help.
7. A national research centre pre-trains a 30B mixture of experts on 4 trillion tokens within
   45 days in a hall of 2 MW for IT and cooling, AMD MI325X preferred and NVIDIA H200
   acceptable: the power limit honoured, said beside the cluster's draw; the MI325X kept with
   ROCm named; the H200 at the same scale beside it, with time, cost and power.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.models import Recommendation
from pipeline.services import proposal_data
from questionnaire.models import Submission
from questionnaire.questions import DISCOVERY
from reports import document
from sizing.engine.numbers import format_money
from tests.e2e.test_non_expert_path import continue_to_next, send_contact_to_review
from tests.reports.conftest import pdf_text, squash

pytestmark = pytest.mark.e2e

CUSTOMER_9 = (
    "120B dense pre-train on 8 trillion tokens, as fast as we can but at most $40 million. "
    "We own 512 H100 already and could rent more."
)
CUSTOMER_7 = (
    "Pre-train a 30B mixture-of-experts model (3B active, 64 experts, 8 per token) on 4 "
    "trillion tokens within 45 days. AMD MI325X preferred, NVIDIA H200 acceptable. The hall "
    "has 2 MW for IT and cooling."
)


def _walk_from_their_words(page, sentence: str, named: dict[str, dict[str, str]]) -> str:
    """Start with ``sentence``, use what the check page offers, and go on to the contact page:
    each page whose answers the sentence ``named`` (slug: field: value) shows them filled and
    is left as it is; every other page is answered "not sure". Returns the check page's text."""
    page.goto(page.base_url + "/")
    continue_to_next(page)  # start page
    continue_to_next(page)  # welcome
    assert page.url.rstrip("/").endswith(f"/{DISCOVERY.slug}")
    page.fill("#id_discovery-use_case", sentence)
    page.check("input[name='discovery-setup_known'][value='not_sure']")
    continue_to_next(page)
    assert "/your-words/check/" in page.url, page.url
    check = page.locator("main").inner_text()
    continue_to_next(page)  # use the answers read from their words
    seen = set()
    while "/contact/" not in page.url:
        slug = page.url.rstrip("/").rsplit("/", 1)[-1]
        seen.add(slug)
        for field, value in named.get(slug, {}).items():
            box = page.locator(f"[name='{slug}-{field}']")
            if box.first.get_attribute("type") == "radio":
                assert page.locator(f"[name='{slug}-{field}'][value='{value}']").is_checked()
            else:
                assert box.first.input_value() == value, (slug, field)
        if slug not in named and page.locator(f"#id_{slug}-not_sure").count():
            page.check(f"#id_{slug}-not_sure")
        continue_to_next(page)
    assert set(named) - {"discovery"} <= seen, set(named) - seen
    return check


def _keep(pdf: bytes, name: str) -> None:
    """Keep the proposal where ``KEEP_PROPOSALS`` says, to be read as images (pdftoppm)."""
    if os.environ.get("KEEP_PROPOSALS"):
        Path(os.environ["KEEP_PROPOSALS"], name).write_bytes(pdf)


def _send(page, email: str) -> Recommendation:
    page.set_default_timeout(120_000)  # sending sizes and renders the proposal in this process
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"
    submission = Submission.objects.get(contact_email=email)
    return Recommendation.objects.filter(submission=submission).latest("version")


def test_an_ai_lab_with_512_h100_and_40_million_rents_to_the_soonest_date(browser_page):
    page = browser_page
    check = _walk_from_their_words(
        page,
        CUSTOMER_9,
        {
            "model": {"total_params": "120B"},
            "method": {"method": "pretrain"},
            "data": {"dataset_size": "8 trillion"},
            "deployment": {
                "location": "hybrid",
                "owned": "512 H100",
                "budget_usd": "$40 million",
            },
        },
    )
    for words in ("120B", "8 trillion tokens", "We own 512 H100 already", "$40 million"):
        assert words in check, words
    send_contact_to_review(page, "Sam Example", "sam@lab.example", "Lab Example Ltd")
    estimate = page.locator(".first-estimate").first.inner_text()
    # the owned 512 first, then the help rented beside them, for the soonest date
    assert "512 × NVIDIA H100 SXM5 80GB you already own (64 servers of 8), with " in estimate, (
        estimate
    )
    assert "rented beside them for about" in estimate and "nothing bought" in estimate
    assert "NVIDIA H100 SXM5 80GB, the ones you own." in estimate
    assert "your choice" not in estimate and "deadline we assumed" not in estimate
    # no cloud rents tens of thousands for days: one cluster rented at short notice, said so
    assert "as soon as what can be rented at short notice allows" in estimate
    assert "with 512 × NVIDIA H100 SXM5 80GB rented beside them" in estimate
    assert "needs a negotiated reservation with a provider: we will ask for one" in estimate
    # the budget ceiling beside the cost, and the days against the dollars
    assert "Your budget ceiling is $40.00 million; this plan costs about $" in estimate
    assert "for one run" in estimate and "within it" in estimate
    assert "Days against dollars, for one run: about " in estimate
    assert "more bought" not in estimate and "bought in year 1" not in estimate

    recommendation = _send(page, "sam@lab.example")
    result = recommendation.result
    estate = result["estate"]
    assert (result["cluster"]["accelerator"], result["cluster"]["gpus"]) == ("h100-sxm", 512)
    assert estate["add"] == "rent" and estate["cost_is_one_run"] is True
    assert estate["cost_usd"] <= 40e6 and estate["budget_sets_soonest"] is False
    assert estate["rent_capped"] is True and estate["add_count"] == 512
    assert all(p["add_count"] <= 512 for p in estate["trade_off"])
    # the 3-year figure holds the rent of the run and their 512 running: never below one run
    owned = result["cost"]["buy"]
    assert sum(owned["parts_by_year_usd"]["rented"]) == pytest.approx(estate["add_cost_usd"])
    assert owned["net_usd"] >= estate["cost_usd"]
    assert not [i for i in result["cost"]["bill_of_materials"] if i["item"] == "servers"]
    points = estate["trade_off"]
    assert [p["days"] for p in points] == sorted(p["days"] for p in points) and len(points) == 3
    assert [p["cost_usd"] for p in points] == sorted((p["cost_usd"] for p in points), reverse=True)

    rendered = document.render_data(proposal_data(recommendation))
    assert not rendered.findings
    _keep(rendered.pdf, "customer-9.pdf")
    text = squash(pdf_text(rendered.pdf))
    assert squash("512 × NVIDIA H100 SXM5 80GB you already own (64 servers of 8), with") in text
    assert squash("(the ones you own)") in text and squash("your choice") not in text
    assert squash("Your budget ceiling is $40.00 million") in text
    assert squash("Days against dollars, for one run") in text
    # the budget line and the 3-year cost give the same total, the rent inside it
    three_years = squash(format_money(owned["net_usd"]))
    assert squash("Over 3 years, with your accelerators' running cost all the time") in text
    assert text.count(three_years) >= 2, three_years
    assert squash("a run for the 512 × NVIDIA H100 SXM5 80GB rented beside them") in text or (
        squash("a run for the 512 NVIDIA H100 SXM5 80GB rented beside them") in text
    )
    assert squash("needs a negotiated reservation with a provider: we will ask for one") in text
    assert squash("with 512 NVIDIA H100 SXM5 80GB rented beside them, 1,024 in all") in text
    assert squash("on yours alone") in text


def test_a_research_centre_is_sized_within_the_power_of_its_hall(browser_page):
    page = browser_page
    check = _walk_from_their_words(
        page,
        CUSTOMER_7,
        {
            "model": {"total_params": "30B", "active_params": "3B", "architecture": "moe"},
            "method": {"method": "pretrain"},
            "data": {"dataset_size": "4 trillion"},
            "timeline": {"run_time_hours": "45 days"},
            "deployment": {"location": "on_premises", "power_kw": "2 MW"},
        },
    )
    for words in ("30B", "3B active", "4 trillion tokens", "within 45 days", "2 MW"):
        assert words in check, words
    send_contact_to_review(page, "Kim Example", "kim@centre.example", "Centre Example")
    estimate = page.locator(".first-estimate").first.inner_text()
    # the MI325X they prefer, on ROCm, within the hall's power, beside the H200 at the same scale
    assert "Accelerator: AMD Instinct MI325X 256GB, your choice." in estimate, estimate
    assert "Your power available is 2 MW; the cluster draws about " in estimate
    assert "with cooling, within it." in estimate
    assert "runs on AMD ROCm" in estimate
    assert "On the same 128 accelerators, NVIDIA H200 SXM 141GB would take about" in estimate
    assert "Both fit within your power available." in estimate
    assert "the time on AMD Instinct MI325X 256GB is the less certain of the two" in estimate

    recommendation = _send(page, "kim@centre.example")
    result = recommendation.result
    estate, peer = result["estate"], result["peer"]
    assert result["cluster"]["accelerator"] == "mi325x"
    assert result["cost"]["recommended_option"] == peer["option"] == "buy"
    assert estate["power_kw"] == 2000 and estate["cluster_power_kw"] <= 2000
    assert result["timeline"]["wall_clock_days"] <= 45
    assert (peer["accelerator"], peer["gpus"]) == ("h200", result["cluster"]["gpus"])
    low, high = result["timeline"]["wall_clock_days_range"]
    assert high / low > peer["wall_clock_days_range"][1] / peer["wall_clock_days_range"][0]
    rendered = document.render_data(proposal_data(recommendation))
    assert not rendered.findings
    _keep(rendered.pdf, "customer-7.pdf")
    text = squash(pdf_text(rendered.pdf))
    assert squash("Your power available is 2 MW") in text
    assert squash("runs on AMD ROCm") in text
    assert squash("On the same 128 accelerators, NVIDIA H200 SXM 141GB would take") in text
    # the MI325X has no public purchase price: a comparison with its estimate says so
    assert squash("list prices)") not in text
    assert squash("ours estimated, the other at list price") in text
