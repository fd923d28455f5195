"""CSV export of submissions: one row each, with the labels and units of the PDF.

The fixed columns come first (who, where it stands, the recommendation, its cost in words and
as numbers with the currency in a column of its own, the status history and the notes), then
every answer under "<number>. <question>: <field>", as the proposal's "your answers" section
names it (``answered_questions``, the one list), in the registry's order of the questions.

Cells that a spreadsheet would read as a formula are prefixed with an apostrophe (OWASP
"CSV injection"): customers write the answers, staff open the file.
"""

import csv
import io
import re
import unicodedata
from collections.abc import Iterable

from django.utils import timezone

from pipeline.facts import facts, model_and_size
from pipeline.models import Recommendation
from pipeline.versions import latest_approved, latest_finished
from questionnaire.models import Submission
from questionnaire.questions import answer_columns, answered_questions
from sizing.public import cost_figures, read_result
from staff.models import AuditEvent
from staff.summary import recommended_cluster, recommended_cost, use_case
from staff.workflow import full_name

FIXED_COLUMNS = [
    "Reference",
    "Submitted",
    "Company",
    "Contact",
    "Email",
    "Role",
    "Country",
    "Model",
    "Use case",
    "Status",
    "Sizing and proposal",
    "Assignee",
    "Version shown",
    "Approved",
    "Recommended cluster",
    "Recommended cost",
    "Cost",
    "Cost low",
    "Cost high",
    "Currency",
    "Cost years",
    "Status history",
    "Notes",
]
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    # Spreadsheets fold compatibility forms: a fullwidth "＝" starts a formula like "=".
    folded = unicodedata.normalize("NFKC", text)
    if folded.startswith(_FORMULA_START) and not _PLAIN_NUMBER.match(text):
        return "'" + text
    return text


def _when(moment) -> str:
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M}"


def status_history(submission: Submission) -> str:
    """ "2026-12-01 09:14 Waiting for engineer review → Approved, ready to send (Erin Engineer);
    …", oldest first."""
    events = submission.audit_events.filter(action=AuditEvent.Action.STATUS).order_by(
        "created_at", "id"
    )
    return "; ".join(
        f"{_when(e.created_at)} {e.old_value} → {e.new_value} "
        f"({full_name(e.actor) if e.actor_id else 'the customer'})"
        for e in events.select_related("actor")
    )


def notes(submission: Submission) -> str:
    return " | ".join(
        f"{_when(n.created_at)} {full_name(n.author) if n.author_id else 'a removed user'}: "
        f"{n.text}"
        for n in submission.notes.order_by("created_at", "id").select_related("author")
    )


def _fixed(submission: Submission) -> dict[str, str]:
    approved = latest_approved(submission)
    shown: Recommendation | None = approved or latest_finished(submission)
    f = facts(submission)
    return {
        "Reference": submission.reference,
        "Submitted": _when(submission.submitted_at),
        "Company": submission.company,
        "Contact": submission.contact_name,
        "Email": submission.contact_email,
        "Role": submission.contact_role,
        "Country": submission.country,
        "Model": model_and_size(f),
        "Use case": use_case(f),
        "Status": submission.get_status_display(),
        "Sizing and proposal": submission.get_pipeline_status_display(),
        "Assignee": full_name(submission.assignee) if submission.assignee else "",
        "Version shown": str(shown.version) if shown else "",
        "Approved": "yes" if approved else "no",
        "Recommended cluster": recommended_cluster(shown),
        "Recommended cost": recommended_cost(shown),
        **_cost_numbers(shown),
        "Status history": status_history(submission),
        "Notes": notes(submission),
    }


def _cost_numbers(shown: Recommendation | None) -> dict[str, str]:
    """The recommended cost as numbers a spreadsheet adds up: the net figure over the plan, its
    likely range, the currency and the plan's years (``sizing.words.cost.cost_figures``)."""
    if shown is None or shown.status != Recommendation.Status.DONE:
        return {}
    cost = cost_figures(read_result(shown.result))
    if cost.net is None:
        return {"Cost years": str(cost.years)}
    return {
        "Cost": str(cost.net),
        "Cost low": "" if cost.low is None else str(cost.low),
        "Cost high": "" if cost.high is None else str(cost.high),
        "Currency": cost.currency,
        "Cost years": str(cost.years),
    }


def answer_cells(submission: Submission) -> dict[str, str]:
    """Every answer line under "<number>. <question>: <field>"."""
    return {
        f"{q.heading}: {line.label}": line.text
        for q in answered_questions(submission.answers)
        for line in q.lines
    }


def _in_question_order(names: Iterable[str]) -> list[str]:
    """Answer columns in the registry's order (``answer_columns``); a name it does not know
    (an answer of an older schema) after those, in the order it was first met."""
    rank = {name: i for i, name in enumerate(answer_columns())}
    known = sorted((name for name in names if name in rank), key=rank.__getitem__)
    return known + [name for name in names if name not in rank]


def export_csv(submissions: Iterable[Submission]) -> str:
    """The CSV text for ``submissions`` (header row first)."""
    rows = []
    answer_names: dict[str, None] = {}  # ordered set over all rows
    for submission in submissions:
        answers = answer_cells(submission)
        answer_names.update(dict.fromkeys(answers))
        rows.append({**_fixed(submission), **answers})
    header = FIXED_COLUMNS + _in_question_order(answer_names)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(row.get(name, "")) for name in header])
    return out.getvalue()
