"""Customers 9 and 7 of ``../shared/reference/customer-scenarios.md`` in the browser (issue
26), each on the short path as that person would answer it.

9. An AI lab that owns 512 H100 wants a 120B dense pre-train on 8 trillion tokens "as fast as
   we can but at most $40 million", renting more if need be. The credible answer, asserted:
   the owned 512 first, rented capacity to the soonest date the budget allows, the budget
   beside the cost, the days against the dollars; no accelerator bought beside the rented help.
7. A national research centre pre-trains a 30B mixture of experts on 4 trillion tokens within
   45 days in a hall of 2 MW for IT and cooling: the power limit honoured, said beside the
   cluster's draw.
"""

from __future__ import annotations

import pytest

from pipeline.models import Recommendation
from pipeline.services import proposal_data
from questionnaire.models import Submission
from questionnaire.questions import DISCOVERY
from reports import document
from tests.e2e.test_non_expert_path import (
    continue_to_next,
    send_contact_to_review,
    walk_short_path_questions,
)
from tests.reports.conftest import pdf_text, squash

pytestmark = pytest.mark.e2e


def _start(page, sentence: str) -> None:
    page.goto(page.base_url + "/")
    continue_to_next(page)  # start page
    continue_to_next(page)  # welcome
    assert page.url.rstrip("/").endswith(f"/{DISCOVERY.slug}")
    page.fill("#id_discovery-use_case", sentence)
    page.check("input[name='discovery-setup_known'][value='not_sure']")
    continue_to_next(page)


def _send(page, email: str) -> Recommendation:
    page.set_default_timeout(120_000)  # sending sizes and renders the proposal in this process
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"
    submission = Submission.objects.get(contact_email=email)
    return Recommendation.objects.filter(submission=submission).latest("version")


def test_an_ai_lab_with_512_h100_and_40_million_rents_to_the_soonest_date(browser_page):
    page = browser_page
    _start(
        page,
        "120B dense pre-train on 8 trillion tokens, as fast as we can but at most $40 million. "
        "We own 512 H100 already and could rent more.",
    )

    def answer(slug: str) -> None:
        if slug == "model":
            page.fill("#id_model-total_params", "120B")
        elif slug == "method":
            page.check("input[name='method-method'][value='pretrain']")
        elif slug == "data":
            page.fill("#id_data-dataset_size", "8T tokens")
        elif slug == "deployment":
            page.check("input[name='deployment-location'][value='hybrid']")
            page.get_by_label("Accelerators you already own").fill("512 H100")
            page.get_by_label("Budget ceiling (USD)").fill("$40 million")
        else:  # "as fast as we can": no deadline of theirs
            page.check(f"#id_{slug}-not_sure")

    walk_short_path_questions(page, answer)
    send_contact_to_review(page, "Sam Example", "sam@lab.example", "Lab Example Ltd")
    estimate = page.locator(".first-estimate").first.inner_text()
    assert "512 × NVIDIA H100 SXM5 80GB you already own" in estimate, estimate
    assert "as soon as your budget allows" in estimate
    assert "Your budget ceiling is $40.00 million" in estimate and "within it" in estimate
    assert "Days against dollars" in estimate
    assert "more bought" not in estimate and "bought in year 1" not in estimate

    recommendation = _send(page, "sam@lab.example")
    result = recommendation.result
    estate = result["estate"]
    assert (result["cluster"]["accelerator"], result["cluster"]["gpus"]) == ("h100-sxm", 512)
    assert estate["add"] == "rent" and estate["cost_is_one_run"] is True
    assert estate["cost_usd"] <= 40e6
    assert not [i for i in result["cost"]["bill_of_materials"] if i["item"] == "servers"]
    days = [p["days"] for p in estate["trade_off"]]
    assert len(days) == 3 and days == sorted(days)

    rendered = document.render_data(proposal_data(recommendation))
    assert not rendered.findings
    text = squash(pdf_text(rendered.pdf))
    assert squash("Days against dollars, for one run") in text
    assert squash("on yours alone") in text


def test_a_research_centre_is_sized_within_the_power_of_its_hall(browser_page):
    page = browser_page
    _start(
        page,
        "Pre-train a 30B mixture-of-experts model (3B active, 64 experts, 8 per token) on 4 "
        "trillion tokens within 45 days. AMD MI325X preferred, NVIDIA H200 acceptable. The hall "
        "has 2 MW for IT and cooling.",
    )

    def answer(slug: str) -> None:
        if slug == "model":
            page.fill("#id_model-total_params", "30B")
        elif slug == "method":
            page.check("input[name='method-method'][value='pretrain']")
        elif slug == "data":
            page.fill("#id_data-dataset_size", "4T tokens")
        elif slug == "timeline":
            page.fill("#id_timeline-run_time_hours", "45 days")
        elif slug == "deployment":
            page.check("input[name='deployment-location'][value='on_premises']")
            page.get_by_label("Power available (kW)").fill("2 MW")
        else:
            page.check(f"#id_{slug}-not_sure")

    walk_short_path_questions(page, answer)
    send_contact_to_review(page, "Kim Example", "kim@centre.example", "Centre Example")
    estimate = page.locator(".first-estimate").first.inner_text()
    assert "Your power available is 2 MW" in estimate, estimate

    recommendation = _send(page, "kim@centre.example")
    estate = recommendation.result["estate"]
    assert estate["power_kw"] == 2000
    assert estate["cluster_power_kw"] <= 2000 or estate["power_capped"]
    rendered = document.render_data(proposal_data(recommendation))
    assert not rendered.findings
    assert squash("Your power available is 2 MW") in squash(pdf_text(rendered.pdf))
