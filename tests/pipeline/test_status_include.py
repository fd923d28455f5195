"""The status include on the customer's confirmation page (the pipeline's ``sizing_summary``
tag): status, then a short summary."""

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone
from django.utils.html import escape

from pipeline import services
from pipeline.models import Proposal
from reports.demo import demo_answers
from sizing.engine.numbers import format_days, format_days_range
from sizing.engine.numbers import format_number as number
from sizing.words.estimate import first_estimate
from tests.reports.factories import make_submission

pytestmark = pytest.mark.django_db


def render(submission) -> str:
    request = RequestFactory().get("/q/x/confirmation/")
    return render_to_string(
        "questionnaire/_submission_status.html", {"submission": submission}, request=request
    )


def test_while_pending_it_shows_the_status_and_a_link_to_check_again(published):
    submission = make_submission()
    services.schedule_sizing(submission=submission)
    html = render(submission)
    assert "Waiting for sizing" in html
    assert 'href="/q/x/confirmation/"' in html
    assert "Our first estimate" not in html
    assert "<script" not in html


def sized_submission(answers=None):
    """A submission with its sizing done, and the Recommendation it produced."""
    submission = make_submission(answers=answers)
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    submission.refresh_from_db()
    return submission, recommendation


def test_once_sized_it_shows_the_headline_figures(published):
    submission, recommendation = sized_submission()
    html = render(submission)
    cluster = recommendation.result["cluster"]
    assert "Our first estimate" in html
    assert f"{number(cluster['gpus'])} × {cluster['accelerator_name']}" in html
    assert f"about {number(recommendation.result['timeline']['wall_clock_days'])} days" in html


def test_the_days_carry_their_range_and_the_published_runs_behind_it(published):
    submission, recommendation = sized_submission()
    html = render(submission)
    result = recommendation.result
    days = result["timeline"]["wall_clock_days"]
    days_range = format_days_range(*result["timeline"]["wall_clock_days_range"])
    runs = result["confidence"]["published_runs"]
    assert f"about {format_days(days)} (likely {days_range})" in html
    assert f"backed by {runs} published runs of similar scale" in html


def test_the_confirmation_shows_the_review_pages_figures_for_two_runs_at_once(published):
    # the reader's bank: the review page said "96 × H100", the confirmation "192 × H100 … 24
    # servers" (2 jobs at once, 2 spare servers) and a cost the review page never showed
    answers = demo_answers("sovereign-eu")
    submission, _ = sized_submission(answers)
    html = render(submission)
    shown = first_estimate(answers)
    assert shown is not None
    figures = shown.figures
    assert "each run uses 32 accelerators in 4 servers, 2 runs at once" in figures.plan
    for said in (figures.plan, figures.days, figures.days_range, figures.cost, figures.cost_range):
        assert said and escape(said) in html


def test_a_run_of_hours_is_said_in_hours_as_on_the_review_page_and_in_the_proposal(published):
    # not "about 0.0555 days (0.022–0.14 days)"
    submission, recommendation = sized_submission(demo_answers("lora-one-node"))
    html = render(submission)
    days = recommendation.result["timeline"]["wall_clock_days"]
    assert days < 1
    assert f"about {format_days(days)} (likely " in html
    assert "hours" in format_days(days)
    assert f"about {number(days)} days" not in html


def test_a_failed_pipeline_is_explained_without_the_error(monkeypatch):
    submission = make_submission(pipeline_status="failed", pipeline_error="Traceback: secret")
    html = render(submission)
    assert "An engineer is preparing your proposal by hand" in html
    assert "secret" not in html


def proposal_written(recommendation) -> None:
    """Version 1's proposal is rendered (marked so: the page reads only its status)."""
    Proposal.objects.filter(recommendation=recommendation).update(status=Proposal.Status.DONE)


# --- the approval gate ---------------------------------------------------------------------------


def rerun_done(submission, accelerator: str):
    """A finished what-if version (sized in-process, no proposal needed for the page)."""
    recommendation = services.schedule_sizing(
        submission=submission, overrides={"hardware": {"accelerator": accelerator}}
    )
    services.run_sizing(recommendation_id=recommendation.pk)
    recommendation.refresh_from_db()
    submission.refresh_from_db()
    return recommendation


def test_the_first_estimate_is_marked_preliminary(published):
    submission, first = sized_submission()
    proposal_written(first)
    html = render(submission)
    assert "First estimate ready; an engineer checks it" in html
    assert "Preliminary" in html


def test_an_unapproved_rerun_never_shows_and_an_approved_one_replaces_the_estimate(published):
    submission, first = sized_submission()
    second = rerun_done(submission, "mi300x")
    assert (
        first.result["cluster"]["accelerator_name"] != second.result["cluster"]["accelerator_name"]
    )
    html = render(submission)
    assert first.result["cluster"]["accelerator_name"] in html
    assert second.result["cluster"]["accelerator_name"] not in html
    assert "Preliminary" in html

    second.approved_at = timezone.now()
    second.save()
    html = render(submission)
    figures = html[html.index("sizing-summary") :]  # the old one is named only in what changed
    assert second.result["cluster"]["accelerator_name"] in figures
    assert first.result["cluster"]["accelerator_name"] not in figures
    assert "Preliminary" not in html and "checked by our engineer" in html


def test_a_failed_what_if_rerun_is_not_the_customers_problem(published):
    submission, first = sized_submission()
    proposal_written(first)
    services.schedule_sizing(submission=submission)
    submission.refresh_from_db()
    submission.pipeline_status = "failed"
    submission.pipeline_error = "Traceback: secret"
    submission.save()
    html = render(submission)
    assert "by hand" not in html and "Check again" not in html
    assert first.result["cluster"]["accelerator_name"] in html


def test_an_approved_version_says_who_checked_it_when_and_what_changed(published):
    """Issue 28: after approval the status page said the estimate "is preliminary" and never
    who checked it; the cost moved with no explanation."""
    from tests.staff.factories import make_user

    submission, first = sized_submission()
    second = rerun_done(submission, "mi300x")
    erin = make_user("Engineers", first_name="Erin", last_name="Engineer")
    second.approved_at, second.approved_by = timezone.now(), erin
    second.save()
    html = " ".join(render(submission).split())
    today = timezone.localdate()
    assert f"Checked by our engineer Erin Engineer on {today.day} {today:%B %Y}." in html
    assert "because our engineer changed the accelerator from" in html
    assert escape(second.result["cluster"]["accelerator_name"]) in html

    request = RequestFactory().get("/q/x/confirmation/")
    page = render_to_string(
        "questionnaire/confirmation.html", {"submission": submission}, request=request
    )
    assert "preliminary" not in page.lower()
    assert "Checked by our engineer Erin Engineer" in page
