"""The staff overview, list filters and search, and the shorter staff session."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from pipeline.models import SubmissionFacts
from questionnaire.models import Submission
from staff.overview import build_overview
from tests.staff.factories import (
    PASSWORD,
    make_ready_submission,
    make_submission,
    make_user,
    sign_in,
)

pytestmark = pytest.mark.django_db


def test_the_overview_counts_statuses_and_lists_this_week_and_failures(account_manager):
    make_submission()
    make_submission(status="in_review")
    failed = make_submission(pipeline_status="failed", pipeline_error="render timed out")
    old = make_submission()
    Submission.objects.filter(pk=old.pk).update(submitted_at=timezone.now() - timedelta(days=30))

    overview = build_overview()
    by_workflow = {row.value: row.count for row in overview.by_workflow}
    assert by_workflow["new"] == 3 and by_workflow["in_review"] == 1 and by_workflow["won"] == 0
    assert {row.value: row.count for row in overview.by_pipeline}["failed"] == 1
    assert old not in overview.this_week and failed in overview.this_week
    assert overview.failures == [failed]

    client = Client()
    sign_in(client, account_manager)
    page = client.get("/staff/overview/").content.decode()
    assert failed.reference in page and "render timed out" in page
    assert "Staff overview" in client.get("/admin/").content.decode()


def test_list_filters_and_search_use_what_the_customer_said(engineer):
    submission, _, _ = make_ready_submission()
    client = Client()
    sign_in(client, engineer)
    listing = "/admin/questionnaire/submission/"
    page = client.get(listing).content.decode()
    assert "Llama 3.1 8B" in page and "LoRA" in page
    assert "16 × NVIDIA A100 SXM4 80GB" in page
    assert submission.reference in client.get(listing, {"method": "lora"}).content.decode()
    assert submission.reference not in client.get(listing, {"method": "pretrain"}).content.decode()
    assert submission.reference in client.get(listing, {"architecture": "dense"}).content.decode()
    assert submission.reference in client.get(listing, {"size": "1-10b"}).content.decode()
    assert submission.reference not in client.get(listing, {"size": "100b+"}).content.decode()
    assert submission.reference in client.get(listing, {"q": "llama 3.1"}).content.decode()
    assert (
        submission.reference
        in client.get(listing, {"q": submission.contact_email}).content.decode()
    )
    assert submission.reference not in client.get(listing, {"q": "mixtral"}).content.decode()
    assert submission.reference in client.get(listing, {"q": "A100"}).content.decode()
    assert submission.reference not in client.get(listing, {"q": "H100"}).content.decode()


def test_a_fact_filter_asks_the_database_and_reads_no_answers(engineer):
    """Issue 31: each filter read every submission's answers in Python (17 s at 10,000)."""
    for _ in range(5):
        make_ready_submission()
    undecided = make_submission(answers={})  # nothing said: "not sure" in every filter
    client = Client()
    sign_in(client, engineer)
    listing = "/admin/questionnaire/submission/"
    with CaptureQueriesContext(connection) as queries:
        page = client.get(listing, {"method": "lora"}).content.decode()
    chosen_by_the_database = """"pipeline_submissionfacts"."method" = 'lora'"""
    unfiltered = [
        q["sql"]
        for q in queries
        if '"answers"' in q["sql"] and chosen_by_the_database not in q["sql"]
    ]
    assert unfiltered == []  # answers are read only for the rows the database chose
    assert undecided.reference not in page
    not_sure = client.get(listing, {"method": "not_sure"}).content.decode()
    assert undecided.reference in not_sure


def test_what_the_customer_said_follows_their_answers():
    submission = make_submission()
    stored = SubmissionFacts.objects.get(submission=submission)
    assert (stored.method, stored.architecture) == ("lora", "dense")
    assert stored.model_name == "Llama 3.1 8B" and 7e9 < stored.total_params < 9e9
    submission.answers = {}
    submission.save(update_fields=["answers"])
    stored.refresh_from_db()
    assert (stored.method, stored.model_name, stored.total_params) == ("", "", None)


def test_staff_sessions_are_shorter_than_customers():
    user = make_user("Engineers")
    client = Client()
    response = client.post(
        "/admin/login/", {"username": user.username, "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    assert client.session.get_expiry_age() == settings.STAFF_SESSION_AGE_SECONDS
    assert settings.STAFF_SESSION_AGE_SECONDS < settings.SESSION_COOKIE_AGE


def test_repeated_bad_staff_passwords_lock_the_login(settings):
    user = make_user("Engineers")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": user.username, "password": "wrong"})
    response = client.post("/admin/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code in (403, 429)
    assert "_auth_user_id" not in client.session
