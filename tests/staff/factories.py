"""Test data made straight through the ORM: users in roles, submissions, versions, PDFs."""

import copy
import importlib
import io
import itertools
import time
from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.files.base import ContentFile
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone
from django_otp.oath import hotp
from django_otp.plugins.otp_totp.models import TOTPDevice
from pypdf import PdfWriter

from pipeline.models import OutgoingEmail, Proposal, Recommendation
from questionnaire import access
from questionnaire.models import Submission
from questionnaire.questions import QUESTIONS
from sizing.adapters import size_answers
from staff.sign_in.devices import confirm_authenticator, pending_authenticator

PASSWORD = "a-long-test-password-9f3k"  # noqa: S105 (test users only)
_numbers = itertools.count(1)


@cache
def example_answers() -> dict:
    """Every question answered with the registry's own example, stored as the wizard stores it."""
    answers = {}
    for question in QUESTIONS:
        form = question.form_class(data=question.example.data)
        assert form.is_valid(), (question.slug, form.errors)
        answers[question.slug] = form.to_answer()
    return answers


ROLES = importlib.import_module("staff.migrations.0002_roles").ROLES
GRANTS = importlib.import_module("staff.migrations.0005_roles_approve_send_and_outcomes").GRANTS
# Models that later moved app: their permissions follow them (staff 0003).
_MOVE = importlib.import_module("staff.migrations.0003_proposals_live_in_pipeline")


def _app_today(app_label: str, codename: str) -> str:
    model = codename.split("_", 1)[1]
    return _MOVE.NEW_APP if (app_label, model) in _MOVE.MOVED else app_label


def ensure_role(name: str) -> Group:
    """The role's group as the migrations leave it, recreated when a transactional test's flush
    removed the migrated rows."""
    group, created = Group.objects.get_or_create(name=name)
    if created:
        for code in [*ROLES[name], *GRANTS.get(name, [])]:
            app_label, codename = code.split(".")
            group.permissions.add(
                Permission.objects.get(
                    content_type__app_label=_app_today(app_label, codename), codename=codename
                )
            )
    return group


def make_user(role: str | None = None, *, username: str | None = None, **extra):
    """A user in ``role`` ("Account managers", "Engineers"), "superuser", or None (plain staff)."""
    User = get_user_model()
    username = username or f"{(role or 'staff').split()[0].lower()}{next(_numbers)}"
    if role == "superuser":
        return User.objects.create_superuser(username, f"{username}@example.com", PASSWORD)
    email = extra.pop("email", f"{username}@example.com")
    user = User.objects.create_user(username, email, PASSWORD, is_staff=True, **extra)
    if role:
        user.groups.add(ensure_role(role))
    return user


def authenticator(user) -> TOTPDevice:
    """The user's authenticator app, set up as the first sign-in does if they have none."""
    device = TOTPDevice.objects.devices_for_user(user, confirmed=True).first()
    if device is None:
        device = pending_authenticator(user)
        confirm_authenticator(device)
    return device


def authenticator_code(device: TOTPDevice, *, steps_ahead: int = 0) -> str:
    """The six digits the app shows now (RFC 6238: HOTP over the 30-second step number), or
    ``steps_ahead`` steps later: a phone's clock a little fast, which the server allows."""
    step = int(time.time() - device.t0) // device.step + steps_ahead
    return f"{hotp(device.bin_key, step, digits=device.digits):0{device.digits}d}"


def unused_authenticator_code(device: TOTPDevice) -> str:
    """A code the server has not seen: each is accepted once, so a second sign-in within the
    same 30 seconds types the next step's (within the one step of drift allowed)."""
    device.refresh_from_db()
    now = int(time.time() - device.t0) // device.step
    ahead = max(0, device.last_t + 1 - now)
    assert ahead <= device.tolerance, "three sign-ins of one user in 30 s: wait for the next"
    return authenticator_code(device, steps_ahead=ahead)


def sign_in(client, user) -> None:
    """Sign ``user`` in as a person does: the password (``force_login``), then the code page
    with a code from their authenticator app (set up for them if they have none)."""
    device = authenticator(user)
    client.force_login(user)
    code_page = reverse("staff_sign_in:code")
    client.get(code_page)  # the page sets the CSRF cookie, for clients that check it
    response = client.post(
        code_page,
        {
            "code": unused_authenticator_code(device),
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def make_submission(**fields) -> Submission:
    n = next(_numbers)
    defaults = {
        "reference": f"TQ-2026-{n:05d}",
        "contact_name": f"Ada Customer {n}",
        "contact_email": f"ada{n}@customer.example",
        "company": f"Customer {n} Ltd",
        "privacy_consent_at": timezone.now(),
        "answers": example_answers(),
    }
    defaults.update(fields)
    return Submission.objects.create(**defaults)


@cache
def _sized(accelerator: str | None) -> tuple[dict, dict, str]:
    overrides = {"hardware": {"accelerator": accelerator}} if accelerator else None
    sized = size_answers(answers=example_answers(), overrides=overrides)
    return sized.engine_input, sized.result, sized.engine_version


def sized_fields(accelerator: str | None = None) -> dict:
    """A real engine run over the example answers (optionally on another accelerator), as the
    fields of a finished Recommendation: for tests that read costs and figures."""
    engine_input, result, engine_version = _sized(accelerator)
    return {
        "engine_input": copy.deepcopy(engine_input),
        "result": copy.deepcopy(result),
        "engine_version": engine_version,
        "overrides": {"hardware": {"accelerator": accelerator}} if accelerator else {},
    }


def make_recommendation(submission: Submission, *, version: int | None = None, **fields):
    version = version or (submission.recommendations.count() + 1)
    defaults = {
        "status": Recommendation.Status.DONE,
        "engine_version": "test-1",
        "engine_input": {"hardware": {"accelerator": "a100-80gb"}},
        "result": {"cluster": {"accelerator": "a100-80gb", "gpus": 16, "nodes": 2}},
        "finished_at": timezone.now(),
    }
    defaults.update(fields)
    return Recommendation.objects.create(submission=submission, version=version, **defaults)


def pdf_bytes(pages: int = 1) -> bytes:
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def make_proposal(recommendation: Recommendation, *, with_file: bool = True, **fields) -> Proposal:
    defaults = {"status": Proposal.Status.DONE, "page_count": 1}
    defaults.update(fields)
    proposal = Proposal(
        submission=recommendation.submission,
        recommendation=recommendation,
        version=recommendation.version,
        **defaults,
    )
    if with_file:
        content = pdf_bytes()
        proposal.size_bytes = len(content)
        proposal.pdf.save("proposal.pdf", ContentFile(content), save=False)
    proposal.save()
    return proposal


def access_cookie(draft) -> str:
    """The cookie value a browser holds after the questionnaire's private link opened ``draft``
    (``questionnaire.access``): that customer's own pages open for it."""
    response = HttpResponse()
    access.grant(RequestFactory().get("/"), response, draft)
    return response.cookies[access.COOKIE_NAME].value


def make_ready_submission(**fields) -> tuple[Submission, Recommendation, Proposal]:
    submission = make_submission(pipeline_status=Submission.PipelineStatus.READY, **fields)
    recommendation = make_recommendation(submission)
    return submission, recommendation, make_proposal(recommendation)


def make_email(submission: Submission, *, key: str, kind: str = "received", **fields):
    """An outbox row as ``pipeline.outbox.queue_email`` writes it (pending unless told)."""
    defaults = {"to": ["someone@example.com"], "subject": "Subject", "body": "Body"}
    defaults.update(fields)
    return OutgoingEmail.objects.create(submission=submission, kind=kind, key=key, **defaults)
