"""From submission to a proposal in the customer's hands (issue 14), in a real browser.

A customer submits; a real Celery worker sizes it, renders the PDF and sends every email over
SMTP to a local sink. The engineer gets "needs review", adjusts and re-runs (a what-if the
customer never sees), then approves; the account manager assigns it to himself and sends it
with a note; the customer opens the emailed link and downloads the PDF; "viewed" appears in
the admin and the account manager is told. Screenshots of the list, the summary panel, the
diff and the emails are written for a person to look at.
"""

from __future__ import annotations

import re
import time
from html import escape
from pathlib import Path

import pytest

from pipeline.models import Proposal
from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS
from tests.e2e.accessibility import serious_violations
from tests.e2e.staff_sign_in import sign_in_in_browser
from tests.pipeline.conftest import broker, start_worker  # noqa: F401 - fixtures
from tests.smtp_sink import SmtpSink, subject
from tests.staff.factories import make_submission, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

CUSTOMER = "dana@insurer.example"
NOTE = "Dear Dana, as promised on Tuesday's call: the sizing, checked by Erin."


@pytest.fixture
def sink():
    server = SmtpSink()
    yield server
    server.stop()


def continue_to_next(page) -> None:
    with page.expect_navigation():
        page.locator("button.btn-primary").first.click()


def submit_the_questionnaire(page, base_url: str) -> None:
    page.goto(base_url + "/")
    continue_to_next(page)  # start
    continue_to_next(page)  # welcome
    continue_to_next(page)  # discovery, left empty: the detailed questions
    for question in QUESTIONS:
        if question.slug == "model":
            page.fill("#id_model-model_name", "Llama 3.1 70B")
            page.fill("#id_model-total_params", "70B")
            page.check("#id_model-architecture_0")
        elif question.slug == "data":
            page.fill("#id_data-dataset_size", "300B tokens")
        else:
            page.check(f"#id_{question.slug}-not_sure")
        continue_to_next(page)
    page.fill("#id_contact-name", "Dana Keller")
    page.fill("#id_contact-email", CUSTOMER)
    page.fill("#id_contact-company", "Example Insurance Group")
    page.check("#id_contact-consent")
    continue_to_next(page)
    with page.expect_navigation():
        page.locator("button[data-submit-once]").click()
    assert page.locator("h1").inner_text() == "Your answers have been sent"


def status_text(page) -> str:
    page.reload()
    return page.locator(".submission-status").inner_text()


def wait_until(condition, what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.5)


