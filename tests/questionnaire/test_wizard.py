"""Walking the wizard with the test client, and the formtools traps it must not fall into."""

import re
from datetime import date
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from questionnaire.forms.platform import PreprocessingForm, SoftwareForm
from questionnaire.forms.workload import TimelineForm
from questionnaire.models import Draft, Submission
from questionnaire.questions import PAGES, QUESTIONS, get_question
from questionnaire.services import collect_answers
from questionnaire.wizard import (
    ALREADY_SUBMITTED_MESSAGE,
    OTHER_TAB_MESSAGE,
    SESSION_ENDED_MESSAGE,
)
from sizing import adapters
from tests.questionnaire.conftest import CONTACT, post_step, start, step_url, walk_to_review
from tests.reports.factories import edited_answers

pytestmark = pytest.mark.django_db


def assert_answer_matches_posted(stored: dict, posted: dict, form_class) -> None:
    """Every posted value comes back: text exactly as typed, choices and lists unchanged."""
    for key, value in posted.items():
        if key == "not_sure":  # the question's box, checked below
            continue
        field = form_class.base_fields[key]
        if hasattr(field, "kind"):
            assert stored[f"{key}_text"] == value
        else:
            assert stored[key] == value
    assert stored["not_sure"] is ("not_sure" in posted)
    assert stored["notes"] == posted.get("notes", "")


def test_walk_through_every_step_stores_exactly_one_submission_with_what_was_posted(client):
    draft_id = walk_to_review(client)
    response = post_step(client, draft_id, "review", {})
    assert response["Location"] == reverse("questionnaire:confirmation", args=[draft_id])

    submission = Submission.objects.get()
    assert re.fullmatch(r"TQ-\d{4}-\d{5}", submission.reference)
    assert submission.draft_id == draft_id
    assert submission.schema_version == 2
    assert set(submission.answers) == {q.slug for q in PAGES}
    for question in QUESTIONS:
        form = question.form_class(data=question.example.data)
        assert form.is_valid()
        # The stored answer is exactly the form's answer, after a JSON round trip.
        assert submission.answers[question.slug] == form.to_answer()
        assert_answer_matches_posted(
            submission.answers[question.slug], question.example.data, question.form_class
        )
    assert (submission.contact_name, submission.contact_email, submission.company) == (
        CONTACT["name"],
        CONTACT["email"],
        CONTACT["company"],
    )
    assert submission.contact_role == CONTACT["role"] and submission.country == CONTACT["country"]
    assert submission.privacy_consent_at is not None

    page = client.get(response["Location"])
    assert submission.reference in page.content.decode()
    assert page.context["submission"] == submission


def test_progress_shows_question_number_and_a_bar(client):
    draft_id = start(client)
    page = client.get(step_url(draft_id, "data")).content.decode()
    assert "Question 4 of 15" in page
    assert '<progress max="15" value="4"' in page


def test_back_keeps_what_was_typed_on_the_current_step_even_when_not_valid(client):
    draft_id = start(client)
    response = post_step(
        client,
        draft_id,
        "model",
        {"model_name": "Our own 7B", "total_params": "-7B"},
        wizard_goto_step="welcome",
    )
    assert response["Location"] == step_url(draft_id, "welcome")
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert 'value="Our own 7B"' in page and 'value="-7B"' in page


def draft_writes(client, draft_id, step, data, **extra) -> tuple[Any, list[str]]:
    """Post one step; the response and the statements that wrote the draft's row."""
    with CaptureQueriesContext(connection) as queries:
        response = post_step(client, draft_id, step, data, **extra)
    writes = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].startswith('UPDATE "questionnaire_draft"')
    ]
    return response, writes


@pytest.mark.parametrize(
    ("extra", "moves_to"),
    [({}, "method"), ({"wizard_goto_step": "welcome"}, "welcome")],
    ids=["next", "back"],
)
def test_a_question_post_writes_its_answers_and_the_next_step_in_one_statement(
    client, extra, moves_to
):
    """Issue 29: saving the page, then the step it moves to, were two writes (two commits)."""
    draft_id = start(client)
    example = get_question("model").example.data
    response, writes = draft_writes(client, draft_id, "model", example, **extra)
    assert response["Location"] == step_url(draft_id, moves_to)
    assert len(writes) == 1
    draft = Draft.objects.get(pk=draft_id)
    assert draft.current_step == moves_to and draft.revision == 1
    assert draft.step_data["model"]["model-model_name"] == [example["model_name"]]


