"""The review page says what we will assume where the customer is not sure."""

import re

import pytest

from questionnaire.questions import DISCOVERY, get_question
from sizing.adapters import assumed_for_unsure_answers
from tests.questionnaire.conftest import step_url, walk_to_review

pytestmark = pytest.mark.django_db


def test_a_not_sure_precision_question_shows_the_assumed_precision_and_optimizer(client):
    draft_id = walk_to_review(client, {"precision": {"not_sure": "on"}})
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "We will assume number precision: BF16; optimizer: AdamW." in page


def test_answered_questions_get_no_assumption_note():
    assumed = assumed_for_unsure_answers(
        {"precision": {"precision": "fp16", "optimizer": "adamw", "not_sure": False}}
    )
    assert "precision" not in assumed


def test_every_question_answered_not_sure_gets_an_assumption_where_the_engine_has_one():
    from questionnaire.questions import QUESTIONS

    assumed = assumed_for_unsure_answers({q.slug: {"not_sure": True} for q in QUESTIONS})
    assert assumed["model"] == ["model size: 7 billion parameters"]
    assert "time you allow for one run: 30 days" in assumed["timeline"]
    assert set(assumed) <= {q.slug for q in QUESTIONS}


def test_not_sure_about_accelerator_makers_says_every_maker_is_compared():
    assumed = assumed_for_unsure_answers({"software": {"not_sure": True}})
    assert "accelerator makers: Any maker" in assumed["software"]


@pytest.mark.parametrize(
    ("constraint", "slug", "field", "label"),
    [
        ("budget", "resilience", "spare_nodes", "spare"),
        # "data_location" -> hardware yours alone is the same case; its rule is being changed,
        # so it is not pinned here.
    ],
)
def test_a_part_left_open_that_the_project_decides_is_not_also_a_typical_value(
    client, constraint, slug, field, label
):
    # Reader 2: "we only consider hardware that is yours alone" under "About your project",
    # and a few lines lower the same part: "Not sure yet. We will assume a typical value".
    answers = {
        DISCOVERY.slug: {**DISCOVERY.example.data, "setup_known": "no", "constraint": constraint},
        slug: {**get_question(slug).example.data, field: "not_sure"},
    }
    draft_id = walk_to_review(client, answers)
    page = client.get(step_url(draft_id, "review")).content.decode()
    assert "So where you left it open" in page
    row = re.search(rf"<dt>[^<]*{label}[^<]*</dt>\s*<dd>(.*?)</dd>", page, re.S)
    assert row, label
    assert "Not sure yet" in row.group(1)
    assert "typical value" not in row.group(1)
    assert "Set by what matters most to you" in row.group(1)


def test_a_question_left_open_as_a_whole_points_to_the_rule_the_project_sets(client):
    answers = {
        DISCOVERY.slug: {**DISCOVERY.example.data, "setup_known": "no", "constraint": "budget"},
        "resilience": {"not_sure": "on"},
    }
    draft_id = walk_to_review(client, answers)
    page = client.get(step_url(draft_id, "review")).content.decode()
    section = page[page.index('id="review-resilience"') : page.index('id="review-deployment"')]
    assert "Apart from the rule above, we will assume typical values" in section
    assert "We will assume a typical value and" not in section
