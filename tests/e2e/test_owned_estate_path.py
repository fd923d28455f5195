"""Customer 5 of ``../shared/reference/customer-scenarios.md`` in the browser (issue 26): a
robotics start-up that owns two DGX A100 servers (16 A100 80GB) and will rent extra only if it
must takes the short path, says what it owns, and is sized on its own accelerators first.

The credible answer, asserted: how long the run takes on the 16 owned A100 and whether three
weeks holds; since it does not, how many accelerators to rent, for how long and at what cost;
no purchase pushed; the owned servers' running cost only, capital $0 — on the review page's
first estimate and in the proposal.

Before, no question asked what a customer owns: the proposal said "buy 1 × NVIDIA H100".
"""

from __future__ import annotations

import re

import pytest

from pipeline.models import Recommendation
from pipeline.services import proposal_data
from questionnaire.models import Submission
from questionnaire.questions import DISCOVERY
from reports import document
from sizing.public import read_result
from tests.e2e.test_non_expert_path import (
    continue_to_next,
    send_contact_to_review,
    walk_short_path_questions,
)
from tests.reports.conftest import pdf_text, squash

pytestmark = pytest.mark.e2e

SENTENCE = (
    "We own two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS) and want to fully "
    "fine-tune our 34B vision-language model on 30 billion tokens within three weeks; we would "
    "rent extra only if we must."
)
OWNED = "16 × NVIDIA A100 SXM4 80GB"


def test_a_lab_that_owns_16_a100_is_sized_on_them_first_and_told_what_to_rent(browser_page):
    page = browser_page
    page.goto(page.base_url + "/")
    continue_to_next(page)  # start page
    continue_to_next(page)  # welcome
    assert page.url.rstrip("/").endswith(f"/{DISCOVERY.slug}")
    page.fill("#id_discovery-use_case", SENTENCE)
    page.check("input[name='discovery-setup_known'][value='not_sure']")
    continue_to_next(page)

    def answer(slug: str) -> None:
        if slug == "model":
            page.fill("#id_model-total_params", "34B")
        elif slug == "method":
            page.check("input[name='method-method'][value='full_finetune']")
        elif slug == "data":
            page.fill("#id_data-dataset_size", "30B tokens")
        elif slug == "timeline":
            page.fill("#id_timeline-run_time_hours", "3 weeks")
        elif slug == "deployment":
            # their own server room, cloud allowed for overflow; what they own, in the open
            page.check("input[name='deployment-location'][value='hybrid']")
            owned = page.get_by_label("Accelerators you already own")
            assert owned.is_visible()
            owned.fill("two DGX A100 (16 A100 80GB)")
        else:
            page.check(f"#id_{slug}-not_sure")

    asked = walk_short_path_questions(page, answer)
    assert "deployment" in asked

    send_contact_to_review(page, "Robin Example", "robin@robots.example", "Robots Example Ltd")
    estimate = page.locator(".first-estimate").first.inner_text()
    assert f"{OWNED} you already own" in estimate, estimate
    assert re.search(
        rf"You own {OWNED}: one run takes about [\d.]+ days on them, [\d.]+ days past your "
        r"deadline of 21 days",
        estimate,
    ), estimate
    assert re.search(r"add \d+ NVIDIA H100 SXM5 80GB rented for about [\d.]+ days", estimate)
    assert "no capital" in estimate
    assert "bought in year 1" not in estimate and "Buy, in your own" not in estimate

    page.set_default_timeout(120_000)  # sending sizes and renders the proposal in this process
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"

    submission = Submission.objects.get(contact_email="robin@robots.example")
    recommendation = Recommendation.objects.filter(submission=submission).latest("version")
    assert recommendation.engine_input["estate"] == {"accelerator": "a100-80gb", "count": 16}
    result = recommendation.result
    assert result["cluster"]["accelerator"] == "a100-80gb" and result["cluster"]["gpus"] == 16
    assert result["cost"]["capex_usd"] == 0  # no purchase pushed
    estate = result["estate"]
    assert estate["owned_days"] > 21 and estate["meets_deadline"] is False
    assert estate["add"] == "rent" and estate["add_count"] > 0 and estate["add_cost_usd"] > 0

    rendered = document.render_data(proposal_data(recommendation))
    assert rendered.page_count <= 14 and not rendered.findings
    text = squash(pdf_text(rendered.pdf))
    assert squash(f"You own {OWNED}: one run takes about") in text
    assert squash("no capital") in text
    assert squash("The accelerators you own, in your data centre") in text
    assert squash("rented for about") in text
    assert read_result(result).on_owned_estate
    assert "Buy, in your own data centre:" not in text
