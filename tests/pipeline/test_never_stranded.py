"""Never stranded (issue 28): a proposal that fails its check tells the staff who own the
submission, in plain words and with a link through the site's address; it is listed as needing
a hand; the customer's page says plainly that an engineer prepares it by hand, never "ready";
and the engineer can retry, or override and re-run, from the failed state.

The checker is made to find what a large pre-training customer's proposal once said ("1 jobs of
24,576 accelerators"); everything else (engine, render, outbox, admin, page) is the real thing.
"""

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from pipeline import services
from pipeline.models import OutgoingEmail, Proposal, Recommendation
from questionnaire.models import Submission
from reports.proposal_check import Finding
from staff import pipeline_actions
from staff.filters import needing_a_hand
from staff.workflow import approve_version
from tests.staff.factories import make_ready_submission, make_submission, make_user, sign_in

pytestmark = pytest.mark.django_db

FOUND = "The cluster holds 1 full-size run at once (1 jobs of 24,576 accelerators each)"
CHANGE_PATH = "/admin/questionnaire/submission/{pk}/change/"


@pytest.fixture
def staff(settings):
    settings.ACCOUNT_MANAGER_EMAILS = []
    settings.SITE_URL = "https://sizing.example.com"
    return {
        "amy": make_user("Account managers", username="amy", email="amy@example.com"),
        "bob": make_user("Account managers", username="bob", email="bob@example.com"),
        "erin": make_user("Engineers", username="erin", email="erin@example.com"),
    }


@pytest.fixture
def failing_check(monkeypatch):
    """The checker finds a count and its noun that disagree; ``.fix()`` makes it clean again."""

    class Checker:
        findings = [Finding("plural", "page 4", FOUND)]

        def __call__(self, *, html, pages):
            return list(self.findings)

        def fix(self):
            self.findings = []

    checker = Checker()
    monkeypatch.setattr("reports.document.check_proposal", checker)
    return checker


def size(submission: Submission) -> Proposal:
    """Version 1 sized by the real engine; its proposal pending."""
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    return Proposal.objects.get(recommendation=recommendation)


def render(proposal: Proposal, capture) -> None:
    with capture(execute=True):
        services.render_proposal(proposal_id=proposal.pk)


def customer_page(submission: Submission) -> str:
    submission = Submission.objects.get(pk=submission.pk)
    request = RequestFactory().get("/q/x/confirmation/")
    return render_to_string(
        "questionnaire/confirmation.html", {"submission": submission}, request=request
    )


def failure_email(submission: Submission) -> OutgoingEmail:
    return OutgoingEmail.objects.get(submission=submission, kind=OutgoingEmail.Kind.FAILED)


