"""The answer trace in the proposal: what the customer told us that no engine input carries.

Each answer field declares its role in the question registry (``questionnaire/roles.py``).
Answers that feed the engine appear in each section's "What you told us" table through the
engine's input; this module adds, to the section each question belongs to, every answered
*requirement* with how the plan honours it (one function per field, reading the engine's
result) and every *noted* answer with why it does not change the sizing. It also gives the
proposal's open questions: answers that disagree (``sizing.adapters.answer_conflicts``) and
requirements the plan does not meet, then the engine's questions, leaving out any the customer
already answered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from questionnaire.fields import AnswerFieldMixin, DateAnswerField, QuantityField
from questionnaire.paths import delegated_slugs
from questionnaire.quantities import BASE_UNITS
from questionnaire.questions import QUESTIONS, get_question
from questionnaire.roles import Feeds, Noted
from reports.answer_checks import HONOURS, Answer
from sizing.public import (
    ASK_DATA_READY,
    NOT_GIVEN,
    Conflict,
    StoredResult,
    answer_conflicts,
    build_engine_input,
    format_quantity,
    open_question,
)

# The proposal section (an engine result area) each question's answers belong to.
AREA_OF_QUESTION: dict[str, str] = {
    "model": "compute",
    "method": "compute",
    "timeline": "compute",
    "precision": "memory",
    "batch": "parallelism",
    "parallelism": "parallelism",
    "teams": "cluster",
    "network": "network",
    "data": "storage",
    "storage": "storage",
    "preprocessing": "hosts",
    "resilience": "resilience",
    "software": "deployment",
    "deployment": "deployment",
    "roadmap": "cost",
}

# Answers that feed the engine and still need a sentence of their own (the engine input alone
# would not say it): the first-results date, which sizes the cluster only without a run time,
# the storage the customer owns, with what the plan keeps on it, their link speed against
# the one the plan recommends, the spare servers they asked for (or not) with the count, and
# the training phases, which count the runs only when no experiments are given.
MENTIONED_FEEDS = (
    "method.phases",
    "timeline.deadline",
    "storage.existing_storage",
    "network.link_speed_gbps",
    "resilience.spare_nodes",
)

# The engine's open questions, each with the answers (``slug.field``) that answer it.
ANSWERED_BY: dict[str, tuple[str, ...]] = {
    "Which model (or at least how many parameters) will you train?": (
        "model.model_name",
        "model.total_params",
    ),
    "How many parameters are active per token?": ("model.active_params",),
    "How many experts does the MoE model have, and how many per token?": (
        "model.experts",
        "model.experts_per_token",
    ),
    "Pre-training, full fine-tuning or LoRA/QLoRA?": ("method.method",),
    "Which precision (BF16 is assumed)?": ("precision.precision",),
    "How many full runs (phases, repeats, ablations) are planned?": (
        "method.experiments",
        "method.phases",
    ),
    "What sequence length (context) will you train at?": ("batch.sequence_length",),
    "How many training tokens (or samples and their length) per epoch?": ("data.dataset_size",),
    "What global batch size?": ("batch.global_batch",),
    "By when must one run finish?": ("timeline.run_time_hours", "timeline.deadline"),
    "How many jobs must run at the same time?": ("teams.concurrent_jobs",),
    "InfiniBand or Ethernet (RoCE) between nodes?": ("network.fabric",),
    "What network oversubscription can you tolerate (1:1 non-blocking is assumed)?": (
        "network.oversubscription",
    ),
    "How much compute may one failure lose?": ("resilience.max_lost_hours",),
    "On-premises, colocation or cloud: is any excluded?": ("deployment.location",),
    "Must the training data stay in a region or on your own premises?": (
        "deployment.data_residency",
    ),
    "Who operates the cluster day to day (drivers, scheduler, failures)?": ("roadmap.operations",),
    "Is the data ready and cleaned, or will data preparation run while the hardware waits?": (
        "preprocessing.online_steps",
    ),
    "How many training runs a month do you expect once running, and how long is each?": (
        "roadmap.future_runs_per_month",
        "timeline.runs_per_month",
    ),
}


NOTES_READ = "Our engineer reads this with your answers before the quotation."


@dataclass(frozen=True)
class ToldLine:
    """One answer in a section: its label, the answer as every page shows it, what we do."""

    label: str
    answer: str
    what_we_do: str
    kind: str  # the role's name (questionnaire.roles)


def _answer_of(answers: Mapping[str, Any], slug: str) -> dict[str, Any]:
    answer = answers.get(slug)
    return answer if isinstance(answer, dict) else {}


def _field(slug: str, name: str) -> AnswerFieldMixin:
    field = get_question(slug).form_class.base_fields[name]
    assert isinstance(field, AnswerFieldMixin)
    return field


def label_of(slug: str, name: str) -> str:
    """A field's label as the proposal names it (without the form's "(optional)")."""
    return str(_field(slug, name).label).removesuffix(" (optional)")


def answer_text(answers: Mapping[str, Any], slug: str, name: str) -> str | None:
    """The customer's answer to one field as the review page shows it; None when not given
    (empty, or "not sure")."""
    answer = _answer_of(answers, slug)
    value = answer.get(name)
    if value in NOT_GIVEN and value not in ("no_preference", "other"):
        return None
    shown = _field(slug, name).answer_text(name, answer)
    if shown is None or shown[1]:
        return None
    return shown[0]


def own_answer(path: str, answers: Mapping[str, Any]) -> str | None:
    """The customer's answer when the engine input at ``path`` only restates that one answer
    in the engine's terms (a run time in days from "12 hours", a growth rate from "30 %",
    air-gapped from "no internet connection"); None when the value is worked out from more
    than one answer (documents times their length; a date, which needs today) or the answer
    was not given.

    A quantity comes back as they typed it when that carries its unit ("12 hours"); any other
    answer (a choice, a bare number) as "": theirs, told in the engine input's own words."""
    for question in QUESTIONS:
        for name in question.form_class.answer_field_names():
            field = _field(question.slug, name)
            role = field.does
            restates = isinstance(role, Feeds) and role.inputs == (path,) and not role.when
            if restates and not isinstance(field, DateAnswerField):
                shown = answer_text(answers, question.slug, name)
                if shown is None:
                    continue
                with_unit = any(c.isalpha() or c == "%" for c in shown)
                return shown if isinstance(field, QuantityField) and with_unit else ""
    return None


