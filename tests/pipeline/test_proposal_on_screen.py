"""The confirmation page's charts of the estimate the customer may see, and the link to the
proposal on screen once its PDF passed the checker (issue 28, "On screen too")."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from pipeline import services
from pipeline.models import Proposal
from questionnaire.services import start_draft
from tests.reports.factories import make_submission

pytestmark = pytest.mark.django_db


def render(submission) -> str:
    request = RequestFactory().get("/q/x/confirmation/")
    return render_to_string(
        "questionnaire/confirmation.html", {"submission": submission}, request=request
    )


def chart_titles(html: str) -> list[str]:
    return re.findall(r'<svg [^>]*role="img" aria-label="([^"]+)"', html)


def test_the_confirmation_page_shows_the_first_estimates_timeline_and_cost_charts(published):
    submission = make_submission(draft=start_draft())
    assert chart_titles(render(submission)) == []  # nothing sized yet
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    submission.refresh_from_db()
    html = render(submission)
    assert chart_titles(html) == [
        "Wall-clock days against number of accelerators",
        "Total of each option over the horizon, with its likely range",
    ]
    assert "/proposals/yours/" not in html  # no proposal on screen before its PDF is checked
    Proposal.objects.filter(recommendation=recommendation).update(status=Proposal.Status.DONE)
    assert f'href="/proposals/yours/{submission.draft_id}/"' in render(submission)


def test_the_page_works_out_the_version_it_shows_once_per_request(published, monkeypatch):
    """Issue 29: its status, its figures (twice) and its proposal on screen each asked for the
    version the customer may see, five times and twelve queries a page; a request remembers
    it, and the next request (the page refreshing itself) works it out afresh."""
    from pipeline import versions

    asked = []
    real = versions.customer_version

    def counted(submission):
        asked.append(submission.pk)
        return real(submission)

    monkeypatch.setattr(versions, "customer_version", counted)
    submission = make_submission(draft=start_draft())
    recommendation = services.schedule_sizing(submission=submission)
    services.run_sizing(recommendation_id=recommendation.pk)
    submission.refresh_from_db()
    before = render(submission)
    assert asked == [submission.pk]
    Proposal.objects.filter(recommendation=recommendation).update(status=Proposal.Status.DONE)
    after = render(submission)  # a new request: the finished proposal shows
    assert asked == [submission.pk, submission.pk]
    assert "/proposals/yours/" not in before
    assert "/proposals/yours/" in after