def test_a_proposal_failing_its_check_emails_its_assignee_and_the_engineers_what_was_found(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission(assignee=staff["amy"])
    render(size(submission), django_capture_on_commit_callbacks)

    email = failure_email(submission)
    # The staff who own it (the assignee, not every account manager) and the engineers.
    assert set(email.to) == {"amy@example.com", "erin@example.com"}
    assert email.subject.startswith("Proposal failed its check: ")
    assert email.subject.endswith(f"{submission.reference} v1")
    body = email.body
    assert f"The proposal of {submission.reference} version 1 ({submission.company}," in body
    assert f"page 4, a count and its noun disagree: \u201c{FOUND}\u201d" in body
    assert "their page says that an engineer is preparing their proposal by hand" in body
    assert f"https://sizing.example.com{CHANGE_PATH.format(pk=submission.pk)}" in body
    assert "127.0.0.1" not in body


def test_while_nobody_owns_it_every_account_manager_hears_of_it(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    render(size(submission), django_capture_on_commit_callbacks)
    email = failure_email(submission)
    assert set(email.to) == {"amy@example.com", "bob@example.com", "erin@example.com"}
    assert FOUND in email.body


def test_it_is_listed_with_its_reason_among_the_proposals_that_need_a_hand(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission(assignee=staff["amy"])
    render(size(submission), django_capture_on_commit_callbacks)
    fine, _, _ = make_ready_submission()

    client = Client()
    sign_in(client, staff["erin"])
    listing = client.get("/admin/questionnaire/submission/", {"needs_hand": "yes"})
    page = listing.content.decode()
    assert submission.reference in page and fine.reference not in page
    assert "Needs a hand: The proposal failed its check (1 finding): page 4" in page

    sign_in(client, make_user("superuser"))  # the overview is for those who may see it
    overview = client.get("/staff/overview/").content.decode()
    assert "Proposals that need a hand" in overview
    section = overview.split('id="needs-a-hand"')[1].split('<div class="module"')[0]
    assert submission.reference in section and fine.reference not in section
    assert "Proposal of version 1" in section
    assert f"\u201c{FOUND}\u201d" in section.replace("&ldquo;", "\u201c").replace(
        "&rdquo;", "\u201d"
    )

    change = client.get(CHANGE_PATH.format(pk=submission.pk)).content.decode()
    assert "This proposal needs a hand" in change


def test_the_customers_page_says_an_engineer_prepares_it_by_hand_never_ready(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    proposal = size(submission)
    waiting = customer_page(submission)
    # While the proposal is being written the page waits for it, and refreshes itself.
    assert "First estimate ready; we are writing your proposal" in waiting
    assert "data-status-refresh=" in waiting

    render(proposal, django_capture_on_commit_callbacks)
    page = customer_page(submission)
    assert "An engineer is preparing your proposal by hand" in page
    assert f"We will email it to {submission.contact_email}." in page
    assert "ready" not in page.split('id="status-title"')[1].split("</section>")[0]
    # The figures that failed the check are not shown as an estimate, and the page stops waiting.
    assert "Our first estimate" not in page
    assert "data-status-refresh=" not in page
    # The status is a polite live region, so the change is announced.
    assert '<div role="status" aria-live="polite" data-status-line>' in page


def test_the_engineer_retries_once_the_cause_is_fixed_and_the_first_estimate_returns(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    render(size(submission), django_capture_on_commit_callbacks)
    assert "preparing your proposal by hand" in customer_page(submission)

    failing_check.fix()
    with django_capture_on_commit_callbacks(execute=True):
        assert pipeline_actions.retry_failed(submission=submission, user=staff["erin"])
    proposal = Proposal.objects.get(submission=submission, version=1)
    assert proposal.status == Proposal.Status.PENDING
    render(proposal, django_capture_on_commit_callbacks)

    assert Proposal.objects.get(pk=proposal.pk).status == Proposal.Status.DONE
    assert Submission.objects.get(pk=submission.pk).pipeline_status == "ready"
    assert not needing_a_hand(Submission.objects.filter(pk=submission.pk)).exists()
    page = customer_page(submission)
    assert "First estimate ready; an engineer checks it" in page
    assert "by hand" not in page


def test_the_engineer_overrides_and_reruns_from_the_failed_state(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    render(size(submission), django_capture_on_commit_callbacks)
    assert needing_a_hand(Submission.objects.filter(pk=submission.pk)).exists()

    failing_check.fix()
    with django_capture_on_commit_callbacks(execute=True):
        second = pipeline_actions.rerun_with_overrides(
            submission=submission,
            overrides={"hardware.accelerator": "h100-sxm"},
            user=staff["erin"],
            reason="the proposal failed its check",
        )
    assert second.version == 2
    services.run_sizing(recommendation_id=second.pk)
    render(Proposal.objects.get(recommendation=second), django_capture_on_commit_callbacks)

    second.refresh_from_db()
    assert second.status == Recommendation.Status.DONE
    assert Proposal.objects.get(recommendation=second).status == Proposal.Status.DONE
    submission.refresh_from_db()
    assert (submission.pipeline_status, submission.status) == ("ready", "in_review")
    assert not needing_a_hand(Submission.objects.filter(pk=submission.pk)).exists()
    assert OutgoingEmail.objects.filter(
        submission=submission, kind=OutgoingEmail.Kind.NEEDS_REVIEW, version=2
    ).exists()
    # Version 1 still cannot reach the customer: their page says so until one is approved.
    assert "preparing your proposal by hand" in customer_page(submission)
    approve_version(submission=submission, recommendation=second, user=staff["erin"])
    page = customer_page(submission)
    assert "by hand" not in page and "Your estimate, checked by our engineer" in page


def test_a_what_if_rerun_failing_beside_a_good_first_estimate_does_not_say_the_customer_waits(
    staff, failing_check, published, django_capture_on_commit_callbacks
):
    submission = make_submission()
    first = size(submission)
    failing_check.fix()
    render(first, django_capture_on_commit_callbacks)
    failing_check.findings = [Finding("plural", "page 4", FOUND)]
    second = services.schedule_sizing(submission=submission, overrides={})
    services.run_sizing(recommendation_id=second.pk)
    render(Proposal.objects.get(recommendation=second), django_capture_on_commit_callbacks)

    email = failure_email(submission)
    assert email.version == 2 and FOUND in email.body
    assert "preparing their proposal by hand" not in email.body
    assert "First estimate ready; an engineer checks it" in customer_page(submission)