def told_lines(area: str, answers: Mapping[str, Any], result: StoredResult) -> list[ToldLine]:
    """The requirement and noted answers of the questions of ``area``, in registry order."""
    lines: list[ToldLine] = []
    for question in QUESTIONS:
        if AREA_OF_QUESTION.get(question.slug) != area:
            continue
        answer = _answer_of(answers, question.slug)
        for name in question.form_class.answer_field_names():
            field = _field(question.slug, name)
            key = f"{question.slug}.{name}"
            shown = answer_text(answers, question.slug, name)
            role = field.does
            if shown is None or role is None:
                continue
            if isinstance(role, Feeds) and key not in MENTIONED_FEEDS:
                continue
            if isinstance(role, Noted):
                what = role.reason
            else:
                honour = HONOURS[key](Answer(answer, answers), result)
                if not honour.sentence:
                    continue
                what = honour.sentence
            lines.append(ToldLine(label_of(question.slug, name), shown, what, role.role))
        if str(answer.get("notes") or "").strip():
            # The "anything else" box: quoted in the section it belongs to, so the proposal
            # needs no appendix repeating every answer.
            lines.append(
                ToldLine(
                    f"Anything else (question {question.number})",
                    str(answer["notes"]),
                    NOTES_READ,
                    "noted",
                )
            )
    return lines


