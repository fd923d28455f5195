"""Submitting: references, idempotency, the pipeline hand-off and the demo scenarios."""

import threading
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from questionnaire.demo import INSURANCE, SCENARIOS
from questionnaire.management.commands.load_demo import load_scenario
from questionnaire.models import Draft, Submission
from questionnaire.questions import QUESTIONS
from questionnaire.services import (
    START_PIPELINE_TASK,
    IncompleteAnswers,
    next_reference,
    posted_field_names,
    purge_expired_drafts_and_sessions,
    save_step,
    start_draft,
    step_data_from_answer_data,
    submit_answers,
)


def complete_draft(scenario=INSURANCE) -> Draft:
    draft = start_draft()
    for question in QUESTIONS:
        data = step_data_from_answer_data(question.slug, scenario.answers[question.slug])
        draft = save_step(draft=draft, step=question.slug, data=data, current_step=question.slug)
    return draft


@pytest.mark.django_db
def test_references_count_up_within_the_year():
    from django.utils import timezone

    year = timezone.now().year
    assert next_reference() == f"TQ-{year}-00001"
    assert next_reference() == f"TQ-{year}-00002"


@pytest.mark.django_db
def test_submitting_twice_returns_the_first_submission_and_queues_the_pipeline_once(
    published, django_capture_on_commit_callbacks
):
    draft = complete_draft()
    with django_capture_on_commit_callbacks(execute=True):
        first = submit_answers(draft=draft, contact=INSURANCE.contact)
        assert published == []  # nothing leaves before the commit
    with django_capture_on_commit_callbacks(execute=True):
        again = submit_answers(draft=draft, contact=INSURANCE.contact)
    assert again.pk == first.pk
    assert Submission.objects.count() == 1
    assert published == [(START_PIPELINE_TASK, first.pk)]
    assert first.pipeline_status == Submission.PipelineStatus.PENDING


@pytest.mark.django_db
def test_account_managers_hear_of_a_submission_only_after_commit(
    settings, django_capture_on_commit_callbacks
):
    settings.ACCOUNT_MANAGER_EMAILS = ["am@example.com"]
    settings.CELERY_TASK_ALWAYS_EAGER = True
    draft = complete_draft()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submission = submit_answers(draft=draft, contact=INSURANCE.contact)
        assert not [m for m in mail.outbox if "New sizing request" in m.subject]
    with django_capture_on_commit_callbacks(execute=True):  # the in-process pipeline's own
        for callback in callbacks:
            callback()
    assert submission.recommendations.count() == 1
    notices = [m for m in mail.outbox if m.subject.startswith("New sizing request: ")]
    assert len(notices) == 1
    assert notices[0].subject.endswith(f" · {submission.reference}")
    assert "Llama" not in notices[0].body  # a link, never the answers


@pytest.mark.django_db
def test_an_incomplete_draft_is_refused_with_the_questions_to_fix():
    draft = start_draft()
    save_step(draft=draft, step="model", data={"model-not_sure": "on"}, current_step="model")
    with pytest.raises(IncompleteAnswers) as problem:
        submit_answers(draft=draft, contact=INSURANCE.contact)
    assert problem.value.slugs == [q.slug for q in QUESTIONS[1:]]
    assert not Submission.objects.exists()


@pytest.mark.django_db
def test_saving_a_step_keeps_only_that_steps_fields():
    draft = start_draft()
    draft = save_step(
        draft=draft,
        step="model",
        data={"model-model_name": "X", "csrfmiddlewaretoken": "secret", "batch-x": "1"},
        current_step="model",
    )
    assert draft.step_data == {"model": {"model-model_name": ["X"]}}
    assert draft.revision == 1


@pytest.mark.django_db
def test_saving_from_a_stale_copy_of_the_draft_keeps_the_step_saved_since():
    draft = start_draft()
    stale = Draft.objects.get(pk=draft.pk)  # another tab's copy, read before the first save
    save_step(draft=draft, step="model", data={"model-model_name": "A"}, current_step="model")
    saved = save_step(
        draft=stale, step="method", data={"method-method": "lora"}, current_step="method"
    )
    expected = {"model": {"model-model_name": ["A"]}, "method": {"method-method": ["lora"]}}
    assert saved.step_data == expected
    assert (saved.current_step, saved.revision) == ("method", 2)
    assert Draft.objects.get(pk=draft.pk).step_data == expected