def test_a_question_post_with_errors_is_written_and_stays_on_its_page(client):
    draft_id = start(client)
    posted = {"model_name": "Our own 7B", "total_params": "-7B"}
    response, writes = draft_writes(client, draft_id, "model", posted)
    assert response.status_code == 200 and len(writes) == 1
    draft = Draft.objects.get(pk=draft_id)
    assert draft.current_step == "model"
    assert draft.step_data["model"]["model-total_params"] == ["-7B"]
    assert 'value="-7B"' in response.content.decode()


def test_showing_the_current_page_again_does_not_write_the_session_back(client):
    """Issue 29: formtools marked the session changed on every read of its data, so every
    page wrote the session back; only a change of step does now."""
    draft_id = start(client)
    first = client.get(step_url(draft_id, "welcome"))
    again = client.get(step_url(draft_id, "welcome"))
    assert first.status_code == again.status_code == 200
    assert again.wsgi_request.session.modified is False
    moved = client.get(step_url(draft_id, "model"))  # another step: the session says so
    assert moved.wsgi_request.session.modified is True
    assert client.session[f"wizard_questionnaire_{draft_id.hex}"]["step"] == "model"


def test_the_session_holds_no_entry_per_page_posted(client):
    """Issue 29: formtools kept an empty entry of files for every page posted (no page has a
    file field), so the session grew with every page and each page wrote it bigger."""
    draft_id = start(client)
    for question in QUESTIONS[:3]:
        response = post_step(client, draft_id, question.slug, question.example.data)
        assert response["Location"] == step_url(
            draft_id, QUESTIONS[QUESTIONS.index(question) + 1].slug
        )
    wizard = client.session[f"wizard_questionnaire_{draft_id.hex}"]
    assert wizard == {
        "step": QUESTIONS[3].slug,
        "step_data": {},
        "step_files": {},
        "extra_data": {},
    }


def test_an_error_shows_a_summary_the_message_by_the_field_and_keeps_the_text(client):
    draft_id = start(client)
    response = post_step(client, draft_id, "model", {"total_params": "-7B", "notes": "big <b>"})
    page = response.content.decode()
    assert response.status_code == 200
    assert re.search(r"<title>\s*Error: Question 1 of 15", page)
    assert "data-error-summary" in page and "autofocus" in page
    assert (
        '<a href="#id_model-total_params">The total number of parameters cannot be negative.'
        in page
    )
    assert 'id="id_model-total_params-error"' in page
    assert 'aria-describedby="id_model-total_params-hint id_model-total_params-error"' in page
    assert 'aria-invalid="true"' in page
    assert 'value="-7B"' in page
    assert "big &lt;b&gt;" in page  # kept, and escaped


def test_radio_groups_are_fieldsets_with_a_legend_and_one_not_sure_for_the_question(client):
    # Issue 26: each part's own "Not sure yet" beside the question's box made two "not sure"
    # controls a question; the box, after "or", covers every part left empty.
    draft_id = start(client)
    page = client.get(step_url(draft_id, "precision")).content.decode()
    assert page.count("<fieldset") == 3  # number format, optimizer, gradient checkpointing
    assert '<legend class="form-label">Optimizer</legend>' in page
    assert 'value="not_sure"' not in page
    assert page.count('name="precision-not_sure"') == 1
    assert 'class="choice-divider" aria-hidden="true">or</div>' in page


def test_change_link_returns_to_the_review_page(client):
    draft_id = walk_to_review(client)
    review = client.get(step_url(draft_id, "review")).content.decode()
    change = f"{step_url(draft_id, 'batch')}?change=1"
    assert change in review
    page = client.get(change).content.decode()
    assert 'name="return_to" value="review"' in page
    response = post_step(client, draft_id, "batch", {"sequence_length": "8k"}, return_to="review")
    assert response["Location"] == step_url(draft_id, "review")
    assert "8k (read as 8,192 tokens)" in client.get(response["Location"]).content.decode()


def test_session_expiry_resumes_from_the_draft_with_a_message(client):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "model", get_question("model").example.data)
    post_step(client, draft_id, "method", get_question("method").example.data)
    # The session ends (cookie expired or the server cleared it); the questionnaire does not.
    client.cookies.pop(settings.SESSION_COOKIE_NAME)
    response = client.get(step_url(draft_id, "precision"))
    assert response.status_code == 200
    assert SESSION_ENDED_MESSAGE in response.content.decode()
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert 'value="Llama 3.1 8B"' in page
    assert SESSION_ENDED_MESSAGE not in page  # said once, not on every page


