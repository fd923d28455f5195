"""On the short path the set-up questions are never shown: the proposal says we chose them,
never that the customer was unsure of them, and does not ask the customer about them."""

from __future__ import annotations

import datetime
import re

from questionnaire.paths import recommended_answer
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, get_question
from reports.demo import demo_answers, demo_data
from reports.document import build_context, render_html

TODAY = datetime.date(2026, 12, 1)


def _short_path(setup_known: str = "no") -> dict:
    form = DISCOVERY.form_class(data={**DISCOVERY.example.data, "setup_known": setup_known})
    assert form.is_valid(), form.errors
    answers = {**demo_answers(), DISCOVERY.slug: form.to_answer()}
    for slug in EXPERT_SLUGS:
        answers[slug] = recommended_answer(get_question(slug))
    return answers


def _data(answers: dict):
    return demo_data(answers=answers, today=TODAY)


def test_set_up_rows_left_to_us_are_marked_we_chose_not_not_sure():
    context = build_context(_data(_short_path()))
    rows = {row["key"]: row for row in context["assumptions"]}
    precision = rows["training.precision"]
    assert precision["delegated"] and not precision["not_sure"]
    assert not any(row["not_sure"] for row in context["assumptions"])
    assert not context["assumptions_not_sure"]


def test_set_up_left_to_us_is_not_asked_of_the_customer():
    context = build_context(_data(_short_path()))
    asked = " ".join(context["open_questions"])
    for question in (
        "Which precision (BF16 is assumed)?",
        "What global batch size?",
        "InfiniBand or Ethernet (RoCE) between nodes?",
        "What sequence length (context) will you train at?",
    ):
        assert question not in asked
    # whether the data is ready is the customer's to say, set-up or not
    assert "Is the data ready and cleaned" in asked


def test_the_detailed_path_still_asks_about_the_set_up():
    answers = {**demo_answers(), "precision": recommended_answer(get_question("precision"))}
    context = build_context(_data(answers))
    assert "Which precision (BF16 is assumed)?" in context["open_questions"]
    rows = {row["key"]: row for row in context["assumptions"]}
    assert rows["training.precision"]["not_sure"]


def test_not_sure_who_knows_the_set_up_is_not_told_back_as_no_one():
    html = re.sub(r"\s+", " ", render_html(demo_data(answers=_short_path("not_sure"), today=TODAY)))
    assert "You told us no one on your team knows the training set-up" not in html
    assert "You were not sure whether anyone on your team knows the training set-up" in html


def test_the_global_batch_left_to_us_is_marked_like_the_rest_of_its_question():
    rows = {row["key"]: row for row in build_context(_data(_short_path()))["assumptions"]}
    assert rows["batch.global_batch_tokens"]["delegated"]


def _body(setup_known: str) -> str:
    """The proposal from its summary to the open questions (the engineer's tables follow)."""
    html = render_html(demo_data(answers=_short_path(setup_known), today=TODAY))
    body = html[html.index('id="summary"') : html.index('id="assumptions"')]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_told_no_one_knows_the_set_up_the_proposal_body_speaks_plainly():
    # customer 8 ("No idea about models or GPUs") read "ZeRO/FSDP sharding, 1 sequence per
    # micro-batch", "Scheduler Slurm", "Assumed efficiency (MFU)" and "Local NVMe per node"
    jargon = (
        "ZeRO",
        "FSDP",
        "micro-batch",
        "Scheduler Slurm",
        "Scheduling:",
        "MFU",
        "FLOPs",
        "Local NVMe per node",
        "PCIe generation",
    )
    plain = _body("no")
    assert [word for word in jargon if word in plain] == []
    assert "“What we assumed” lists each choice" in plain
    # not sure who knows it: the engineering words stay, for whoever reads them
    assert "micro-batch" in _body("not_sure")
