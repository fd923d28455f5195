"""Measured reality on a submission's page (issue 30): the customer (through their link) or an
engineer downloads the kit, uploads its file, and records what happened in training; a hostile
file is refused with a clear message and changes nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from pipeline.models import ActualRun, HardwareMeasurement, Recommendation
from pipeline.services import proposal_data, run_sizing
from questionnaire import access
from questionnaire.services import start_draft
from reports.document import proposal_context
from staff.measured_pages import KIT_PATH, ActualRunForm
from tests.pipeline.test_kit_file import GOOD
from tests.staff.factories import (
    access_cookie,
    make_proposal,
    make_recommendation,
    make_submission,
    make_user,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def submission():
    submission = make_submission(draft=start_draft())
    make_proposal(make_recommendation(submission, **sized_fields("h100-sxm")))
    return submission


def _customer(submission) -> Client:
    client = Client()
    client.cookies[access.COOKIE_NAME] = access_cookie(submission.draft)
    return client


def _page(submission) -> str:
    return reverse("proposals:hardware", args=[submission.draft_id])


def _kit_file(submission, **results) -> SimpleUploadedFile:
    data = json.loads(json.dumps(GOOD))
    data["reference"] = submission.reference
    data["results"].update(results)
    return SimpleUploadedFile("kit-results.json", json.dumps(data).encode(), "application/json")


def test_the_customer_downloads_the_kit_from_their_page(submission):
    client = _customer(submission)
    page = client.get(_page(submission))
    assert page.status_code == 200
    assert f"--reference {submission.reference}" in page.content.decode()
    kit = client.get(reverse("proposals:verification_kit", args=[submission.draft_id]))
    assert kit.status_code == 200
    assert kit.content == KIT_PATH.read_bytes()
    assert "attachment" in kit["Content-Disposition"]


def test_another_browser_sees_neither_the_page_nor_the_kit(submission):
    assert Client().get(_page(submission)).status_code == 404
    kit = reverse("proposals:verification_kit", args=[submission.draft_id])
    assert Client().get(kit).status_code == 404
    posted = Client().post(_page(submission), {"action": "kit", "file": _kit_file(submission)})
    assert posted.status_code == 404
    assert not HardwareMeasurement.objects.exists()


def test_an_uploaded_measurement_re_sizes_and_the_proposal_names_it(submission):
    client = _customer(submission)
    response = client.post(
        _page(submission), {"action": "kit", "file": _kit_file(submission)}, follow=True
    )
    assert "We read the measurements of your NVIDIA H100 SXM5 80GB" in response.content.decode()
    measurement = HardwareMeasurement.objects.get()
    assert (measurement.accelerator, measurement.recorded_by) == ("h100-sxm", "customer")
    assert "Matrix multiply, BF16" in response.content.decode()
    version = submission.recommendations.order_by("-version").first()
    assert version.version == 2 and version.status == Recommendation.Status.PENDING
    run_sizing(recommendation_id=version.pk)
    version.refresh_from_db()
    assert version.engine_input["measured"]["matmul_bf16_tflops"] == 742.5
    body = render_to_string("reports/_proposal_body.html", proposal_context(proposal_data(version)))
    assert "Measured on your NVIDIA H100 SXM5 80GB" in body
    assert "742 TFLOP/s in BF16" in body


def test_a_cpu_measurement_is_kept_but_changes_no_estimate(submission):
    data = json.loads(json.dumps(GOOD))
    data["reference"] = submission.reference
    data["hardware"]["accelerator_name"] = "CPU only"
    upload = SimpleUploadedFile("kit.json", json.dumps(data).encode())
    response = _customer(submission).post(
        _page(submission), {"action": "kit", "file": upload}, follow=True
    )
    assert "no accelerator of our catalogue" in response.content.decode()
    assert HardwareMeasurement.objects.get().accelerator == ""
    assert submission.recommendations.count() == 1


@pytest.mark.parametrize(
    "content, says",
    [
        (b"\x00\x01\x02", "This is not a text file"),
        (b'{"kit": "something else"}', "not a file our verification kit wrote"),
        (b"{" + b'"a": 1, ' * 20000 + b'"b": 2}', "larger than 32 KB"),
    ],
)
def test_a_hostile_file_gets_a_clear_message_and_changes_nothing(submission, content, says):
    response = _customer(submission).post(
        _page(submission),
        {"action": "kit", "file": SimpleUploadedFile("kit.json", content)},
    )
    assert response.status_code == 200
    assert says in response.content.decode()
    assert not HardwareMeasurement.objects.exists()
    assert submission.recommendations.count() == 1


def test_a_file_for_another_estimate_is_refused(submission):
    upload = _kit_file(submission)
    other = make_submission(draft=start_draft())
    response = _customer(other).post(_page(other), {"action": "kit", "file": upload})
    assert f"not {other.reference}" in response.content.decode()
    assert not HardwareMeasurement.objects.exists()


def test_the_customer_records_an_actual_run_against_the_version_they_had(submission):
    response = _customer(submission).post(
        _page(submission),
        {
            "action": "actual",
            "accelerator": "h100-sxm",
            "accelerators": "64",
            "days": "12.5",
            "gpu_hours": "19000",
            "tokens": "1e12",
            "interruptions": "3",
            "mfu_percent": "41",
        },
        follow=True,
    )
    assert "we recorded what happened" in response.content.decode()
    run = ActualRun.objects.get()
    assert run.recommendation == submission.recommendations.get(version=1)
    assert (run.recorded_by, run.mfu, run.interruptions) == ("customer", 0.41, 3)


def test_an_impossible_actual_run_is_refused(submission):
    response = _customer(submission).post(
        _page(submission),
        {
            "action": "actual",
            "accelerator": "h100-sxm",
            "accelerators": "0",
            "days": "-1",
            "gpu_hours": "1e30",
            "tokens": "x",
            "interruptions": "0",
        },
    )
    assert response.status_code == 200
    assert "There is a problem" in response.content.decode()
    assert not ActualRun.objects.exists()


def test_an_engineer_uploads_from_the_admin_and_sees_estimate_against_actual(submission):
    engineer = make_user("Engineers")
    client = Client()
    sign_in(client, engineer)
    client.post(_page(submission), {"action": "kit", "file": _kit_file(submission)})
    assert HardwareMeasurement.objects.get().recorded_by == "staff"
    ActualRun.objects.create(
        submission=submission,
        recommendation=submission.recommendations.get(version=1),
        recorded_by="staff",
        accelerator="h100-sxm",
        accelerators=64,
        days=10,
        gpu_hours=15000,
        tokens=1e12,
    )
    change = client.get(reverse("admin:questionnaire_submission_change", args=[submission.pk]))
    page = change.content.decode()
    assert "actual against estimated accelerator-hours" in page
    assert "15,000 accelerator-hours against" in page
    assert reverse("proposals:hardware", args=[submission.draft_id]) in page


def test_both_forms_of_the_page_are_laid_out_by_crispy(submission):
    response = _customer(submission).get(_page(submission))
    used = [template.name for template in response.templates]
    assert used.count("bootstrap5/whole_uni_form.html") == 2  # the kit's file, the actual run
    page = response.content.decode()
    assert '<select name="accelerator" class="form-select' in page  # a list draws its arrow


def test_an_empty_actual_run_names_each_field_it_needs():
    # the customer's hardware page said Django's bare "This field is required." under each of
    # six fields: every message names its figure
    form = ActualRunForm(data={})
    assert not form.is_valid()
    said = [message for messages in form.errors.values() for message in messages]
    assert set(form.errors) == set(ActualRunForm.Meta.fields) - {"notes"}
    assert not [message for message in said if "This field" in message or "Enter a" in message]
    assert "Give the number of accelerators the run used." in form.errors["accelerators"]
    wrong = ActualRunForm(data={"accelerators": "0", "days": "many", "tokens": "1e20"}).errors
    assert wrong["accelerators"] == ["Accelerators used: give at least 1."]
    assert wrong["days"][0].startswith("Give the days the run took")
    assert wrong["tokens"][0].startswith("Tokens trained on: give at most")
