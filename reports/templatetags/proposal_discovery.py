"""The proposal's opening: the project in the customer's words, and what we chose for them.

Reads the discovery page's answer (``questionnaire/questions.py``: ``DISCOVERY``) from the
proposal's own data; on the short path ("no one knows the set-up", ``questionnaire/paths.py``)
it adds what the engine chose for each set-up question, from the stored result, sized once.
"""

from __future__ import annotations

from typing import Any

from django import template

from questionnaire.fields import AnswerFieldMixin
from questionnaire.paths import recommends_setup, setup_unknown, setup_unsure
from questionnaire.questions import DISCOVERY, EXPERT_SLUGS, get_question, plain
from sizing.public import (
    build_engine_input,
    constraint_effects,
    discovery_questions,
    setup_decisions,
)

register = template.Library()

# The project in one sentence opens the proposal, quoted; then the other parts, in this order
# (the path choice is not quoted: the set-up list below says what it did).
_SENTENCE = "use_case"
_QUOTED = ("decider", "runs_training", "constraint", "success")


@register.simple_tag
def discovery_brief(data: Any) -> dict[str, Any] | None:
    """What ``reports/_discovery.html`` shows; None for answers without a discovery page, or
    with one that says nothing."""
    answers = dict(data.answers or {})
    discovery = answers.get(DISCOVERY.slug)
    if not isinstance(discovery, dict):
        return None
    sentence = str(discovery.get(_SENTENCE) or "").strip()
    facts = []
    for name in _QUOTED:
        field = DISCOVERY.form_class.base_fields[name]
        assert isinstance(field, AnswerFieldMixin)
        shown = field.answer_text(name, discovery)
        if shown is not None:
            facts.append((str(field.label), shown[0]))
    decided = []
    # told that no one knows the set-up, they read that we chose it, not its engineering names
    # ("ZeRO-2", "global batch"): "What we assumed" lists each choice for their engineer
    if recommends_setup(answers) and not setup_unknown(answers):
        question_of = build_engine_input(answers=answers, today=data.issued_on).question_of
        lines = setup_decisions(data.result, data.input_sources, question_of, EXPERT_SLUGS)
        decided = [
            (plain(get_question(slug).title), [str(line) for line in lines[slug]])
            for slug in EXPERT_SLUGS
            if slug in lines
        ]
    brief = {
        "sentence": sentence,
        "facts": facts,
        "effects": constraint_effects(answers),
        "questions": discovery_questions(answers),
        "recommend": recommends_setup(answers),
        "setup_unsure": setup_unsure(answers),
        "decided": decided,
    }
    # A discovery page left empty is optional, not a gap: the summary then opens with the
    # recommendation, never with "you did not tell us about your project", which read as a
    # reproach beside the paragraphs the customer wrote on the questions themselves.
    return (
        brief
        if any(brief[key] for key in ("sentence", "facts", "effects", "questions", "recommend"))
        else None
    )
