"""Engineer overrides: a new recommendation version (and proposal), the previous ones kept."""

import pytest
from django.test import Client

from pipeline.models import Recommendation
from sizing.engine.vocabulary import value_words
from staff import pipeline_actions
from staff.models import AuditEvent, Note
from tests.staff.factories import (
    make_proposal,
    make_ready_submission,
    make_recommendation,
    make_submission,
    sign_in,
    sized_fields,
)

pytestmark = pytest.mark.django_db


def override_url(submission) -> str:
    return f"/admin/questionnaire/submission/{submission.pk}/override/"


def test_the_override_form_offers_every_engine_input_and_the_accelerators(engineer):
    submission, _, _ = make_ready_submission()
    client = Client()
    sign_in(client, engineer)
    page = client.get(override_url(submission)).content.decode()
    for name in (
        "hardware.accelerator",
        "hardware.count",
        "schedule.deadline_days",
        "prices.cloud_on_demand_usd_per_gpu_hour",
        "parallelism.tensor",
        "roadmap.utilisation",
    ):
        assert f'name="{name}"' in page
    assert 'value="h100-sxm"' in page
    assert "not set (engine default)" not in page


def test_the_override_form_says_what_the_engine_used(engineer):
    submission = make_submission()
    make_proposal(make_recommendation(submission, **sized_fields()))
    client = Client()
    sign_in(client, engineer)
    page = client.get(override_url(submission)).content.decode()
    used = {a["key"]: a for a in submission.recommendations.get().result["assumptions"]}
    accelerator = used["hardware.accelerator"]
    assert accelerator["provided_by"] == "assumed"  # the customer was not sure
    name = value_words("hardware.accelerator", accelerator["value"])
    assert f"Engine used: {name} (assumed by the engine)." in page
    assert "Engine used: 8 billion parameters (you told us)." in page


def test_overriding_the_accelerator_makes_a_new_version_and_keeps_the_previous(
    engineer, django_capture_on_commit_callbacks
):
    submission, v1, p1 = make_ready_submission()
    client = Client()
    sign_in(client, engineer)
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            override_url(submission),
            {
                "hardware.accelerator": "h100-sxm",
                "schedule.deadline_days": "20",
                "reason": "GPU in stock",
            },
        )
    assert response.status_code == 302, response.content.decode()[:2000]
    versions = list(submission.recommendations.order_by("version"))
    assert [r.version for r in versions] == [1, 2]
    v2 = versions[1]
    assert v2.overrides == {
        "hardware": {"accelerator": "h100-sxm"},
        "schedule": {"deadline_days": 20.0},
    }
    assert v2.requested_by == engineer
    v1.refresh_from_db()
    p1.refresh_from_db()
    assert v1.status == Recommendation.Status.DONE and p1.pdf.storage.exists(p1.pdf.name)
    event = AuditEvent.objects.get(action=AuditEvent.Action.RERUN)
    assert event.actor == engineer and event.new_value == "v2"
    assert "hardware.accelerator=h100-sxm" in event.detail
    assert "GPU in stock" in Note.objects.get().text


def test_an_override_the_engine_refuses_is_shown_and_nothing_is_written(engineer):
    submission, _, _ = make_ready_submission()
    client = Client()
    sign_in(client, engineer)
    response = client.post(override_url(submission), {"hardware.count": "0"})
    assert response.status_code == 200
    assert "errornote" in response.content.decode() or "errorlist" in response.content.decode()
    assert submission.recommendations.count() == 1
    assert not AuditEvent.objects.exists()


def test_the_form_starts_from_the_latest_overrides(engineer):
    submission, _, _ = make_ready_submission()
    make_recommendation(submission, overrides={"hardware": {"accelerator": "mi300x"}})
    client = Client()
    sign_in(client, engineer)
    page = client.get(override_url(submission)).content.decode()
    assert '<option value="mi300x" selected>' in page


