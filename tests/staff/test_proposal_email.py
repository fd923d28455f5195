"""The proposal email after approval: who checked it and when, what changed from the first
estimate, the headline figures, and links at the site's configured address (issue 28)."""

import re

import pytest
from django.core import mail

from pipeline.models import OutgoingEmail
from sizing.public import figures_of, read_result
from staff import sending, workflow
from tests.staff.factories import (
    make_proposal,
    make_recommendation,
    make_submission,
    make_user,
    sized_fields,
)

pytestmark = pytest.mark.django_db


def test_the_proposal_email_says_who_checked_it_what_changed_and_the_headline_figures(
    settings, published, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://sizing.example.com"
    erin = make_user("Engineers", first_name="Erin", last_name="Engineer")
    bob = make_user("Account managers", first_name="Bob", last_name="Tester")
    submission = make_submission(pipeline_status="ready", contact_email="dana@insurer.example")
    make_proposal(make_recommendation(submission, **sized_fields()))
    second = make_recommendation(submission, **sized_fields("a100-80gb"))
    make_proposal(second)
    workflow.approve_version(submission=submission, recommendation=second, user=erin)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sending.send_proposal(submission=submission, recommendation=second, user=bob, note="")
    [email] = [m for m in mail.outbox if m.to == ["dana@insurer.example"]]
    body = " ".join(email.body.split())

    assert "Checked by our engineer Erin Engineer on" in body
    assert "because our engineer changed the accelerator from NVIDIA H100 SXM5 80GB to" in body
    figures = figures_of(read_result(second.result))
    assert figures.plan in body
    assert f"Time for one training run: {figures.days} (likely {figures.days_range})" in body
    assert f"Cost: {figures.cost}, likely {figures.cost_range}" in body
    urls = re.findall(r"https?://\S+", email.body)
    assert urls and all(url.startswith("https://sizing.example.com/") for url in urls)
    assert OutgoingEmail.objects.get(kind="proposal").body == email.body
