"""Who may open which staff page: anonymous, account manager, engineer, superuser.

Every GET is made by role and compared with the expected outcome; every state-changing
POST goes through ``Client(enforce_csrf_checks=True)`` with a real token, and fails with 403
without one. Guessed ids and traversal paths never reach a file. (ASVS 8.2.1, 8.2.2, 3.5.1.)
"""

import logging
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from pipeline.models import OutgoingEmail, Proposal, Recommendation
from staff.models import AuditEvent, Note, ShareLink
from tests.staff.factories import (
    make_email,
    make_proposal,
    make_ready_submission,
    make_recommendation,
    make_user,
    sign_in,
)

pytestmark = pytest.mark.django_db
User = get_user_model()

ROLES = ["anonymous", "Account managers", "Engineers", "superuser", "staff without role"]
OK, LOGIN, DENIED, MISSING = 200, "login", 403, 404


@pytest.fixture
def ready():
    """v1 approved and sent (a link), v2 finished and waiting for review, a failed email."""
    submission, recommendation, proposal = make_ready_submission(status="proposal_sent")
    recommendation.approved_at = timezone.now()
    recommendation.save()
    make_proposal(make_recommendation(submission))
    ShareLink.objects.create(proposal=proposal, expires_at=timezone.now() + timedelta(days=7))
    make_email(submission, key="received", status="failed")
    make_user("Account managers", username="colleague", first_name="Cleo", last_name="Colleague")
    return submission


