"""The short path keeps the customer's rules (issue 26): a buyer who may use one maker only and
is not sure of the training set-up is asked the maker rule, and the review page's first
estimate and the proposal recommend that maker's accelerators.

Before, the short path had no question about makers: the first estimate recommended NVIDIA to
an AMD-only buyer, and only "answer it yourself" and seven more pages kept the rule.
"""

from __future__ import annotations

import pytest

from pipeline.models import Recommendation
from pipeline.services import proposal_data
from questionnaire.models import Submission
from questionnaire.paths import recommends_setup
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


def first_estimate(page) -> str:
    return page.locator(".first-estimate-figures").first.inner_text()


def test_an_amd_only_buyer_not_sure_of_the_set_up_gets_amd_on_the_review_page_and_in_the_pdf(
    browser_page,
):
    page = browser_page
    page.goto(page.base_url + "/")
    continue_to_next(page)  # start page
    continue_to_next(page)  # welcome
    assert page.url.rstrip("/").endswith(f"/{DISCOVERY.slug}")
    page.fill("#id_discovery-use_case", "Fine-tune an open 70B model on our support tickets")
    page.check("input[name='discovery-setup_known'][value='not_sure']")
    continue_to_next(page)

    def answer(slug: str) -> None:
        if slug == "model":
            page.fill("#id_model-model_name", "Llama 3.1 70B")
        elif slug == "software":
            # the maker is asked in the open, not folded away with the software parts
            maker = page.get_by_label("AMD only")
            assert maker.is_visible()
            maker.check()
        else:
            page.check(f"#id_{slug}-not_sure")

    asked = walk_short_path_questions(page, answer)
    assert "software" in asked

    send_contact_to_review(page, "Ada Example", "ada@amd-only.example", "AMD-only Example Ltd")
    estimate = first_estimate(page)
    assert "AMD" in estimate and "NVIDIA" not in estimate, estimate

    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"

    submission = Submission.objects.get(contact_email="ada@amd-only.example")
    assert recommends_setup(submission.answers)
    recommendation = Recommendation.objects.filter(submission=submission).latest("version")
    assert recommendation.engine_input["hardware"]["vendors"] == ["amd"]
    assert recommendation.input_sources["hardware.vendors"] == "customer"
    text = squash(pdf_text(document.render_data(proposal_data(recommendation)).pdf))
    accelerator = read_result(recommendation.result).accelerator_name
    assert accelerator.startswith("AMD"), accelerator
    assert squash(accelerator) in text
