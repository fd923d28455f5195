"""Discovery first, then two paths: the detailed set-up questions, or "recommend for me"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from questionnaire.models import Draft, Submission
from questionnaire.paths import (
    FOLDED_ON_DETAILED_PATH,
    KEY_FIELDS,
    delegated_slugs,
    recommended_answer,
    recommends_setup,
    shows_step,
)
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, QUESTIONS, get_question
from questionnaire.services import Contact, collect_answers, submit_answers
from sizing.public import build_engine_input
from tests.questionnaire.conftest import (
    CONTACT,
    past_sentence_check,
    post_step,
    start,
    step_url,
    walk_to_review,
)

pytestmark = pytest.mark.django_db

SHORT = {**DISCOVERY.example.data, "setup_known": "no"}
ASKED_ON_SHORT_PATH = [q.slug for q in QUESTIONS if not q.expert]


def walk_short_path(client, discovery=SHORT):
    """Answer the discovery page and only the questions the short path asks."""
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, DISCOVERY.slug, discovery)
    for slug in ASKED_ON_SHORT_PATH:
        post_step(client, draft_id, slug, get_question(slug).example.data)
    response = post_step(client, draft_id, "contact", CONTACT)
    assert response["Location"] == step_url(draft_id, "review")
    return draft_id


def test_the_expert_questions_are_the_six_set_up_pages():
    numbers = [get_question(slug).number for slug in EXPERT_SLUGS]
    assert numbers == [3, 6, 9, 10, 11, 12]


def test_discovery_comes_right_after_welcome(client):
    draft_id = start(client)
    response = post_step(client, draft_id, "welcome", {})
    assert response["Location"] == step_url(draft_id, DISCOVERY.slug)
    page = client.get(response["Location"]).content.decode()
    assert "Tell us about your project" in page
    assert "Does someone on your team know the training set-up" in page
    assert "<details" in page and "More about this" in page


def test_no_one_knows_the_set_up_skips_every_expert_page(client):
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    response = past_sentence_check(client, post_step(client, draft_id, DISCOVERY.slug, SHORT))
    visited = []
    for slug in ASKED_ON_SHORT_PATH:
        assert response["Location"] == step_url(draft_id, slug)
        visited.append(slug)
        response = post_step(client, draft_id, slug, {"not_sure": "on"})
    assert response["Location"] == step_url(draft_id, "contact")
    assert not set(visited) & set(EXPERT_SLUGS)


def test_the_short_path_counts_only_the_questions_it_asks(client):
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    page = client.get(step_url(draft_id, "data")).content.decode()
    assert "Question 3 of 9" in page
    assert '<progress max="9" value="3"' in page


def test_back_from_a_page_after_a_skipped_one_goes_to_the_page_before_it(client):
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    response = post_step(client, draft_id, "data", {}, wizard_goto_step="method")
    assert response["Location"] == step_url(draft_id, "method")
    page = client.get(step_url(draft_id, "data")).content.decode()
    assert 'name="wizard_goto_step" value="method"' in page


def test_opening_a_skipped_question_explains_and_offers_the_switch(client):
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    response = client.get(step_url(draft_id, "precision"))
    assert response["Location"] == f"{step_url(draft_id, DISCOVERY.slug)}?change=1"
    page = client.get(response["Location"]).content.decode()
    assert "we skip that question" in page


def test_a_post_to_a_skipped_question_from_an_old_tab_is_kept_and_moves_on(client):
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    response = post_step(client, draft_id, "precision", {"precision": "fp8"})
    assert response["Location"] == step_url(draft_id, "data")
    assert Draft.objects.get(pk=draft_id).step_data["precision"]["precision-precision"] == ["fp8"]


def test_the_short_path_stores_recommend_for_me_for_every_expert_question(client):
    draft_id = walk_short_path(client)
    review = client.get(step_url(draft_id, "review")).content.decode()
    assert "Training set-up: we choose it for you" in review
    for slug in EXPERT_SLUGS:
        assert f'id="review-{slug}"' in review
    assert "Number size: 16-bit numbers (BF16)." in review  # what the engine chose
    assert "the usual choice; it sets the bytes per number" in review  # and why
    response = post_step(client, draft_id, "review", {})
    assert response["Location"] == reverse("questionnaire:confirmation", args=[draft_id])
    answers = Submission.objects.get().answers
    assert answers[DISCOVERY.slug]["setup_known"] == "no"
    assert answers[DISCOVERY.slug]["use_case"] == SHORT["use_case"]
    assert recommends_setup(answers)
    for slug in EXPERT_SLUGS:
        assert answers[slug] == recommended_answer(get_question(slug))
        assert answers[slug]["not_sure"] is True


def test_switching_paths_from_the_review_page_loses_no_answer(client):
    draft_id = walk_to_review(client)  # the detailed path, every question's example
    precision_page = client.get(step_url(draft_id, "precision")).content.decode()
    assert 'value="bf16" id="id_precision-precision_0" checked' in precision_page

    review = client.get(step_url(draft_id, "review")).content.decode()
    switch = f"{step_url(draft_id, DISCOVERY.slug)}?change=1#discovery-setup-known"
    assert switch.replace("&", "&amp;") in review or switch in review
    response = post_step(client, draft_id, DISCOVERY.slug, SHORT, return_to="review")
    response = past_sentence_check(client, response)
    assert response["Location"] == step_url(draft_id, "review")
    draft = Draft.objects.get(pk=draft_id)
    answers, attention = collect_answers(draft)
    assert not attention
    assert answers["precision"]["precision"] == "bf16"  # theirs, kept (see below)
    assert draft.step_data["precision"]["precision-precision"] == ["bf16"]  # still there

    back = {**SHORT, "setup_known": "yes"}
    post_step(client, draft_id, DISCOVERY.slug, back, return_to="review")
    answers, attention = collect_answers(Draft.objects.get(pk=draft_id))
    assert not attention
    assert answers["precision"]["precision"] == "bf16"
    review = client.get(step_url(draft_id, "review")).content.decode()
    assert "we choose it for you" not in review


def test_switching_to_the_detailed_path_lists_the_unanswered_set_up_questions(client):
    draft_id = walk_short_path(client)
    assert set(Draft.objects.get(pk=draft_id).step_data).isdisjoint(EXPERT_SLUGS)
    post_step(client, draft_id, DISCOVERY.slug, {"setup_known": "yes"}, return_to="review")
    response = client.get(step_url(draft_id, "review"))
    assert [row.question.slug for row in response.context["attention"]] == list(EXPERT_SLUGS)


def test_not_sure_about_the_set_up_takes_the_short_path():
    step_data = {DISCOVERY.slug: {"discovery-setup_known": ["not_sure"]}}
    assert not shows_step("precision", step_data)
    assert shows_step("model", step_data)
    assert shows_step("precision", {})  # never answered: the detailed path, as before


def test_a_draft_without_a_discovery_page_submits_with_an_empty_one():
    # As a draft saved before the discovery page existed, or by a client that never posted it.
    draft = Draft.objects.create(
        step_data={q.slug: {f"{q.slug}-not_sure": ["on"]} for q in QUESTIONS}
    )
    submission = submit_answers(draft=draft, contact=Contact("Dana", "d@example.com", "Acme"))
    assert submission.answers[DISCOVERY.slug]["setup_known"] == ""
    assert not recommends_setup(submission.answers)


def test_the_review_page_opens_with_the_project_and_its_constraint(client):
    draft_id = walk_short_path(client, {**SHORT, "constraint": "budget"})
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert page.index("About your project") < page.index("1. Your model")
    assert SHORT["use_case"] in page
    assert "Budget: the lowest cost" in page
    assert "we accept a cheaper network (2:1)" in page


def test_switching_to_the_short_path_keeps_and_uses_the_set_up_answers_already_given(client):
    # Issue 26: switching "does someone know the set-up?" from yes to no silently replaced the
    # detailed answers with "recommend for me". A customer who told us FP8 and an 8-bit
    # optimizer expects us to use them, and to see on the review page that we do.
    draft_id = walk_to_review(client)  # the detailed path, every question's example
    post_step(client, draft_id, "precision", {"precision": "fp8", "optimizer": "adamw_8bit"})
    post_step(client, draft_id, "batch", {"not_sure": "on"})  # a page they left to us
    post_step(client, draft_id, DISCOVERY.slug, SHORT, return_to="review")

    review = client.get(step_url(draft_id, "review"))
    rows = {row.question.slug: row for row in review.context["setup_rows"]}
    assert set(rows) == set(EXPERT_SLUGS)
    assert rows["precision"].kept and not rows["batch"].kept
    page = review.content.decode()
    kept = page[page.index('id="review-precision"') :]
    kept = kept[: kept.index("</div>")]
    assert "Your answer, kept from the detailed questions" in kept and "FP8" in kept

    post_step(client, draft_id, "review", {})
    answers = Submission.objects.get().answers
    assert recommends_setup(answers)
    assert answers["precision"]["precision"] == "fp8"
    assert answers["batch"] == recommended_answer(get_question("batch"))
    built = build_engine_input(answers=answers)
    assert built.sources["training.precision"] == "customer"
    assert "precision" not in delegated_slugs(answers) and "batch" in delegated_slugs(answers)


def test_contact_details_are_still_asked_on_the_short_path(client):
    draft_id = walk_short_path(client)
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert CONTACT["company"] in page


def test_every_question_the_short_path_asks_names_its_main_parts():
    assert set(KEY_FIELDS) == set(ASKED_ON_SHORT_PATH)
    for slug, names in KEY_FIELDS.items():
        assert set(names) <= set(get_question(slug).form_class.answer_field_names()), slug


def test_the_short_path_folds_the_other_parts_and_opens_them_when_they_hold_an_answer(client):
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    page = client.get(step_url(draft_id, "model")).content.decode()
    folded = page[page.index('<details class="more-fields"') :]
    assert '<details class="more-fields">' in page  # closed
    assert "id_model-architecture_0" in folded and "id_model-model_name" not in folded
    assert "id_model-notes" in folded
    post_step(client, draft_id, "model", {"architecture": "moe"}, wizard_goto_step="discovery")
    page = client.get(step_url(draft_id, "model")).content.decode()
    assert '<details class="more-fields" open>' in page


def test_an_error_in_a_folded_part_opens_it(client):
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    response = post_step(client, draft_id, "model", {"active_params": "-3B"})
    page = response.content.decode()
    assert response.status_code == 200
    assert '<details class="more-fields" open>' in page


def test_the_detailed_path_shows_every_part_but_the_few_that_fit_some_projects(client):
    # issue 26: the active parameters, experts and experts per token of a mixture of experts
    # and the note fold away
    draft_id = start(client)
    page = client.get(step_url(draft_id, "model")).content.decode()
    shown = page[: page.index('<details class="more-fields">')]  # closed
    folded = page[page.index('<details class="more-fields">') :]
    for name in ("model_name", "architecture_0", "total_params"):
        assert f"id_model-{name}" in shown, name
    assert FOLDED_ON_DETAILED_PATH["model"] == ("active_params", "experts", "experts_per_token")
    for name in ("active_params", "experts", "experts_per_token", "notes"):
        assert f"id_model-{name}" in folded, name
    assert '<details class="more-about">' in page  # the explanations are folded for everyone
    # a question without such parts folds the note alone
    page = client.get(step_url(draft_id, "method")).content.decode()
    folded = page[page.index('<details class="more-fields">') :]
    assert "id_method-notes" in folded and "id_method-experiments" not in folded


def test_an_empty_discovery_page_reads_as_optional_on_the_review(client):
    draft_id = walk_to_review(client)
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "Not answered. This part is optional" in page
    assert "Let us choose the set-up for you" in page
    assert 'id="attention-title"' not in page  # nothing blocks sending


def test_the_short_path_numbers_its_questions_1_to_9_everywhere(client):
    # Reader 2: pages said "Question 1 of 8", the review 1, 2, 4, 5, 7, 13, 14, 15, and
    # "Answer it yourself: questions 3, 6, 8, 9, 10, 11 and 12".
    draft_id = walk_short_path(client)
    page = client.get(step_url(draft_id, "review")).content.decode()
    for number, slug in enumerate(ASKED_ON_SHORT_PATH, start=1):
        title = get_question(slug).title
        assert f'id="review-{slug}">{number}. {title}</h2>' in page
        assert f"your answer to question {number}, {title}" in page
    assert "questions 3, 6, 8" not in page
    assert 'Answer it yourself<span class="visually-hidden">: ' in page
    data = client.get(step_url(draft_id, "data")).content.decode()
    assert "Question 3 of 9" in data


def test_a_question_missing_on_the_short_path_is_named_by_its_number_on_that_path(client):
    draft_id = walk_short_path(client)
    draft = Draft.objects.get(pk=draft_id)
    draft.step_data = {k: v for k, v in draft.step_data.items() if k != "roadmap"}
    draft.save()
    page = client.get(step_url(draft_id, "review")).content.decode()
    roadmap = get_question("roadmap")
    assert f"Question 9, {roadmap.title}" in page
    assert f"Question {roadmap.number}," not in page


def test_the_home_and_welcome_pages_promise_what_each_path_asks(client):
    home = client.get(reverse("questionnaire:home")).content.decode()
    assert "Answer 9 to 15 questions" in home
    draft_id = start(client)
    welcome = client.get(step_url(draft_id, "welcome")).content.decode()
    assert "9 to 15 short questions" in welcome


def test_the_short_path_shows_the_teams_its_heading_asks_about(client):
    # Reader 2: "How many teams will use the hardware...?" with the teams field folded away.
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    page = client.get(step_url(draft_id, "teams")).content.decode()
    assert "How many teams will use the hardware" in page
    shown = page[: page.index('<details class="more-fields"')]
    assert 'id="id_teams-teams"' in shown and 'id="id_teams-concurrent_jobs"' in shown


AMD_ONLY = {"accelerator_vendor": "amd_only"}


def test_the_short_path_asks_the_maker_rule_unfolded(client):
    # Customer 7 and a bank's "NVIDIA only": the short path had no question about makers.
    draft_id = start(client)
    post_step(client, draft_id, DISCOVERY.slug, SHORT)
    page = client.get(step_url(draft_id, "software")).content.decode()
    shown = page[: page.index('<details class="more-fields"')]
    # the five makers' choices and no "not sure" of its own: the question's one sits below
    assert shown.count('name="software-accelerator_vendor"') == 5
    assert 'name="software-not_sure"' in shown
    assert 'id="id_software-frameworks_0"' not in shown  # the software parts fold away


def test_an_amd_only_buyer_on_the_short_path_is_sized_on_amd_from_the_first_estimate(client):
    # "Not sure" of the set-up and AMD only: the first estimate recommended NVIDIA.
    draft_id = start(client)
    post_step(client, draft_id, "welcome", {})
    post_step(client, draft_id, DISCOVERY.slug, {**SHORT, "setup_known": "not_sure"})
    for slug in ASKED_ON_SHORT_PATH:
        data = AMD_ONLY if slug == "software" else get_question(slug).example.data
        post_step(client, draft_id, slug, data)
    post_step(client, draft_id, "contact", CONTACT)
    page = client.get(step_url(draft_id, "review")).content.decode()
    start_at = page.index('class="first-estimate-figures"')
    figures = page[start_at : page.index("</p>", start_at)]
    assert "AMD" in figures and "NVIDIA" not in figures
    answers, missing = collect_answers(Draft.objects.get(pk=draft_id))
    assert not missing and recommends_setup(answers)
    built = build_engine_input(answers=answers)
    assert built.engine_input["hardware"]["vendors"] == ["amd"]
    assert built.sources["hardware.vendors"] == "customer"