def conflict_text(conflict: Conflict, answers: Mapping[str, Any]) -> str:
    """One disagreement as an open question naming both answers and where they were given."""
    named = []
    for slug, name in conflict.answers:
        question = get_question(slug)
        shown = _conflicting_value(answers, slug, name)
        named.append(
            f"“{label_of(slug, name)}” is {shown} "
            f"(question {question.number}, {question.title.lower()})"
        )
    return f"Your answers differ: {' and '.join(named)}; {conflict.used}. {conflict.ask}"


# Only these units read better through our formatter than as typed ("0.01 hours" is "1 minute",
# "500,000 GB" is "500 TB"); a percentage or a count is said as typed.
_REFORMATTED_UNITS = ("hours", "GB", "GB/s")


def _conflicting_value(answers: Mapping[str, Any], slug: str, name: str) -> str:
    """One of two answers that disagree, in a sentence of ours: a duration or a size in the
    unit that reads best (what the customer typed is quoted where their answers are told)."""
    field = _field(slug, name)
    value = _answer_of(answers, slug).get(name)
    if isinstance(field, QuantityField) and isinstance(value, int | float):
        unit = BASE_UNITS[field.kind]
        if unit in _REFORMATTED_UNITS:
            return format_quantity(value, unit)
    return answer_text(answers, slug, name) or ""


def customer_sources(answers: Mapping[str, Any], sources: Mapping[str, str]) -> dict[str, str]:
    """``sources`` as the customer lived them: an input of a set-up question they left to us
    on the short path (never shown to them) is "delegated", not their "not sure"."""
    delegated = delegated_slugs(answers)
    if not delegated:
        return dict(sources)
    question_of = build_engine_input(answers=dict(answers)).question_of
    return {
        path: "delegated" if source == "not_sure" and question_of.get(path) in delegated else source
        for path, source in sources.items()
    }


def _delegated(question: str, answers: Mapping[str, Any]) -> bool:
    """An engine question only set-up questions the customer left to us would answer (not
    whether the data is ready: a customer knows that without knowing the set-up)."""
    if question == ASK_DATA_READY:
        return False
    keys = ANSWERED_BY.get(question, ())
    delegated = delegated_slugs(answers)
    return bool(keys) and all(key.split(".", 1)[0] in delegated for key in keys)


def delegated_questions(*, answers: Mapping[str, Any], result: StoredResult) -> list[str]:
    """The engine's questions about the set-up the customer asked us to choose: for our
    engineer to settle, not to ask of the customer."""
    return list(
        dict.fromkeys(
            open_question(q, result) for q in result.open_questions if _delegated(q, answers)
        )
    )


def _answered(question: str, answers: Mapping[str, Any]) -> bool:
    return any(
        answer_text(answers, *key.split(".", 1)) is not None
        for key in ANSWERED_BY.get(question, ())
    )


def open_questions(
    *,
    answers: Mapping[str, Any],
    result: StoredResult,
    today: date,
) -> list[str]:
    """Disagreeing answers first, then unmet requirements, then the engine's questions that
    the customer has not answered (each once), leaving out those about a set-up they asked us
    to choose (``delegated_questions``)."""
    questions = [
        conflict_text(conflict, answers)
        for conflict in answer_conflicts(answers=dict(answers), today=today)
    ]
    for key, honour in HONOURS.items():
        slug, name = key.split(".", 1)
        if answer_text(answers, slug, name) is None:
            continue
        asked = honour(Answer(_answer_of(answers, slug), answers), result).question
        if asked:
            questions.append(asked)
    questions += [
        open_question(q, result)
        for q in result.open_questions
        if not _answered(q, answers) and not _delegated(q, answers) and not _moot(q, result)
    ]
    return list(dict.fromkeys(questions))


def _moot(question: str, result: StoredResult) -> bool:
    """A question the plan makes idle: which network between servers, or how much it may be
    oversubscribed, when each run fits in one server and no fast network is bought (customer 3 was asked "InfiniBand or Ethernet
    (RoCE) between nodes?" beside "No network between servers needed")."""
    paths = ANSWERED_BY.get(question, ())
    about_network = any(path.startswith("network.") for path in paths)
    return about_network and not result.section("network").get("nic_gbps")
