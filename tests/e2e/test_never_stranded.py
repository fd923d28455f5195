"""Never stranded (issue 28), in headless Chromium: a proposal that fails its check.

The customer watches their status page while version 1's proposal is written; the checker
finds "1 jobs of 24,576 accelerators" (made to, here) and the page changes by itself, without a
reload, to say that an engineer is preparing the proposal by hand and will email it; the change
sits in a polite live region, so a screen reader announces it. The engineer signs in with their
second factor and finds the proposal on the overview's list of those that need a hand, with
the finding, and the alert email on the submission's page.

Tasks are not published here: the test runs the sizing and the render in its own process, at
the moment it chooses, against the live server's database.
"""

import re

import pytest

from pipeline import services as pipeline_services
from pipeline.models import OutgoingEmail, Proposal
from questionnaire.models import Draft
from questionnaire.questions import QUESTIONS
from questionnaire.services import Contact, issue_resume_token, submit_answers
from reports.demo import DEMO_FORM_DATA
from reports.proposal_check import Finding
from tests.conftest import PUBLISHERS
from tests.e2e.accessibility import CUSTOMER_TAGS, serious_violations
from tests.e2e.staff_sign_in import sign_in_in_browser
from tests.staff.factories import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FOUND = "The cluster holds 1 full-size run at once (1 jobs of 24,576 accelerators each)"
BY_HAND = "An engineer is preparing your proposal by hand"


def submitted():
    """The demo answers submitted as the wizard does; the draft's private link to come back."""
    step_data = {}
    for question in QUESTIONS:
        data = DEMO_FORM_DATA.get(question.slug, question.example.data)
        step_data[question.slug] = {
            f"{question.slug}-{k}": [str(i) for i in v] if isinstance(v, list | tuple) else [str(v)]
            for k, v in data.items()
        }
    draft = Draft.objects.create(step_data=step_data, current_step="review")
    contact = Contact(name="Dana Keller", email="dana@insurer.example", company="Big Pretrain AG")
    submission = submit_answers(draft=draft, contact=contact)
    return submission, issue_resume_token(draft=draft)


def test_a_proposal_failing_its_check_tells_the_customer_plainly_and_the_staff_who_own_it(
    browser, browser_page, monkeypatch, settings, screenshot_dir
):
    for module in PUBLISHERS:
        monkeypatch.setattr(f"{module}.publish", lambda *args: True)
    settings.SITE_URL = "https://sizing.example.com"
    engineer = make_user("Engineers", username="erin", first_name="Erin", email="erin@example.com")
    submission, token = submitted()
    recommendation = pipeline_services.start_pipeline(submission_id=submission.pk)
    pipeline_services.run_sizing(recommendation_id=recommendation.pk)
    proposal = Proposal.objects.get(recommendation=recommendation)

    # The customer comes back with their private link: the proposal is being written.
    page = browser_page
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{page.base_url}/q/resume/#{token}")
    page.wait_for_url(re.compile(r"/confirmation/$"))
    status = page.locator('.submission-status [role="status"]')
    assert status.get_attribute("aria-live") == "polite"
    assert "First estimate ready; we are writing your proposal" in status.inner_text()
    page.evaluate("() => { window.stillThisPage = true; }")

    monkeypatch.setattr(
        "reports.document.check_proposal",
        lambda *, html, pages: [Finding("plural", "page 4", FOUND)],
    )
    pipeline_services.render_proposal(proposal_id=proposal.pk)
    assert Proposal.objects.get(pk=proposal.pk).status == Proposal.Status.FAILED

    # The page updates itself (no reload: the marker survives) and the live region says it.
    page.wait_for_function(
        "(text) => document.querySelector('[role=status]').innerText.includes(text)",
        arg=BY_HAND,
        timeout=30_000,
    )
    assert page.evaluate("() => window.stillThisPage === true")
    section = page.locator(".submission-status").inner_text()
    assert "We will email it to dana@insurer.example." in section
    assert "ready" not in section and "Our first estimate" not in section
    assert "Check again" not in section
    page.screenshot(path=screenshot_dir / "customer-proposal-by-hand.png", full_page=True)
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []

    # The same page passes axe (a context that lets the axe script in past our CSP).
    scan = browser.new_context(bypass_csp=True, locale="en-GB")
    try:
        scanned = scan.new_page()
        scanned.goto(f"{page.base_url}/q/resume/#{issue_resume_token(draft=submission.draft)}")
        scanned.wait_for_url(re.compile(r"/confirmation/$"))
        assert BY_HAND in scanned.locator('[role="status"]').inner_text()
        assert serious_violations(scanned, CUSTOMER_TAGS) == []
    finally:
        scan.close()

    # The alert went to the staff, with what was found and a link through the site's address.
    email = OutgoingEmail.objects.get(submission=submission, kind=OutgoingEmail.Kind.FAILED)
    assert "erin@example.com" in email.to
    assert FOUND in email.body
    assert f"https://sizing.example.com/admin/questionnaire/submission/{submission.pk}/change/" in (
        email.body
    )

    # The engineer signs in (password, then the second factor) and finds it needing a hand.
    staff_page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
    try:
        sign_in_in_browser(staff_page, page.base_url, engineer)
        staff_page.goto(f"{page.base_url}/staff/overview/")
        needs = staff_page.locator("#needs-a-hand")
        assert "Proposals that need a hand" in needs.inner_text()
        row = needs.locator("tr", has_text=submission.reference)
        assert "Proposal of version 1" in row.inner_text()
        assert FOUND in row.inner_text()
        staff_page.screenshot(path=screenshot_dir / "staff-needs-a-hand.png", full_page=True)

        row.locator("a", has_text=submission.reference).click()
        staff_page.wait_for_selector(".errornote.needs-a-hand")
        change = staff_page.locator("#content").inner_text()
        assert "This proposal needs a hand" in change and FOUND in change
        assert (
            "A run failed, needs a hand (to staff) (v1)"
            in staff_page.locator("table.emails").inner_text()
        )

        staff_page.goto(f"{page.base_url}/admin/questionnaire/submission/?needs_hand=yes")
        listed = staff_page.locator("#result_list").inner_text()
        assert submission.reference in listed and "Needs a hand" in listed
    finally:
        staff_page.context.close()
