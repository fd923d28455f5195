"""The whole product in a real browser: customer, worker, engineer (issue 6).

A customer starts the questionnaire, answers some questions and is "not sure" of others,
saves a private link, resumes it in a fresh browser context, and sends the answers. A real
Celery worker process sizes the submission and renders the PDF from Redis; the customer's
page shows the first estimate, marked preliminary. An engineer logs in to the admin and
downloads the PDF. Every customer page is scanned with axe-core on the way.
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from pypdf import PdfReader

from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS
from tests.e2e.accessibility import serious_violations, violations_in_html
from tests.e2e.staff_sign_in import sign_in_in_browser
from tests.pipeline.conftest import broker, start_worker  # noqa: F401 - fixtures
from tests.staff.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

ANSWERED = {
    "model": {"#id_model-model_name": "Llama 3.1 8B", "#id_model-total_params": "8B"},
    "data": {"#id_data-dataset_size": "2B tokens"},
    "timeline": {},
}


def continue_to_next(page) -> None:
    with page.expect_navigation():
        page.locator("button.btn-primary").first.click()


def answer(page, question, violations: list[str]) -> None:
    violations += serious_violations(page)
    fields = ANSWERED.get(question.slug)
    if fields:
        for selector, text in fields.items():
            page.fill(selector, text)
        if question.slug == "model":
            page.check("#id_model-architecture_0")
    else:
        page.check(f"#id_{question.slug}-not_sure")
    continue_to_next(page)


def test_customer_resumes_submits_and_an_engineer_downloads_the_proposal(
    browser,
    live_server,
    start_worker,  # noqa: F811 - the fixture imported above
    screenshot_dir,
):
    start_worker()
    violations: list[str] = []
    first = browser.new_context(bypass_csp=True, locale="en-GB")
    page = first.new_page()
    page.set_default_timeout(20_000)

    page.goto(live_server.url + "/glossary/")
    violations += serious_violations(page)
    page.goto(live_server.url + "/")
    violations += serious_violations(page)
    with page.expect_navigation():
        page.locator("button.btn-primary").first.click()
    violations += serious_violations(page)  # welcome
    continue_to_next(page)
    violations += serious_violations(page)  # discovery, left empty: the detailed questions
    continue_to_next(page)

    # A mistake first: the error page must be accessible too, and keep what was typed.
    page.fill("#id_model-total_params", "-8B")
    continue_to_next(page)
    assert page.title().startswith("Error: ")
    violations += serious_violations(page)
    assert page.input_value("#id_model-total_params") == "-8B"

    for question in QUESTIONS[:8]:
        answer(page, question, violations)
    assert f"Question {QUESTIONS[8].number} of 15" in page.locator(".progress-label").inner_text()

    with page.expect_navigation():
        page.locator("button[name=save_for_later]").click()
    violations += serious_violations(page)
    with page.expect_navigation():
        page.locator("form button.btn-primary").click()
    link = urlparse(page.locator(".resume-link a").inner_text())
    # The token follows "#": the browser never sends it, the resume page posts it once.
    resume_path = f"{link.path}#{link.fragment}"
    first.close()

    # A fresh browser context: no cookies, only the private link.
    second = browser.new_context(bypass_csp=True, locale="en-GB")
    page = second.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + resume_path)
    page.wait_for_selector(".progress-label")
    assert link.fragment not in page.url
    assert f"Question {QUESTIONS[8].number} of 15" in page.locator(".progress-label").inner_text()
    for question in QUESTIONS[8:]:
        answer(page, question, violations)

    page.fill("#id_contact-name", "Dana Keller")
    page.fill("#id_contact-email", "dana@insurer.example")
    page.fill("#id_contact-company", "Example Insurance Group")
    page.check("#id_contact-consent")
    violations += serious_violations(page)
    continue_to_next(page)

    assert page.locator("h1").inner_text() == "Check your answers before sending"
    assert "Llama 3.1 8B" in page.content()
    violations += serious_violations(page)
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"
    violations += serious_violations(page)

    deadline = time.monotonic() + 90
    while "First estimate ready" not in page.locator(".submission-status").inner_text():
        assert time.monotonic() < deadline, page.locator(".submission-status").inner_text()
        time.sleep(1)
        page.reload()
    summary = page.locator(".sizing-summary").inner_text()
    assert "H100" in summary or "×" in summary
    violations += serious_violations(page)
    page.screenshot(path=str(screenshot_dir / "journey-confirmation-ready.png"), full_page=True)
    second.close()

    submission = Submission.objects.get()
    assert submission.answers["model"]["model_name"] == "Llama 3.1 8B"
    assert submission.answers["network"]["not_sure"] is True
    # The estimate shows once sized; the PDF (for the engineer) follows a few seconds later.
    while submission.proposals.filter(status="done").count() != 1:
        assert time.monotonic() < deadline, list(submission.proposals.values("status", "error"))
        time.sleep(0.5)

    erin = make_user("Engineers", username="erin")
    staff = browser.new_context(accept_downloads=True, locale="en-GB")
    page = staff.new_page()
    page.set_default_timeout(20_000)
    sign_in_in_browser(page, live_server.url, erin)
    page.goto(f"{live_server.url}/admin/questionnaire/submission/{submission.pk}/change/")
    with page.expect_download() as download_info:
        page.locator("a[href*='/proposals/'][href$='.pdf']").first.click()
    pdf_bytes = Path(download_info.value.path()).read_bytes()
    staff.close()

    assert pdf_bytes.startswith(b"%PDF")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf_bytes)).pages)
    assert submission.reference in text
    assert violations == [], "\n".join(violations)


def test_the_accessibility_scan_catches_a_serious_violation(browser):
    """Guards the scan itself: a page with an unlabeled input must be reported."""
    found = violations_in_html(
        browser,
        "<!doctype html><html lang=en><title>t</title><main><input type=text></main></html>",
    )
    assert any("label" in line for line in found), found