def log_in(browser, base_url: str, user):
    context = browser.new_context(
        viewport={"width": 1440, "height": 1000}, locale="en-GB", accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    sign_in_in_browser(page, base_url, user)
    return page


def link_in(message, pattern: str) -> str:
    body = message.get_content()
    found = re.search(pattern, body)
    assert found, body
    return found.group(0)


def screenshot_email(browser, message, path: Path) -> None:
    context = browser.new_context(viewport={"width": 900, "height": 600})
    page = context.new_page()
    headers = f"From: {message['From']}\nTo: {message['To']}\nSubject: {subject(message)}"
    page.set_content(
        "<html><body style='font: 14px/1.45 sans-serif; margin: 24px'>"
        f"<pre style='color:#555'>{escape(headers)}</pre><hr>"
        f"<pre style='white-space: pre-wrap; font: inherit'>{escape(message.get_content())}</pre>"
        "</body></html>"
    )
    page.screenshot(path=str(path), full_page=True)
    context.close()


def test_review_approve_send_and_the_customer_opens_it(
    browser,
    live_server,
    settings,
    sink,
    start_worker,  # noqa: F811 - the fixture imported above
    screenshot_dir,
):
    base = live_server.url
    settings.SITE_URL = base
    settings.ACCOUNT_MANAGER_EMAILS = []
    start_worker(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(sink.port),
        EMAIL_USE_TLS="0",
        SITE_URL=base,
        ACCOUNT_MANAGER_EMAILS="",
    )
    erin = make_user(
        "Engineers",
        username="erin",
        first_name="Erin",
        last_name="Engineer",
        email="erin@example.com",
    )
    bob = make_user(
        "Account managers",
        username="bob.am",
        first_name="Bob",
        last_name="Tester",
        email="bob@example.com",
    )

    # --- the customer submits and sees the first estimate, marked preliminary ------------------
    customer = browser.new_context(locale="en-GB", bypass_csp=True)  # bypass: the axe scan
    page = customer.new_page()
    page.set_default_timeout(20_000)
    submit_the_questionnaire(page, base)
    seen_by_customer: list[str] = []

    def customer_sees() -> str:
        text = status_text(page)
        seen_by_customer.append(text)
        return text

    # "we are writing your proposal" first, then the estimate an engineer checks (the page
    # refreshes itself while it waits)
    wait_until(lambda: "an engineer checks it" in customer_sees(), "the first estimate")
    first_estimate = seen_by_customer[-1]
    assert "Preliminary" in first_estimate and "an engineer checks it" in first_estimate
    violations = serious_violations(page)
    submission = Submission.objects.get()
    confirmation = sink.wait_for(to=CUSTOMER, subject_starts="We received your sizing request")
    assert submission.reference in confirmation.get_content()

    # --- the engineer is told, opens it from the email, adjusts and re-runs ---------------------
    needs_review = sink.wait_for(to="erin@example.com", subject_starts="Needs review:")
    assert subject(needs_review) == (
        f"Needs review: Example Insurance Group · Llama 3.1 70B · {submission.reference} v1"
    )
    admin_link = link_in(needs_review, rf"{re.escape(base)}/admin/\S+")
    staff = log_in(browser, base, erin)
    staff.goto(admin_link)
    assert "Review version 1" in staff.locator("#summary").inner_text()
    staff.locator("#summary").screenshot(path=str(screenshot_dir / "issue14-summary-panel.png"))

    v1_accelerator = submission.recommendations.get(version=1).result["cluster"]["accelerator"]
    other = "mi300x" if v1_accelerator != "mi300x" else "h200"
    staff.click("a.override-link")
    assert "Engine used:" in staff.locator(".staff-override form").inner_text()
    staff.screenshot(path=str(screenshot_dir / "issue28-override-form.png"), full_page=True)
    staff.select_option("select[name='hardware.accelerator']", other)
    staff.fill("input[name='reason']", "What if they take the AMD offer?")
    with staff.expect_navigation():
        staff.click("input[name='_rerun']")
    wait_until(
        lambda: Proposal.objects.filter(submission=submission, version=2, status="done").exists(),
        "version 2's PDF",
    )
    sink.wait_for(to="erin@example.com", subject_starts="Needs review:", timeout=30)
    v2 = submission.recommendations.get(version=2)
    v2_name = v2.result["cluster"]["accelerator_name"]

    # The customer's page still shows the preliminary first estimate, not the what-if.
    shown = customer_sees()
    assert "Preliminary" in shown and v2_name not in shown

    staff.reload()
    staff.locator("#recommendations-group").screenshot(
        path=str(screenshot_dir / "issue14-engineer-diff.png")
    )
    diff = staff.locator(".what-changed").first.inner_text()
    assert diff.index("Recommended cost") < diff.index("Accelerator") < diff.index("Input:")
    with staff.expect_navigation():
        staff.click("input.approve-version")
    # a confirmation first: what the customer will see, and that no email goes to them
    confirm = staff.content()
    assert (
        "The customer sees this at once" in confirm and "No email goes to the customer" in confirm
    )
    staff.screenshot(path=str(screenshot_dir / "issue28-approve-confirmation.png"), full_page=True)
    with staff.expect_navigation():
        staff.click("input.confirm-approval")
    assert "Version 2 approved" in staff.content()

    shown = customer_sees()
    assert "checked by our engineer" in shown and v2_name in shown
    assert "Preliminary" not in shown
    violations += serious_violations(page)

    # --- the account manager takes it, sends it with a note --------------------------------------
    sink.wait_for(to="bob@example.com", subject_starts="Approved, ready to send:")
    manager = log_in(browser, base, bob)
    manager.goto(f"{base}/admin/questionnaire/submission/{submission.pk}/change/")
    manager.select_option("#id_assignee", label="Bob Tester")
    with manager.expect_navigation():
        manager.click("input[name='_continue']")
    manager.fill("textarea[name='note']", NOTE)
    with manager.expect_navigation():
        manager.click("input.send-proposal")
    assert "is being emailed to dana@insurer.example" in manager.content()
    manager.goto(f"{base}/admin/questionnaire/submission/?mine=assigned")
    assert submission.reference in manager.locator("#result_list").inner_text()
    assert "Proposal sent" in manager.locator("#result_list").inner_text()
    for n, company in enumerate(("Contoso AI", "Fabrikam Labs"), start=1):
        make_submission(reference=f"TQ-2026-0900{n}", company=company, pipeline_status="sizing")
    manager.goto(f"{base}/admin/questionnaire/submission/")
    manager.screenshot(path=str(screenshot_dir / "issue14-list.png"), full_page=True)

    # --- the customer opens the emailed link and downloads the PDF ---------------------------------
    proposal_email = sink.wait_for(to=CUSTOMER, subject_starts="Your training infrastructure")
    assert NOTE in proposal_email.get_content()
    shared = link_in(proposal_email, rf"{re.escape(base)}/proposals/shared/\S+/")
    reader = browser.new_context(locale="en-GB", accept_downloads=True, bypass_csp=True)
    opened = reader.new_page()
    opened.goto(shared)
    violations += serious_violations(opened)
    assert NOTE in opened.locator(".personal-note").inner_text()
    assert "version 2" in opened.locator(".lead").inner_text()
    with opened.expect_download() as download:
        opened.click("a.download-proposal")
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    opened.screenshot(path=str(screenshot_dir / "issue14-customer-link.png"), full_page=True)
    reader.close()

    # --- "viewed" shows in the admin, and the account manager hears of it -----------------------
    viewed = sink.wait_for(to="bob@example.com", subject_starts="Customer opened the proposal:")
    manager.goto(f"{base}/admin/questionnaire/submission/{submission.pk}/change/")
    summary = manager.locator("#summary").inner_text()
    assert "Viewed by the customer" in summary
    assert "Follow up with the customer" in summary
    assert "not yet" not in manager.locator("table.share-links").inner_text()
    manager.locator("#summary").screenshot(path=str(screenshot_dir / "issue14-summary-viewed.png"))
    manager.locator("#deliveries").screenshot(path=str(screenshot_dir / "issue14-deliveries.png"))

    # The customer never saw an unapproved version: only v1 (preliminary) and v2 (approved).
    with_figures = [text for text in seen_by_customer if "What we recommend" in text]
    assert with_figures
    for text in with_figures:
        assert ("Preliminary" in text and v2_name not in text) or (
            "checked by our engineer" in text and v2_name in text
        ), text
    assert violations == [], "\n".join(violations)
    for name, message in {
        "customer-confirmation": confirmation,
        "engineer-needs-review": needs_review,
        "customer-proposal": proposal_email,
        "manager-viewed": viewed,
    }.items():
        screenshot_email(browser, message, screenshot_dir / f"issue14-email-{name}.png")
    customer.close()
