"""Approving asks for confirmation and says what the customer will see (issue 28: one click
changed the customer's page at once)."""

import pytest
from django.test import Client

from pipeline.models import Recommendation
from staff.models import AuditEvent
from tests.staff.factories import (
    make_proposal,
    make_recommendation,
    make_submission,
    make_user,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def rerun():
    """Version 1 as sized and version 2 on another accelerator, neither approved."""
    bob = make_user("Account managers", email="bob@example.com")
    submission = make_submission(pipeline_status="ready", assignee=bob)
    make_proposal(make_recommendation(submission, **sized_fields()))
    second = make_recommendation(submission, **sized_fields("a100-80gb"))
    make_proposal(second)
    return submission, second


def url(submission, version: int) -> str:
    return f"/admin/questionnaire/submission/{submission.pk}/approve/{version}/"


def client_for(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    sign_in(client, user)
    return client


def test_approving_first_shows_what_the_customer_will_see_and_who_is_emailed(rerun):
    submission, second = rerun
    erin = make_user("Engineers", first_name="Erin", last_name="Engineer")
    client = client_for(erin)
    change_page = client.get(
        f"/admin/questionnaire/submission/{submission.pk}/change/"
    ).content.decode()
    assert f'<form method="get" action="{url(submission, 2)}">' in change_page

    page = " ".join(client.get(url(submission, 2)).content.decode().split())
    assert "The customer sees this at once." in page
    assert "the first estimate (version 1), marked preliminary" in page
    assert "Checked by our engineer Erin Engineer on" in page
    assert "because our engineer changed the accelerator from NVIDIA H100 SXM5 80GB to" in page
    # the example answers keep their data in the EU: the figures are in euros
    assert "Time for one training run: about" in page and "Cost: about €" in page
    assert f"No email goes to the customer now: {submission.contact_email}" in page
    assert "bob@example.com" in page
    assert 'name="csrfmiddlewaretoken"' in page and 'name="confirmed" value="yes"' in page
    # looking is not approving
    second.refresh_from_db()
    assert second.approved_at is None
    assert not AuditEvent.objects.filter(action=AuditEvent.Action.APPROVED).exists()


def test_only_a_confirmed_post_with_its_token_approves(rerun):
    submission, second = rerun
    client = client_for(make_user("Engineers"))
    token = client.cookies["csrftoken"].value
    assert client.post(url(submission, 2), {"confirmed": "yes"}).status_code == 403  # no token
    unconfirmed = client.post(url(submission, 2), {"csrfmiddlewaretoken": token})
    assert unconfirmed.status_code == 200 and "The customer sees this at once." in (
        unconfirmed.content.decode()
    )
    assert Recommendation.objects.get(pk=second.pk).approved_at is None
    done = client.post(url(submission, 2), {"csrfmiddlewaretoken": token, "confirmed": "yes"})
    assert done.status_code == 302
    assert Recommendation.objects.get(pk=second.pk).approved_at is not None


def test_the_confirmation_page_is_for_engineers_only(rerun):
    submission, _ = rerun
    manager = client_for(make_user("Account managers"))
    assert manager.get(url(submission, 2)).status_code == 403