def client_for(role: str, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    if role != "anonymous":
        sign_in(client, make_user(None if role == "staff without role" else role))
    return client


def outcome(response) -> int | str:
    if response.status_code == 302 and "/admin/login/" in response["Location"]:
        return LOGIN
    return response.status_code


def staff_urls(s) -> dict[str, str]:
    return {
        "admin index": "/admin/",
        "submission list": "/admin/questionnaire/submission/",
        "submission change": f"/admin/questionnaire/submission/{s.pk}/change/",
        "submission history": f"/admin/questionnaire/submission/{s.pk}/history/",
        "override form": f"/admin/questionnaire/submission/{s.pk}/override/",
        "submission delete": f"/admin/questionnaire/submission/{s.pk}/delete/",
        "submission add": "/admin/questionnaire/submission/add/",
        "recommendations": "/admin/pipeline/recommendation/",
        "proposals": "/admin/pipeline/proposal/",
        "audit events": "/admin/staff/auditevent/",
        "downloads log": "/admin/staff/proposaldownload/",
        "emails": "/admin/pipeline/outgoingemail/",
        "overview": "/staff/overview/",
        "download": f"/proposals/{s.public_id}/v1.pdf",
        "download unapproved": f"/proposals/{s.public_id}/v2.pdf",
    }


# Expected outcome per URL for: anonymous, account manager, engineer, superuser, bare staff.
EXPECTED = {
    "admin index": (LOGIN, OK, OK, OK, OK),
    "submission list": (LOGIN, OK, OK, OK, DENIED),
    "submission change": (LOGIN, OK, OK, OK, DENIED),
    "submission history": (LOGIN, OK, OK, OK, DENIED),
    "override form": (LOGIN, DENIED, OK, OK, DENIED),
    "submission delete": (LOGIN, DENIED, DENIED, OK, DENIED),
    "submission add": (LOGIN, DENIED, DENIED, DENIED, DENIED),
    "recommendations": (LOGIN, OK, OK, OK, DENIED),
    "proposals": (LOGIN, OK, OK, OK, DENIED),
    "audit events": (LOGIN, OK, OK, OK, DENIED),
    "downloads log": (LOGIN, OK, OK, OK, DENIED),
    "emails": (LOGIN, OK, OK, OK, DENIED),
    "overview": (LOGIN, OK, OK, OK, DENIED),
    "download": (LOGIN, OK, OK, OK, DENIED),
    "download unapproved": (LOGIN, DENIED, OK, OK, DENIED),
}


@pytest.mark.parametrize("name", list(EXPECTED))
@pytest.mark.parametrize("role", ROLES)
def test_every_staff_page_answers_each_role_as_expected(ready, role, name):
    response = client_for(role).get(staff_urls(ready)[name])
    assert outcome(response) == EXPECTED[name][ROLES.index(role)]


def test_every_custom_submission_url_is_in_the_matrix():
    """A new staff view on submissions must be added to the matrix (deny by default)."""
    from django.contrib import admin

    from questionnaire.models import Submission

    model_admin = admin.site._registry[Submission]
    standard = {"changelist", "add", "history", "delete", "change"}
    custom = {
        p.name.removeprefix("questionnaire_submission_")
        for p in model_admin.get_urls()
        if p.name and p.name.removeprefix("questionnaire_submission_") not in standard
    }
    covered = {
        "override",
        "note",
        "pipeline",
        "approve",
        "send",
        "outcome",
        "revoke",
        "retry_email",
    }
    assert custom == covered


@pytest.mark.parametrize(
    "path",
    [
        "/proposals/../../etc/passwd",
        "/proposals/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/proposals/..%252f..%252fetc%252fpasswd",
        "/proposals/{public_id}/v1.pdf/../../../../etc/passwd",
        "/proposals/{public_id}/v..%2fv1.pdf",
        "/proposals/{other}/v1.pdf",
        "/proposals/{public_id}/v3.pdf",
        "/proposals/1/v1.pdf",
        "/proposals/shared/../../etc/passwd/",
        "/proposals/shared/{public_id}/",
        "/media/proposals/{public_id}/v1-proposal.pdf",
        "/static/../var/private/proposals/{public_id}/v1-proposal.pdf",
    ],
)
def test_guessed_ids_and_traversal_never_serve_a_file(ready, path):
    client = client_for("Engineers")
    url = path.format(public_id=ready.public_id, other=uuid.uuid4())
    response = client.get(url)
    assert response.status_code == 404
    assert response.get("Content-Type", "") != "application/pdf"


def test_an_engineer_guessing_another_submission_id_gets_404_not_a_page(ready):
    client = client_for("Engineers")
    assert (
        client.get(f"/admin/questionnaire/submission/{ready.pk + 999}/override/").status_code == 404
    )
    missing = client.post(
        f"/admin/questionnaire/submission/{ready.pk + 999}/note/", {"text": "hello"}
    )
    assert missing.status_code == 404
    assert not Note.objects.exists()


def test_a_refused_download_looks_the_same_whether_or_not_the_proposal_exists(ready):
    client = client_for("Account managers")
    unapproved = client.get(f"/proposals/{ready.public_id}/v2.pdf")
    missing = client.get(f"/proposals/{ready.public_id}/v3.pdf")
    guessed = client.get(f"/proposals/{uuid.uuid4()}/v1.pdf")
    assert unapproved.status_code == missing.status_code == guessed.status_code == 403
    assert unapproved.content == missing.content == guessed.content


# --- POSTs with CSRF enforced -----------------------------------------------------------------


def csrf_token(client: Client, page: str) -> str:
    response = client.get(page)
    assert response.status_code == 200, page
    return client.cookies["csrftoken"].value


def post_actions(s) -> dict[str, tuple[str, dict]]:
    base = f"/admin/questionnaire/submission/{s.pk}"
    return {
        "note": (f"{base}/note/", {"text": "Called the customer."}),
        "rerun": (f"{base}/pipeline/rerun/", {}),
        "regenerate": (f"{base}/pipeline/regenerate/", {}),
        "retry": (f"{base}/pipeline/retry/", {}),
        "approve": (f"{base}/approve/2/", {"confirmed": "yes"}),
        "send": (f"{base}/send/1/", {"note": "Here it is."}),
        "outcome": (f"{base}/outcome/close/", {}),
        "revoke": (f"{base}/share-links/{ShareLink.objects.get().pk}/revoke/", {}),
        "retry_email": (f"{base}/emails/{OutgoingEmail.objects.get().pk}/retry/", {}),
        "override": (f"{base}/override/", {"hardware.accelerator": "h100-sxm"}),
        "assign": (
            f"{base}/change/",
            {
                "assignee": str(User.objects.get(username="colleague").pk),
                **{
                    f"{prefix}-{key}": value
                    for prefix in ("recommendations", "proposals", "notes", "audit_events")
                    for key, value in (("TOTAL_FORMS", "0"), ("INITIAL_FORMS", "0"))
                },
            },
        ),
    }


# Who may do what (anonymous: login redirect; others 302 back on success, 403 refused).
POST_EXPECTED = {
    "note": ("Account managers", "Engineers", "superuser"),
    "rerun": ("Engineers", "superuser"),
    "regenerate": ("Engineers", "superuser"),
    "retry": ("Engineers", "superuser"),
    "approve": ("Engineers", "superuser"),
    "send": ("Account managers", "Engineers", "superuser"),
    "outcome": ("Account managers", "superuser"),
    "revoke": ("Account managers", "Engineers", "superuser"),
    "retry_email": ("Account managers", "Engineers", "superuser"),
    "override": ("Engineers", "superuser"),
    "assign": ("Account managers", "superuser"),
}


@pytest.mark.parametrize("action", list(POST_EXPECTED))
@pytest.mark.parametrize("role", ROLES)
def test_state_changes_need_the_role_and_a_csrf_token(
    ready, role, action, django_capture_on_commit_callbacks
):
    client = client_for(role, csrf=True)
    url, data = post_actions(ready)[action]
    if role == "anonymous":
        assert client.post(url, data).status_code == 403  # no token: CSRF refuses first
        token = csrf_token(client, "/admin/login/")
        assert outcome(client.post(url, {**data, "csrfmiddlewaretoken": token})) == LOGIN
        assert not AuditEvent.objects.exists()
        return
    token = csrf_token(client, "/admin/")
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(url, {**data, "csrfmiddlewaretoken": token})
    if role in POST_EXPECTED[action]:
        assert response.status_code == 302, response.content[:500]
        if action != "retry":  # nothing has failed here, so a retry has nothing to record
            assert AuditEvent.objects.filter(submission=ready).exists()
    else:
        assert response.status_code in (403, 404)
        assert not AuditEvent.objects.filter(submission=ready).exists()


@pytest.mark.parametrize("action", list(POST_EXPECTED))
def test_a_post_without_a_csrf_token_is_refused_and_logged(ready, action, caplog):
    client = client_for("superuser", csrf=True)
    client.get("/admin/")
    url, data = post_actions(ready)[action]
    with caplog.at_level(logging.WARNING, logger="django.security.csrf"):
        response = client.post(url, data)
    assert response.status_code == 403
    assert any(r.name == "django.security.csrf" for r in caplog.records)
    assert not AuditEvent.objects.exists()
    assert Recommendation.objects.count() == 2
    assert ShareLink.objects.filter(revoked_at__isnull=True).count() == 1
    assert OutgoingEmail.objects.get().status == "failed"


def test_a_token_from_another_session_is_refused(ready, caplog):
    other = client_for("superuser", csrf=True)
    stolen = csrf_token(other, "/admin/")
    client = client_for("superuser", csrf=True)
    client.get("/admin/")
    url, data = post_actions(ready)["note"]
    with caplog.at_level(logging.WARNING, logger="django.security.csrf"):
        response = client.post(url, {**data, "csrfmiddlewaretoken": stolen})
    assert response.status_code == 403
    assert any(r.name == "django.security.csrf" for r in caplog.records)


@pytest.mark.parametrize("action", ["note", "rerun", "send", "outcome", "retry_email"])
def test_state_changing_staff_views_refuse_get(ready, action):
    client = client_for("superuser")
    url, _ = post_actions(ready)[action]
    assert client.get(url).status_code == 405
    assert not AuditEvent.objects.exists()
    assert Proposal.objects.count() == 2


def test_approving_on_get_only_asks_for_confirmation(ready):
    client = client_for("superuser")
    url, _ = post_actions(ready)["approve"]
    response = client.get(url)
    assert response.status_code == 200
    assert "The customer sees this at once." in response.content.decode()
    assert not AuditEvent.objects.exists()
    assert ready.recommendations.get(version=2).approved_at is None
