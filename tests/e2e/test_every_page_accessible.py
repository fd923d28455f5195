"""axe-core on every customer page and error state (issue 13), in a real browser.

Home, glossary, welcome, each of the fifteen questions, contact, review, confirmation, the save
and resume pages, and the error states: a question with an invalid value, contact with nothing
filled in, save with a bad email address, resume with no code, an unknown and an expired link,
another browser's questionnaire and a page that does not exist. Every ``<details>`` is opened
first, so what it hides is scanned too. No violation of moderate impact or worse is allowed,
of the WCAG A/AA rules or of axe's best practices. Submitting runs the sizing in-process (no
broker in the tests), so no worker is needed.
"""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from questionnaire.models import Draft
from questionnaire.questions import QUESTIONS
from tests.e2e.accessibility import CUSTOMER_TAGS, serious_violations, violations_in_html

pytestmark = pytest.mark.e2e


def scan(page, what: str, found: dict[str, list[str]]) -> None:
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    found[what] = serious_violations(page, CUSTOMER_TAGS)


def continue_to_next(page) -> None:
    with page.expect_navigation():
        page.locator("main button.btn-primary").first.click()


def test_every_customer_page_and_error_state_passes_axe(browser, live_server):
    found: dict[str, list[str]] = {}
    base = live_server.url
    context = browser.new_context(bypass_csp=True, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)

    for path, what in (("/", "home"), ("/glossary/", "glossary"), ("/no-such-page/", "404")):
        page.goto(base + path)
        scan(page, what, found)
    assert page.locator("h1").count() == 1  # the branded 404, not Django's bare "Not Found"

    page.goto(base + "/")
    continue_to_next(page)
    scan(page, "welcome", found)
    continue_to_next(page)
    scan(page, "discovery", found)
    continue_to_next(page)

    page.fill("#id_model-total_params", "-8B")
    continue_to_next(page)
    assert page.title().startswith("Error: ")
    scan(page, "question 1 with an invalid value", found)
    page.fill("#id_model-total_params", "8B")
    for question in QUESTIONS:
        assert f"Question {question.number} of 15" in page.locator(".progress-label").inner_text()
        scan(page, f"question {question.number}", found)
        page.check(f"#id_{question.slug}-not_sure")
        continue_to_next(page)

    continue_to_next(page)  # contact, nothing filled in
    assert page.title().startswith("Error: ")
    scan(page, "contact with missing fields", found)
    page.fill("#id_contact-name", "Dana Keller")
    page.fill("#id_contact-email", "dana@hospital.example")
    page.fill("#id_contact-company", "Example Hospital Group")
    page.check("#id_contact-consent")
    scan(page, "contact", found)
    continue_to_next(page)
    scan(page, "review", found)
    review = page.url

    page.goto(review.rsplit("/", 2)[0] + "/save/")
    scan(page, "save", found)
    page.fill("#id_email", "not an email address")
    continue_to_next(page)
    assert page.title().startswith("Error: ")
    scan(page, "save with a bad email address", found)
    page.fill("#id_email", "")
    continue_to_next(page)
    scan(page, "save with the private link", found)
    link = page.locator(".resume-link a").inner_text()

    other = browser.new_context(bypass_csp=True, locale="en-GB")
    elsewhere = other.new_page()
    elsewhere.set_default_timeout(20_000)
    elsewhere.goto(review)
    scan(elsewhere, "another browser's questionnaire", found)
    elsewhere.goto(base + "/q/resume/")
    with elsewhere.expect_navigation():
        elsewhere.locator("main button.btn-primary").click()
    scan(elsewhere, "resume with no code", found)
    elsewhere.goto("about:blank")  # else only the "#" part changes and the page stays
    elsewhere.goto(base + "/q/resume/#no-such-code")  # the page posts the code itself
    elsewhere.wait_for_selector("h1:text('We could not find that link')")
    scan(elsewhere, "resume with an unknown link", found)
    Draft.objects.update(resume_token_expires_at=timezone.now() - datetime.timedelta(days=1))
    elsewhere.goto("about:blank")
    elsewhere.goto(base + "/q/resume/#" + link.split("#", 1)[1])
    elsewhere.wait_for_selector("h1:text('This link has expired')")
    scan(elsewhere, "resume with an expired link", found)
    other.close()

    page.goto(review)
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"
    scan(page, "confirmation", found)
    context.close()

    assert len(found) == 32
    problems = [line for lines in found.values() for line in lines]
    assert problems == [], "\n".join(problems)


def test_the_scan_catches_a_moderate_issue(browser):
    """Guards the scan: text outside every landmark is a moderate issue, and it blocks."""
    found = violations_in_html(
        browser,
        "<!doctype html><html lang=en><title>t</title><main><h1>Page</h1></main>"
        "<p>Text outside every landmark.</p></html>",
        CUSTOMER_TAGS,
    )
    assert any("(moderate)" in line and "region" in line for line in found), found
