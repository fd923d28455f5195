"""``docs/answers.md``: what each answer field does, written from the question registry.

Each field's role is declared next to it (``does=``, see ``questionnaire/roles.py``); the rules
for engine inputs fed by several answers are ``sizing.adapters.SHARED_INPUTS``. Regenerate with
``python manage.py answers_doc``; a test fails when the file is stale.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from questionnaire.fields import AnswerFieldMixin
from questionnaire.paths import KEY_FIELDS
from questionnaire.questions import PAGES, get_question, plain
from questionnaire.roles import FEEDS, NOTED, REQUIREMENT, Feeds, Noted, Requirement, Role
from sizing.public import (
    SHARED_INPUTS,
)

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "answers.md"

_INTRO = """\
# What each answer does

Generated from the question registry (`questionnaire/questions.py` and the forms under
`questionnaire/forms/`: the `does=` of each field) and the rules of `sizing/adapters.py`.
Do not edit by hand: regenerate with `python manage.py answers_doc`
(`python manage.py answers_doc --check` says whether it is stale; a test fails when it is).

Every answer field has one of three roles (`questionnaire/roles.py`):

- **{feeds}**: the answer reaches these engine inputs (`docs/engine-contract.md`) through
  `sizing/adapters.py`; a test sizes a real answer and checks that it does.
- **{requirement}**: the proposal repeats the answer in its section and says how the plan
  honours it (`reports/answer_checks.py`); where the plan falls short, it asks an open question.
- **{noted}**: the proposal repeats the answer for our engineer, with the reason it does not
  change the sizing.

"""


def _what(role: Role) -> str:
    if isinstance(role, Feeds):
        inputs = ", ".join(f"`{path}`" for path in role.inputs)
        needs = [
            " and ".join(_given(name, value) for name, value in alt.items())
            for alt in role.when
            if alt
        ]
        also = f". {role.also}" if role.also else ""
        return inputs + (f" (with {' or '.join(needs)})" if needs else "") + also
    if isinstance(role, Requirement):
        return role.honoured_by
    assert isinstance(role, Noted)
    return role.reason


def _given(name: str, value: Any) -> str:
    """``architecture`` = "moe" for a choice; a number (a test's sample) only names the field."""
    return f'`{name}` = "{value}"' if isinstance(value, str) else f"`{name}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def fields_with_roles() -> list[tuple[str, str, str, Role | None]]:
    """(question slug, field name, label, role) for every answer field, in registry order."""
    rows = []
    for question in PAGES:
        for name in question.form_class.answer_field_names():
            field = question.form_class.base_fields[name]
            assert isinstance(field, AnswerFieldMixin)
            rows.append((question.slug, name, str(field.label), field.does))
    return rows


def answers_markdown() -> str:
    """The whole of ``docs/answers.md``."""
    rows = fields_with_roles()
    counts = Counter(role.role for *_, role in rows if role is not None)
    parts = [
        _INTRO.format(feeds=FEEDS, requirement=REQUIREMENT, noted=NOTED),
        f"{len(rows)} answer fields: {counts[FEEDS]} feed the engine, {counts[REQUIREMENT]} "
        f"{REQUIREMENT}s, {counts[NOTED]} {NOTED}. Every question also has one “not sure” "
        "box, which covers each part left empty (no part has a “not sure” of its own), and a "
        "free-text note, which the proposal shows under “Your answers” and our engineer "
        "reads.\n",
        _paths_markdown(),
    ]
    for question in PAGES:
        number = f"{question.number}. " if question.number else ""
        parts.append(f"\n## {number}{plain(question.title)}\n\n")
        parts.append("| Field | Answer | Role | What it does |\n| --- | --- | --- | --- |\n")
        for slug, name, label, role in rows:
            if slug != question.slug:
                continue
            kind = role.role if role is not None else "**none**"
            what = _what(role) if role is not None else ""
            parts.append(f"| `{slug}.{name}` | {_cell(label)} | {kind} | {_cell(what)} |\n")
    parts.append(
        "\n## Engine inputs fed by more than one answer\n\n"
        "Each has a stated rule. Where the answers can disagree, the proposal asks an open "
        "question naming both answers and says what the sizing used.\n\n"
        "| Engine input | Answers | Rule |\n| --- | --- | --- |\n"
    )
    for shared in SHARED_INPUTS:
        answers = ", ".join(f"`{answer}`" for answer in shared.answers)
        parts.append(f"| `{shared.path}` | {answers} | {_cell(shared.rule)} |\n")
    return "".join(parts)


_TIME = """
### How long each path takes

A browser walk counts, page by page as it opens, the words a sighted reader sees and the fields
they see, and adds the fields it fills and the characters it types
(`tests/e2e/answering_time.py`). Words are read at 238 a minute, the average silent reading
rate of adult non-fiction readers (Brysbaert 2019, *Journal of Memory and Language* 109,
104047). Fields follow the keystroke-level model (Card, Moran and Newell 1980, *Communications
of the ACM* 23(7)): 1.35 s to decide each field seen, 1.3 s to point and click each one filled,
0.4 s to move a hand to the keyboard and 0.28 s a character for each one typed, and 2.65 s for
each page's “Continue”. A closed “More detail” is a decision too (whether to open it), and on
a page that lists the answers read from the customer's words or file each answer's box is one.

| Path | Walk | Promise | Measured (5 December 2026) |
| --- | --- | --- | --- |
| Short | a hospital that knows its goal, not the set-up, its sentence's answers checked (`tests/e2e/test_non_expert_path.py`) | 10 minutes, asserted | 1,461 words, 56 fields seen, 20 filled, 281 characters: 9.9 minutes |
| Detailed | an engineer answering every question with the registry's examples, its sentence's answers checked and a training recipe uploaded (`tests/e2e/test_answering_time.py`) | 20 minutes, asserted, with the recipe and with everything typed | 2,968 words (264 of them the upload and check pages), 125 fields seen, 59 filled: 19.7 minutes; 18.9 with everything typed |

On the detailed path every part shows unfolded but a few that fit only some projects, which fold
under “More detail” with the note (`paths.FOLDED_ON_DETAILED_PATH`): the active parameters of a
mixture of experts, the size of one sample on disk, the largest global batch, a preferred
accelerator, NVLink inside a server and the memory for data loading.
"""


def _paths_markdown() -> str:
    """The short path's questions and the parts each shows unfolded (``paths.KEY_FIELDS``),
    what switching path does, and how long each path takes."""
    lines = [
        "\n## The two paths\n\n",
        "The discovery page's last answer chooses the path. With “no” or “not sure”, the six "
        "set-up questions are skipped and we recommend them; each other question shows the "
        "parts that change the answer unfolded, and folds the rest under “More detail”:\n\n",
        "| Question | Parts asked in the open on the short path |\n| --- | --- |\n",
    ]
    for slug, names in KEY_FIELDS.items():
        form = get_question(slug).form_class
        labels = "; ".join(_cell(str(form.base_fields[name].label)) for name in names)
        lines.append(
            f"| {get_question(slug).number}. {plain(get_question(slug).title)} | {labels} |\n"
        )
    lines.append(
        "\nSwitching from the detailed path to the short one keeps every set-up answer already "
        "given: it is used and shown on the review page as the customer's "
        "(`questionnaire/paths.py`, `setup_answer`); only the set-up questions left unanswered "
        "or “not sure” are recommended by us.\n"
    )
    lines.append(_TIME)
    return "".join(lines)