def test_two_questionnaires_in_two_tabs_never_collide(client):
    first, second = start(client), start(client)
    post_step(client, first, "model", {"model_name": "Llama 3.1 8B"})
    client.get(step_url(second, "welcome"))  # tab B opening its start page resets nothing
    post_step(client, second, "model", {"model_name": "Mixtral 8x7B"})
    post_step(client, first, "method", {"method": "lora"})
    assert Draft.objects.get(pk=first).step_data["model"]["model-model_name"] == ["Llama 3.1 8B"]
    assert Draft.objects.get(pk=second).step_data["model"]["model-model_name"] == ["Mixtral 8x7B"]
    assert "method" not in Draft.objects.get(pk=second).step_data
    home = client.get(reverse("questionnaire:home")).content.decode()
    assert "You have an unfinished questionnaire" in home


def test_the_same_page_changed_in_another_tab_is_named(client):
    draft_id = start(client)
    tab_a = client.get(step_url(draft_id, "model")).context["step_fingerprint"]
    post_step(client, draft_id, "model", {"model_name": "from tab B"})
    response = post_step(
        client, draft_id, "model", {"model_name": "from tab A"}, step_fingerprint=tab_a
    )
    assert OTHER_TAB_MESSAGE in client.get(response["Location"]).content.decode()
    assert Draft.objects.get(pk=draft_id).step_data["model"]["model-model_name"] == ["from tab A"]


def test_double_submit_creates_one_submission_and_a_replay_says_already_submitted(client):
    draft_id = walk_to_review(client)
    first = post_step(client, draft_id, "review", {})
    second = post_step(client, draft_id, "review", {})
    assert Submission.objects.count() == 1
    assert second["Location"] == first["Location"]
    replay = client.get(step_url(draft_id, "model"), follow=True)
    assert ALREADY_SUBMITTED_MESSAGE in replay.content.decode()
    assert Submission.objects.get().reference in replay.content.decode()


def test_sending_from_the_review_page_is_one_transaction_that_reads_nothing_twice(client):
    """Issue 29: the send first wrote the review page's empty data in a transaction of its own,
    read the draft's submission apart from the locked draft, and stored the staff list's facts
    in six statements (19 queries, two commits)."""
    draft_id = walk_to_review(client)
    with CaptureQueriesContext(connection) as queries:
        response = post_step(client, draft_id, "review", {})
    submission = Submission.objects.get(draft_id=draft_id)
    assert response["Location"] == reverse("questionnaire:confirmation", args=[draft_id])
    statements = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in statements if sql.startswith('UPDATE "questionnaire_draft"')]
    # the draft's submission comes with the draft (locked, it is read once more to send)
    assert not [sql for sql in statements if 'FROM "questionnaire_submission"' in sql]
    assert len([sql for sql in statements if "pipeline_submissionfacts" in sql]) == 1
    assert submission.facts.method == "lora"  # the facts stored all the same


def test_a_get_on_the_submit_url_never_submits(client):
    draft_id = walk_to_review(client)
    response = client.get(step_url(draft_id, "submit"))
    assert response["Location"] == step_url(draft_id, "review")
    assert not Submission.objects.exists()


def test_unanswered_questions_are_listed_on_review_and_block_sending(client):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "model", {"not_sure": "on"})
    review = client.get(step_url(draft_id, "review")).content.decode()
    assert "Some answers need attention" in review
    assert "Question 2, How you will train: Not answered yet" in review
    response = post_step(client, draft_id, "review", {})
    assert response["Location"] == step_url(draft_id, "method")
    assert not Submission.objects.exists()


def test_another_browser_cannot_open_the_questionnaire(client):
    draft_id = start(client)
    response = Client().get(step_url(draft_id, "model"))
    assert response.status_code == 403
    assert "not open in this browser" in response.content.decode()


def test_pages_carry_a_strict_csp_and_no_inline_script(client):
    draft_id = start(client)
    response = client.get(step_url(draft_id, "network"))
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    scripts = re.findall(r"<script[^>]*>", response.content.decode())
    assert scripts and all("src=" in tag for tag in scripts)
    assert "no-store" in response["Cache-Control"]


def test_glossary_terms_are_tooltips_and_the_glossary_page_lists_them(client):
    draft_id = start(client)
    page = client.get(step_url(draft_id, "network")).content.decode()
    # a button that toggles its tip (no link that promises a new tab, none inside a heading)
    found = re.search(
        r'<button type="button" class="term-link" aria-expanded="false" '
        r'aria-controls="(tip-infiniband-\w+)" aria-describedby="\1">InfiniBand</button>',
        page,
    )
    assert found and f'id="{found.group(1)}"' in page
    assert "opens in a new tab" not in page
    assert 'role="tooltip"' in page and "A very fast, low-delay network" in page
    glossary = client.get(reverse("questionnaire:glossary")).content.decode()
    assert 'id="term-infiniband"' in glossary and 'id="term-tco"' in glossary