def test_a_plain_rerun_keeps_the_latest_overrides(engineer, django_capture_on_commit_callbacks):
    submission, _, _ = make_ready_submission()
    make_recommendation(submission, overrides={"hardware": {"accelerator": "mi300x"}})
    with django_capture_on_commit_callbacks(execute=False):
        new = pipeline_actions.rerun(submission=submission, user=engineer)
    assert new.version == 3
    assert new.overrides == {"hardware": {"accelerator": "mi300x"}}


def test_the_change_page_says_what_changed_between_versions(engineer):
    submission, _, _ = make_ready_submission()
    v2 = make_recommendation(
        submission,
        overrides={"hardware": {"accelerator": "h100-sxm"}},
        engine_input={"hardware": {"accelerator": "h100-sxm"}},
        result={"cluster": {"accelerator": "h100-sxm", "gpus": 8, "nodes": 1}},
    )
    make_proposal(v2)
    client = Client()
    sign_in(client, engineer)
    page = client.get(f"/admin/questionnaire/submission/{submission.pk}/change/").content.decode()
    assert "Input: Accelerator" in page
    assert "<td>NVIDIA A100 SXM4 80GB</td><td>NVIDIA H100 SXM5 80GB</td>" in page
    assert "<td>16 GPUs</td><td>8 GPUs</td>" in page
    assert page.index("Accelerators") < page.index("Input: Accelerator")
    assert "Download PDF v2" in page and "Download PDF v1" in page
    assert "8 × NVIDIA H100" in page


def test_the_override_form_speaks_the_vocabulary_not_engine_codes(engineer):
    """Issue 28: labels, units, help and choices come from the shared vocabulary, so an
    engineer reads "Accelerators per server" and "Full fine-tuning", not "Gpus per node",
    "full_finetune" or help text starting "hardware.count: …"."""
    submission = make_submission()
    make_proposal(make_recommendation(submission, **sized_fields()))
    client = Client()
    sign_in(client, engineer)
    response = client.get(override_url(submission))
    form = response.context["form"]
    assert form["hardware.gpus_per_node"].label == "Accelerators per server"
    assert form["prices.pue"].label == "Cooling and power overhead (PUE)"
    assert form["schedule.deadline_days"].label == "Time you allow for one run (days)"
    assert form["prices.electricity_usd_per_kwh"].label == "Electricity price (USD)"
    assert ("full_finetune", "Full fine-tuning") in form.fields["training.method"].choices
    assert ("lora", "LoRA") in form.fields["training.method"].choices
    for field in form:
        assert "_" not in field.label, field.label
        assert not field.help_text.startswith(field.name), field.help_text
        assert '"' not in field.help_text, field.help_text  # no list of raw codes
    page = response.content.decode()
    for raw in ("Gpus per node", "Pue", "hardware.count:", "Total params"):
        assert raw not in page
    assert "Engine used: 8 billion parameters (you told us)." in page


def test_the_override_form_takes_accelerator_makers_as_choices(engineer):
    submission = make_submission()
    make_recommendation(submission, **sized_fields())
    from staff.forms import OverrideForm

    form = OverrideForm(data={"hardware.vendors": ["nvidia", "amd"]})
    assert form.is_valid(), form.errors
    assert form.overrides() == {"hardware.vendors": ["nvidia", "amd"]}


def test_the_override_form_is_laid_out_by_crispy_in_the_admins_rows(engineer):
    submission, _, _ = make_ready_submission()
    client = Client()
    sign_in(client, engineer)
    response = client.get(override_url(submission))
    used = {template.name for template in response.templates}
    assert {"admin/crispy/fieldset.html", "admin/crispy/fold.html"} <= used
    page = response.content.decode()
    assert page.count('<details class="module aligned override-section"') >= 5
    # each help text is the one its input names in aria-describedby
    assert 'aria-describedby="id_reason_helptext"' in page
    assert '<div class="help" id="id_reason_helptext">' in page
