"""Customer 5 of ``../shared/reference/customer-scenarios.md`` in the browser (issue 26): a
robotics start-up that owns two DGX A100 servers (16 A100 80GB) and will rent extra only if it
must types its sentence, checks what it gave, takes the short path and answers only what the
sentence left open; it is sized on its own accelerators first.

The credible answer, asserted on the review page's first estimate and in the PDF the pipeline
rendered: how long the run takes on the 16 owned A100 and whether three weeks holds; since it
does not, how many accelerators to rent, for how long and at what cost; no purchase pushed; the
owned servers' running cost only, capital $0.

Before, no question asked what a customer owns: the proposal said "buy 1 × NVIDIA H100".
"""

from __future__ import annotations

import re

import pytest

from pipeline.models import Recommendation
from questionnaire.models import Submission
from questionnaire.questions import get_question
from sizing.public import read_result
from tests.e2e.sentence_walk import rendered_proposal, type_sentence, use_the_answers
from tests.e2e.test_non_expert_path import send_contact_to_review, walk_short_path_questions
from tests.questionnaire.prefill.test_sentence import CUSTOMERS
from tests.reports.conftest import pdf_text

pytestmark = pytest.mark.e2e

SENTENCE = CUSTOMERS[5]
OWNED = "16 × NVIDIA A100 SXM4 80GB"


def _figures(text: str) -> tuple[str, str, str]:
    """The days on the owned cards, the count rented and their cost, as a sentence says them."""
    owned = re.search(r"one run takes about ([\d.]+) days on them", text)
    rented = re.search(r"add (\d+) NVIDIA H100 SXM5 80GB rented for about ([\d.]+) days", text)
    cost = re.search(r"to share the work, about (\$[\d,]+)", text)
    assert owned and rented and cost, text
    return owned[1], rented[1], cost[1]


def test_a_lab_that_owns_16_a100_is_sized_on_them_first_and_told_what_to_rent(
    browser_page, screenshot_dir
):
    page = browser_page
    offered = type_sentence(page, SENTENCE, setup_known="not_sure")
    # (a) the check page offers each answer the sentence names
    assert offered == {
        "Total parameters": "34B",
        "How will you train?": "Full fine-tuning: all parameters change",
        "Size of your training data": "30 billion",
        "That size is counted in": "Tokens",
        # the label as the question registry words it
        get_question("timeline").form_class.base_fields["run_time_hours"].label: (
            "three weeks (read as 21 days)"
        ),
        "Where should the hardware be?": "A mix (hybrid)",  # "rent extra only if we must"
        "Accelerators you already own": (
            "two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS)"
        ),
    }, offered
    page.screenshot(path=str(screenshot_dir / "owned-check.png"), full_page=True)
    use_the_answers(page)

    def answer(slug: str) -> None:
        # the sentence answered the rest; their own server room has no rule on where data stays
        if slug == "timeline":  # and their roadmap: one run a quarter
            page.fill("#id_timeline-runs_per_month", "0.33")
        elif page.locator(".prefilled-note").count() == 0:
            page.check(f"#id_{slug}-not_sure")

    asked = walk_short_path_questions(page, answer)
    assert "deployment" in asked
    send_contact_to_review(page, "Robin Example", "robin@robots.example", "Robots Example Ltd")
    page.screenshot(path=str(screenshot_dir / "owned-review.png"), full_page=True)

    # (b) the review page keeps what they own and their words
    deployment = page.locator("section[aria-labelledby='review-deployment']").inner_text()
    assert "16 A100 80GB, HDR InfiniBand, a 200 TB NAS" in deployment and "hybrid" in deployment
    estimate = page.locator(".first-estimate").first.inner_text()
    # (c) sized on the 16 owned A100 first: the time on them against three weeks; what to rent,
    # for how long, at what cost; running cost only, no capital, nothing bought
    assert f"{OWNED} you already own" in estimate and "nothing bought" in estimate, estimate
    assert re.search(
        rf"You own {OWNED}: one run takes about [\d.]+ days on them, [\d.]+ days past your "
        r"deadline of 21 days",
        estimate,
    ), estimate
    owned_days, rented, rent_cost = _figures(estimate)
    assert "running cost (power, space, support and staff)" in estimate and "no capital" in estimate
    assert "Your network (HDR InfiniBand" in estimate and "none is bought" in estimate
    assert "Your 200 TB of shared storage" in estimate
    assert "bought in year 1" not in estimate and "Buy, in your own" not in estimate.split("\n")[0]

    page.set_default_timeout(120_000)  # sending sizes and renders the proposal in this process
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"

    submission = Submission.objects.get(contact_email="robin@robots.example")
    recommendation = Recommendation.objects.filter(submission=submission).latest("version")
    assert recommendation.engine_input["estate"] == {
        "accelerator": "a100-80gb",
        "count": 16,
        "fabric": "infiniband",
        "fabric_gbps": 200,
        "storage_tb": 200.0,
    }
    assert recommendation.engine_input["deployment"]["location"] == "hybrid"
    result = recommendation.result
    assert result["cluster"]["accelerator"] == "a100-80gb" and result["cluster"]["gpus"] == 16
    assert result["cost"]["capex_usd"] == 0  # no purchase pushed
    estate = result["estate"]
    assert estate["owned_days"] > 21 and estate["meets_deadline"] is False
    assert estate["add"] == "rent" and estate["add_count"] > 0 and estate["add_cost_usd"] > 0
    assert read_result(result).on_owned_estate

    # the PDF the pipeline rendered says the same, with the same figures
    pdf = rendered_proposal(submission)
    (screenshot_dir / "owned.pdf").write_bytes(pdf)
    text = " ".join(pdf_text(pdf).split())
    assert _figures(text) == (owned_days, rented, rent_cost)
    assert f"one run takes about {owned_days} days on them" in text
    assert "no capital" in text and "nothing is bought" in text
    assert "Of the total, no hardware is bought" in text
    # one run a quarter: the cost a run holds the help rented for each run beside it, and says so
    assert re.search(
        rf"a month, or \$[\d,]+ a run including about \{rent_cost} a run for the {rented}", text
    )
    assert "The accelerators you own, in your data centre" in text
    assert "Buy, in your own data centre:" not in text
    # what they own is no rule to drop (its running cost is paid whether or not it trains)
    assert "Whether your rules are firm" not in text and "keeping it costs" not in text