@pytest.mark.django_db
def test_saving_a_step_again_replaces_its_fields_and_keeps_the_text_as_typed():
    draft = start_draft()
    first = {"model-model_name": "X", "model-notes": "dropped next time"}
    save_step(draft=draft, step="model", data=first, current_step="model")
    typed = 'Llama ‘3’ "8B" \\ é 😀 <b>markup</b>\nnew line'
    saved = save_step(
        draft=draft, step="model", data={"model-model_name": typed}, current_step="model"
    )
    assert saved.step_data == {"model": {"model-model_name": [typed]}}
    assert Draft.objects.get(pk=draft.pk).step_data == saved.step_data
    assert Draft.objects.get(pk=draft.pk).updated_at == saved.updated_at


@pytest.mark.django_db(transaction=True)
def test_tabs_saving_different_steps_at_once_all_keep_their_step(postgres_required):
    draft = start_draft()
    steps = [question.slug for question in QUESTIONS[:6]]
    errors = []
    barrier = threading.Barrier(len(steps))

    def save(step):
        try:
            barrier.wait()
            save_step(draft=draft, step=step, data={f"{step}-notes": step}, current_step=step)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(step,)) for step in steps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    saved = Draft.objects.get(pk=draft.pk)
    assert saved.step_data == {step: {f"{step}-notes": [step]} for step in steps}
    assert saved.revision == len(steps)


@pytest.mark.django_db(transaction=True)
def test_concurrent_submits_of_one_draft_create_one_submission(postgres_required):
    draft = complete_draft()
    results, errors = [], []
    barrier = threading.Barrier(4)

    def submit():
        try:
            barrier.wait()
            results.append(submit_answers(draft=draft, contact=INSURANCE.contact).pk)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(set(results)) == 1
    assert Submission.objects.count() == 1


@pytest.mark.django_db
def test_every_scenario_submits_and_round_trips_what_was_typed():
    for scenario in SCENARIOS:
        submission, created = load_scenario(scenario)
        assert created
        for question in QUESTIONS:
            posted = scenario.answers[question.slug]
            stored = submission.answers[question.slug]
            for key, value in posted.items():
                if key == "not_sure":
                    assert stored["not_sure"] is True
                elif hasattr(question.form_class.base_fields.get(key), "kind"):
                    assert stored[f"{key}_text"] == value
                else:
                    assert stored[key] == value


@pytest.mark.django_db
def test_load_demo_is_idempotent(capsys, settings):
    settings.DEBUG = True
    call_command("load_demo")
    call_command("load_demo")
    assert Submission.objects.count() == 4
    assert {s.contact_email for s in Submission.objects.all()} == {
        s.contact.email for s in SCENARIOS
    }
    out = capsys.readouterr().out
    assert "Already there:" in out
    # The demo staff login says what its first sign-in asks for (staff/sign_in/).
    assert "second factor" in out and "reset_second_factor demo-staff" in out


@pytest.mark.django_db
def test_purge_removes_old_drafts_and_expired_sessions_only(settings):
    old = Draft.objects.create()
    recent = Draft.objects.create()
    Draft.objects.filter(pk=old.pk).update(
        updated_at=timezone.now() - timedelta(days=settings.DRAFT_RETENTION_DAYS + 1)
    )
    Session.objects.create(
        session_key="expired", session_data="x", expire_date=timezone.now() - timedelta(days=1)
    )
    Session.objects.create(
        session_key="live", session_data="x", expire_date=timezone.now() + timedelta(days=1)
    )
    counts = purge_expired_drafts_and_sessions()
    assert counts == {"drafts": 1, "sessions": 1}
    assert list(Draft.objects.values_list("pk", flat=True)) == [recent.pk]
    assert list(Session.objects.values_list("session_key", flat=True)) == ["live"]


def test_the_posted_names_of_a_step_are_worked_out_once_per_form_class(monkeypatch):
    """Every POST asks for them twice; they depend only on the form's class and the step."""
    question = QUESTIONS[0]
    expected = posted_field_names(question.form_class, "renamed-step")
    built = []
    original = question.form_class.__init__

    def counting_init(self, *args, **kwargs):
        built.append(kwargs.get("prefix"))
        original(self, *args, **kwargs)

    monkeypatch.setattr(question.form_class, "__init__", counting_init)
    assert posted_field_names(question.form_class, "renamed-step") == expected
    assert built == []
    assert "renamed-step-notes" in expected and "renamed-step-not_sure" in expected
