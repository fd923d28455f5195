"""Customer 6 of ``../shared/reference/customer-scenarios.md`` in the browser (issue 26): the
bank's discovery sentence fills the answers it names, after the bank checks them.

"NVIDIA only (our code is CUDA). Data must stay in Germany, no shared tenancy. LoRA adapters on
an 8B model, 200 million tokens, retrained every week." Before, it prefilled nothing: the bank
typed each figure again on seven pages. Now the check page lists what was read, with the words
it came from; once confirmed, each answer is on its question page marked as read from their
words, and on the review page.
"""

from __future__ import annotations

import pytest

from questionnaire.models import Draft
from questionnaire.questions import DISCOVERY
from tests.e2e.accessibility import CUSTOMER_TAGS, serious_violations
from tests.e2e.test_non_expert_path import continue_to_next, send_contact_to_review
from tests.questionnaire.prefill.test_sentence import CUSTOMERS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BANK = CUSTOMERS[6]
MARK = "From your words"
# Each page the sentence answers, and the field it fills there with the value shown.
FILLED = {
    "model": {"#id_model-total_params": "8B"},
    "method": {"#id_method-method_3": True},  # LoRA
    "data": {"#id_data-dataset_size": "200 million"},
    "timeline": {"#id_timeline-runs_per_month": "4.3"},
    "software": {"#id_software-accelerator_vendor_0": True},  # NVIDIA only
    "deployment": {"#id_deployment-data_residency": "Germany"},
}


@pytest.fixture
def page(browser, live_server):
    # bypass_csp: only so that the axe-core scan can be injected (see accessibility.py)
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, bypass_csp=True, locale="en-GB"
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.base_url = live_server.url
    yield page
    context.close()


def test_the_banks_sentence_is_checked_then_fills_its_answers_marked_to_the_review(
    page, screenshot_dir
):
    issues: list[str] = []
    page.goto(page.base_url + "/")
    continue_to_next(page)  # start page
    continue_to_next(page)  # welcome
    assert page.url.rstrip("/").endswith(f"/{DISCOVERY.slug}")
    page.fill("#id_discovery-use_case", BANK)
    page.check("input[name='discovery-setup_known'][value='not_sure']")
    issues += serious_violations(page, CUSTOMER_TAGS)
    continue_to_next(page)

    # the check page: what was read, from which words, nothing saved yet
    assert page.locator("h1").inner_text() == "Check the answers from your words"
    main = page.locator("main").inner_text()
    for words in ("NVIDIA only", "stay in Germany", "no shared tenancy", "LoRA", "8B"):
        assert f"Your words “{words}”" in main, words
    assert page.locator("input[name='answer']:checked").count() == 8
    assert set(Draft.objects.get().step_data) == {"welcome", DISCOVERY.slug}
    issues += serious_violations(page, CUSTOMER_TAGS)
    page.screenshot(path=str(screenshot_dir / "sentence-check.png"), full_page=True)
    page.get_by_role("button", name="Use these answers").click()
    page.wait_for_url("**/model/")

    # each question page the sentence answers shows the answer, marked
    while "/contact/" not in page.url:
        slug = page.url.rstrip("/").rsplit("/", 1)[-1]
        if slug in FILLED:
            for selector, value in FILLED[slug].items():
                field = page.locator(selector)
                if value is True:
                    assert field.is_checked(), selector
                else:
                    assert field.input_value() == value, selector
            assert page.locator(".prefilled-note").first.inner_text() == MARK, slug
            if slug == "deployment":
                assert page.locator("#id_deployment-dedicated_0").is_checked()  # yes
                page.screenshot(
                    path=str(screenshot_dir / "sentence-deployment.png"), full_page=True
                )
            issues += serious_violations(page, CUSTOMER_TAGS)
        else:
            assert page.locator(".prefilled-note").count() == 0, slug
            page.check(f"#id_{slug}-not_sure")
        continue_to_next(page)

    send_contact_to_review(page, "Jonas Weber", "jonas@bank.example", "Example Bank AG")
    review = page.locator("main")
    assert BANK in review.inner_text()  # their project, quoted
    # each answer from their words marked ✱, the key once above the questions
    assert review.locator(".prefilled-mark").count() == 8
    assert review.locator(".prefilled-legend").inner_text() == "✱ From your words"
    model = page.locator("section[aria-labelledby='review-model']").inner_text()
    assert "8B ✱" in model and "(from your words)" in model
    issues += serious_violations(page, CUSTOMER_TAGS)
    page.screenshot(path=str(screenshot_dir / "sentence-review.png"), full_page=True)
    assert issues == [], "\n".join(issues)