def test_opening_an_earlier_step_again_resets_nothing(client):
    draft_id = walk_to_review(client)
    client.get(step_url(draft_id, "welcome"))
    client.get(step_url(draft_id, "bogus-step"))
    review = client.get(step_url(draft_id, "review"))
    assert review.context["ready_to_send"] is True


def test_free_text_is_escaped_on_the_review_page(client):
    answers = {"model": {"model_name": "<script>alert(1)</script>", "notes": "<b>bold</b>"}}
    draft_id = walk_to_review(client, answers)
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
    assert "<script>alert(1)" not in page


def test_a_first_results_date_that_has_passed_is_refused_with_a_clear_message():
    """Issue 13: a deadline in 2020 was accepted."""
    form = TimelineForm(data={"timeline-deadline": "2020-03-31"}, prefix="timeline")
    assert not form.is_valid()
    assert "31 March 2020 has already passed" in form.errors["deadline"][0]
    later = TimelineForm(data={"timeline-deadline": "2099-03-31"}, prefix="timeline")
    assert later.is_valid(), later.errors


def test_checkbox_groups_offer_not_sure_yet_alone_and_it_reaches_nothing():
    """Issue 13: frameworks, online steps and encryption had no "not sure"."""
    unsure = SoftwareForm(data={"software-frameworks": ["not_sure"]}, prefix="software")
    assert unsure.is_valid(), unsure.errors
    assert unsure.to_answer()["frameworks"] == ["not_sure"]
    mixed = SoftwareForm(data={"software-frameworks": ["pytorch", "not_sure"]}, prefix="software")
    assert not mixed.is_valid() and "cannot go with other choices" in str(mixed.errors)
    steps = PreprocessingForm(
        data={"preprocessing-online_steps": ["not_sure"]}, prefix="preprocessing"
    )
    assert steps.is_valid(), steps.errors
    answers = edited_answers(
        software={"frameworks": ["not_sure"]}, preprocessing={"online_steps": ["not_sure"]}
    )
    built = adapters.build_engine_input(answers=answers)
    assert "frameworks" not in built.engine_input.get("software", {})
    assert "preprocessing" not in built.engine_input.get("data", {})
    assert built.sources["software.frameworks"] == "not_sure"


def test_each_question_page_offers_a_shortcut_to_not_sure_above_its_fields(client):
    draft_id = start(client)
    for question in QUESTIONS:
        page = client.get(step_url(draft_id, question.slug)).content.decode()
        found = re.search(
            r'<p class="unsure-shortcut"><a class="visually-hidden-focusable" href="#([\w-]+)">',
            page,
        )
        assert found, question.slug
        target = found.group(1)
        assert f'id="{target}"' in page and "not_sure" in target
        assert page.index("unsure-shortcut") < page.index('class="whole-question-unsure"')


def test_the_nothing_answered_error_names_the_not_sure_box_by_its_label_and_links_to_it(client):
    # Reader 2: the message said "tick 'Not sure yet' at the end of the page", but the box is
    # labelled "Not sure about this question yet" and sat above "Anything else" (now both read
    # "Not sure yet", the welcome page's word, issue 26).
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, "discovery", {})
    response = post_step(client, draft_id, "precision", {"notes": ""})
    page = response.content.decode()
    label = "Not sure yet"
    box = re.search(rf'<label class="form-check-label" for="([\w-]+)">{label}</label>', page)
    assert box, "the question-level box keeps its label"
    assert (
        f'<a href="#{box.group(1)}">Answer at least one part of this question, or tick “{label}”.</a>'
        in page
    )
    assert "at the end of the page" not in page
    assert f"Skip to “{label}”" in page


def test_the_runs_a_month_are_asked_once_and_later_only_where_they_differ(client):
    # Reader 2: "Training runs per month" on question 5 and on question 15 came back as
    # "Your answers differ" in the proposal: the questionnaire made its own conflict.
    draft_id = start(client)
    post_step(client, draft_id, "timeline", {"run_time_hours": "2 days", "runs_per_month": "4"})
    page = client.get(step_url(draft_id, "roadmap")).content.decode()
    assert "Training runs per month later, if different" in page
    assert "Leave empty if still 4, as on question 5." in page
    post_step(client, draft_id, "roadmap", {"budget_years": "3"})
    answers, _ = collect_answers(Draft.objects.get(pk=draft_id))
    conflicts = adapters.answer_conflicts(answers=answers, today=date.today())
    assert not [c for c in conflicts if c.path == "roadmap.runs_per_month"]
