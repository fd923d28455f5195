"""The proposal repeats and honours what the customer told us, and asks only what is open.

Rendered to HTML (no PDF) from the demo answers with some answers changed, as a customer who
gave them would see the proposal.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questionnaire.demo import SCENARIOS
from questionnaire.fields import CheckboxesAnswerField, RadioAnswerField
from questionnaire.questions import QUESTIONS
from questionnaire.roles import Noted, Requirement
from questionnaire.trace_doc import fields_with_roles
from reports.answer_checks import HONOURS
from reports.answer_trace import (
    ANSWERED_BY,
    MENTIONED_FEEDS,
    answer_text,
    label_of,
    open_questions,
    told_lines,
)
from reports.demo import demo_data
from reports.document import build_context
from sizing.stored_result import read_result
from tests.reports.factories import edited_answers

TODAY = datetime.date(2026, 12, 1)
ENGINE_SOURCE = "".join(
    path.read_text() for path in (Path(__file__).parents[2] / "sizing" / "engine").rglob("*.py")
)


def _context(answers: dict[str, Any]) -> dict[str, Any]:
    return build_context(demo_data(answers=answers, today=TODAY))


def _text(answers: dict[str, Any]) -> str:
    """The proposal's words up to its glossary (which defines every term, asked for or not)."""
    html = render_to_string("reports/proposal.html", _context(answers))
    html = html.split('id="glossary"')[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _told(context: dict[str, Any], area: str) -> dict[str, str]:
    section = next(s for s in context["sections"] if s["key"] == area)
    return {line.label: line.what_we_do for line in section["told_answers"]}


def test_every_requirement_has_a_sentence_saying_how_the_plan_honours_it() -> None:
    requirements = {
        f"{slug}.{name}"
        for slug, name, _l, role in fields_with_roles()
        if isinstance(role, Requirement)
    }
    assert requirements <= set(HONOURS)
    assert set(HONOURS) <= requirements | set(MENTIONED_FEEDS)


def test_every_requirement_and_noted_answer_of_the_demo_appears_in_its_section() -> None:
    context = _context(edited_answers())
    sections = [*context["sections"], context["cost_section"]]  # the cost chapter is no area
    shown = {line.label for s in sections for line in s["told_answers"]}
    answers = context["data"].answers
    for slug, name, _label, role in fields_with_roles():
        value = answers.get(slug, {}).get(name)
        given = value not in (None, "", [], "not_sure")
        if given and isinstance(role, Requirement | Noted):
            assert label_of(slug, name) in shown, f"{slug}.{name} is answered but not shown"


def test_a_slurm_customer_reads_slurm_and_never_kubernetes() -> None:
    text = _text(edited_answers(teams={"teams": 3, "concurrent_jobs": 4, "scheduler": "slurm"}))
    assert "Slurm, as you chose" in text
    assert "Kubernetes" not in text.replace("Slurm or Kubernetes", "")


def test_a_customer_who_tokenises_during_training_is_not_told_pre_tokenised_data() -> None:
    text = _text(edited_answers(preprocessing={"online_steps": ["tokenisation"]}))
    assert "pre-tokenised" not in text
    assert "during training" in text


def test_existing_netapp_storage_is_named_and_used() -> None:
    answers = edited_answers(
        storage={
            "existing_storage": "shared_fs",
            "existing_storage_details": "NetApp NFS, 40 TB",
            "not_sure": False,
        }
    )
    text = _text(answers)
    assert "NetApp NFS, 40 TB" in text
    assert "raw data and datasets at rest on your existing shared file system" in text


def test_the_first_results_date_is_mentioned_with_what_it_means() -> None:
    lines = _told(_context(edited_answers(timeline={"deadline": "2027-03-31"})), "compute")
    assert "One run takes about" in lines["First results needed by"]


def test_the_parallelism_answers_change_the_parallelism_section() -> None:
    answers = edited_answers(
        parallelism={
            "strategies": ["data"],
            "existing_distributed_code": "no",
            "orchestration": "Ray",
        }
    )
    lines = _told(_context(answers), "parallelism")
    assert "it adds" in lines["Kinds of parallelism you use or plan"]
    assert "must first learn to train across machines" in " ".join(lines.values())
    assert "Jobs start with Ray under" in lines["Tool that starts your distributed jobs"]


def test_the_network_answers_appear_in_the_network_section() -> None:
    answers = edited_answers(
        network={"rdma": "yes", "nvlink_needed": "yes", "link_speed_gbps": 200}
    )
    context = _context(answers)
    section = next(s for s in context["sections"] if s["key"] == "network")
    told = {label: value for label, value, _source in section["told"]}
    assert told["Link speed per accelerator"] == "200 Gb/s"
    assert "RDMA" in _told(context, "network")["Do you need RDMA?"]
    assert (
        "NVLink" in _told(context, "network")["Do you need NVLink or NVSwitch inside each server?"]
    )


def test_the_vendor_preference_changes_the_accelerator() -> None:
    nvidia = read_result(
        _context(edited_answers(software={"accelerator_vendor": "nvidia_only"}))["data"].result
    )
    amd = read_result(
        _context(edited_answers(software={"accelerator_vendor": "amd_only"}))["data"].result
    )
    assert "NVIDIA" in nvidia.accelerator_name
    assert "AMD" in amd.accelerator_name


def test_conflicting_answers_become_an_open_question_naming_both() -> None:
    answers = edited_answers(
        method={
            "method": "lora",
            "phases": 3,
            "phases_text": "3",
            "experiments": 2,
            "experiments_text": "2",
            "not_sure": False,
        },
    )
    asked = _context(answers)["open_questions"]
    conflict = next(q for q in asked if "Your answers differ" in q)
    assert "Experiments or runs you expect" in conflict and "question 2" in conflict
    assert "Training phases" in conflict
    assert "2 full runs" in conflict


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_an_answered_question_never_becomes_an_open_question(scenario) -> None:
    answers = {}
    for question in QUESTIONS:
        form = question.form_class(data=scenario.answers.get(question.slug, {"not_sure": "on"}))
        assert form.is_valid(), form.errors
        answers[question.slug] = form.to_answer()
    asked = _context(answers)["open_questions"]
    for question, fields in ANSWERED_BY.items():
        answered = any(
            answers[slug].get(name) not in (None, "", [], "not_sure")
            for slug, name in (key.split(".", 1) for key in fields)
        )
        if answered:
            assert question not in asked, f"{scenario.key}: asked {question!r} though answered"


def test_who_operates_the_cluster_is_not_asked_when_answered() -> None:
    asked = _context(edited_answers(roadmap={"operations": "some"}))["open_questions"]
    assert not any("operates the cluster" in q for q in asked)


def test_every_engine_question_the_filter_knows_is_one_the_engine_asks() -> None:
    for question in ANSWERED_BY:
        assert question in ENGINE_SOURCE.replace('"\n        "', "").replace('" "', ""), question


def test_an_unmet_requirement_is_asked_about() -> None:
    result = read_result(_context(edited_answers())["data"].result)
    answers = edited_answers(
        batch={
            "max_global_batch": 1000,
            "max_global_batch_text": "1000",
            "global_batch_unit": "tokens",
        }
    )
    asked = open_questions(answers=answers, result=result, today=TODAY)
    assert any("larger than the 1,000 your training accepts" in q for q in asked)


def test_noted_answers_say_why_they_do_not_change_the_sizing() -> None:
    answers = edited_answers(batch={"gradient_accumulation": 8, "gradient_accumulation_text": "8"})
    lines = told_lines("parallelism", answers, read_result({}))
    noted = [line for line in lines if line.label == "Gradient accumulation steps"]
    assert noted and "our engineer" in noted[0].what_we_do.lower()


def _choice_answers() -> st.SearchStrategy[dict[str, Any]]:
    """The demo answers with every choice field answered at random (or left empty)."""
    edits: dict[str, dict[str, st.SearchStrategy[Any]]] = {}
    for question in QUESTIONS:
        for name in question.form_class.answer_field_names():
            field = question.form_class.base_fields[name]
            if isinstance(field, CheckboxesAnswerField):
                keys = [key for key, _ in field.choices]
                strategy: st.SearchStrategy[Any] = st.lists(
                    st.sampled_from(keys), unique=True, max_size=3
                ).map(lambda chosen, keys=keys: [k for k in keys if k in chosen])
            elif isinstance(field, RadioAnswerField):
                strategy = st.sampled_from(["", *(key for key, _ in field.choices)])
            else:
                continue
            edits.setdefault(question.slug, {})[name] = strategy
    return st.fixed_dictionaries(
        {slug: st.fixed_dictionaries(fields) for slug, fields in edits.items()}
    ).map(lambda chosen: edited_answers(**chosen))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers=_choice_answers())
def test_generated_answers_are_never_asked_again(answers: dict[str, Any]) -> None:
    asked = _context(answers)["open_questions"]
    for question, fields in ANSWERED_BY.items():
        if any(answer_text(answers, *key.split(".", 1)) for key in fields):
            assert question not in asked
