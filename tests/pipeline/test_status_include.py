"""The status include on the customer's confirmation page (the pipeline's ``sizing_summary``
tag): status, then a short summary."""

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from pipeline import services
from sizing.engine.numbers import format_number as number
from sizing.engine.numbers import format_range
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


def sized_submission():
    """A submission with its sizing done, and the Recommendation it produced."""
    submission = make_submission()
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
    days_range = format_range(*result["timeline"]["wall_clock_days_range"], "days")
    runs = result["confidence"]["published_runs"]
    assert f"about {number(days)} days ({days_range})" in html
    assert f"backed by {runs} published runs of similar scale" in html


def test_a_failed_pipeline_is_explained_without_the_error(monkeypatch):
    submission = make_submission(pipeline_status="failed", pipeline_error="Traceback: secret")
    html = render(submission)
    assert "Our engineers have been told" in html
    assert "secret" not in html
