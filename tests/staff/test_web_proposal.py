"""The proposal on screen (issue 28, "On screen too"): the customer's own page and the share link
show the PDF's body and charts in the site's layout, to that customer's browser or staff only."""

import re
import uuid
from urllib.parse import urlsplit

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pipeline.models import Proposal
from pipeline.services import proposal_data
from questionnaire import access
from questionnaire.services import start_draft
from reports.document import proposal_context
from staff import sharing
from tests.staff.factories import (
    access_cookie,
    make_proposal,
    make_recommendation,
    make_submission,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db


def ready_submission(**fields):
    """A submitted questionnaire (with its draft) whose first version is sized and rendered."""
    draft = start_draft()
    submission = make_submission(draft=draft, **fields)
    recommendation = make_recommendation(submission, **sized_fields())
    return submission, recommendation, make_proposal(recommendation)


def customer_browser(submission) -> Client:
    """A browser holding the questionnaire, as after its private link (``questionnaire.access``)."""
    client = Client()
    client.cookies[access.COOKIE_NAME] = access_cookie(submission.draft)
    return client


def web_url(submission) -> str:
    return reverse("proposals:customer_web", args=[submission.draft_id])


def body_of(recommendation) -> str:
    """The proposal's body as the worker renders it into the PDF (``reports/proposal.html``
    includes it), from the stored version as it reads back from the database."""
    recommendation.refresh_from_db()
    return render_to_string(
        "reports/_proposal_body.html", proposal_context(proposal_data(recommendation))
    )


def first_difference(shown: str, expected: str) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(shown, expected, strict=False)) if a != b), len(expected)
    )
    return f"differs at {at}: {shown[at - 200 : at + 100]!r} != {expected[at - 200 : at + 100]!r}"


def assert_site_page_with_the_proposal(response, recommendation) -> str:
    assert response.status_code == 200
    page = response.content.decode()
    # the PDF's own body, word for word, inside the site's layout
    body = body_of(recommendation)
    assert body in page, first_difference(page[page.index('<section class="cover"') :], body)
    assert 'class="site-header' in page and '<main id="main-content"' in page
    # charts inline, as the PDF draws them: SVG with a title, not images to fetch
    assert len(re.findall(r'<svg [^>]*role="img"[^>]*>\s*<title>', page)) >= 3
    assert "<img" not in page
    # the site's policy: no inline script and no style attribute anywhere
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", page))
    assert " style=" not in page
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    return page


def test_the_customers_browser_sees_its_proposal_on_screen_marked_preliminary():
    submission, recommendation, _ = ready_submission()
    response = customer_browser(submission).get(web_url(submission))
    page = assert_site_page_with_the_proposal(response, recommendation)
    assert "Preliminary" in page and submission.reference in page


def test_an_approved_version_is_shown_as_checked_not_preliminary(engineer):
    submission, recommendation, _ = ready_submission()
    recommendation.approved_at = timezone.now()
    recommendation.approved_by = engineer
    recommendation.save()
    page = customer_browser(submission).get(web_url(submission)).content.decode()
    assert "checked by our engineer" in page and "Preliminary" not in page


def test_another_customers_browser_or_a_wrong_address_gets_404_and_no_data():
    submission, _, _ = ready_submission(company="Secret Customer Ltd")
    other, _, _ = ready_submission(company="Other Customer Ltd")
    wrong_browser = customer_browser(other)
    for client, url in (
        (wrong_browser, web_url(submission)),  # another customer's questionnaire
        (Client(), web_url(submission)),  # a browser without the private link
        (customer_browser(submission), f"/proposals/yours/{uuid.uuid4()}/"),  # no such one
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert "Secret Customer" not in response.content.decode()
    assert "Other Customer Ltd" in wrong_browser.get(web_url(other)).content.decode()


def test_nothing_is_shown_before_the_proposal_passed_its_check():
    submission, recommendation, proposal = ready_submission()
    for status in (Proposal.Status.RENDERING, Proposal.Status.FAILED):
        Proposal.objects.filter(pk=proposal.pk).update(status=status)
        assert customer_browser(submission).get(web_url(submission)).status_code == 404


def test_staff_who_may_download_it_see_the_customers_page(engineer):
    submission, recommendation, _ = ready_submission()
    client = Client()
    sign_in(client, engineer)
    assert_site_page_with_the_proposal(client.get(web_url(submission)), recommendation)


def test_the_page_is_laid_out_without_weasyprint(monkeypatch):
    # No URL on the page can reach the PDF fetcher (reports.fetcher): nothing is laid out.
    def refuse(*args, **kwargs):
        raise AssertionError("WeasyPrint was called by a web request")

    monkeypatch.setattr("reports.document.HTML", refuse)
    submission, _, _ = ready_submission(company="https://canary.invalid/x.css")
    response = customer_browser(submission).get(web_url(submission))
    assert response.status_code == 200


def test_the_share_link_shows_the_note_the_pdf_link_and_the_proposal(engineer):
    submission, recommendation, proposal = ready_submission()
    link = sharing.create_share_link(proposal=proposal, user=engineer, note="As promised.")
    path = urlsplit(sharing.share_url(link)).path
    response = Client().get(path)
    page = assert_site_page_with_the_proposal(response, recommendation)
    assert "As promised." in page and f'href="{path}proposal.pdf"' in page
    assert response["Referrer-Policy"] == "no-referrer"
    link.refresh_from_db()
    assert link.first_viewed_at is not None


def test_a_wrong_or_revoked_share_token_gets_404(engineer):
    submission, _, proposal = ready_submission(company="Secret Customer Ltd")
    link = sharing.create_share_link(proposal=proposal, user=engineer)
    path = urlsplit(sharing.share_url(link)).path
    wrong = Client().get(path.rstrip("/") + "x/")
    assert wrong.status_code == 404 and "Secret Customer" not in wrong.content.decode()
    sharing.revoke_share_link(link=link, user=engineer)
    assert Client().get(path).status_code == 404


def test_the_status_page_links_to_the_proposal_on_screen_once_it_is_ready():
    submission, recommendation, proposal = ready_submission()
    client = customer_browser(submission)
    confirmation = reverse("questionnaire:confirmation", args=[submission.draft_id])
    page = client.get(confirmation).content.decode()
    assert f'href="{web_url(submission)}"' in page
    Proposal.objects.filter(pk=proposal.pk).update(status=Proposal.Status.RENDERING)
    assert f'href="{web_url(submission)}"' not in client.get(confirmation).content.decode()


def test_a_version_that_cannot_be_laid_out_again_still_leads_to_its_pdf(engineer):
    # an old stored result this code cannot read: the share page still offers the checked PDF
    submission, _, proposal = ready_submission()
    proposal.recommendation.result = {"cluster": {"gpus": 16}}
    proposal.recommendation.save()
    link = sharing.create_share_link(proposal=proposal, user=engineer)
    path = urlsplit(sharing.share_url(link)).path
    response = Client().get(path)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'href="{path}proposal.pdf"' in page and "cannot be shown on this page" in page
