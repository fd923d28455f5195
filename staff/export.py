"""CSV export of submissions: one row each, answers flattened by question slug.

Cells that a spreadsheet would read as a formula are prefixed with an apostrophe (OWASP
"CSV injection"): customers write the answers, staff open the file.
"""

import csv
import io
import re
import unicodedata
from collections.abc import Iterable

from questionnaire.models import Submission
from questionnaire.questions import answer_columns
from staff.summary import recommended_cluster

FIXED_COLUMNS = [
    "reference",
    "submitted_at",
    "company",
    "contact_name",
    "contact_email",
    "contact_role",
    "country",
    "workflow_status",
    "pipeline_status",
    "assignee",
    "recommendation_version",
    "recommended_cluster",
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


def _fixed(submission: Submission) -> dict[str, str]:
    latest = submission.recommendations.order_by("-version").first()
    assignee = submission.assignee
    return {
        "reference": submission.reference,
        "submitted_at": submission.submitted_at.isoformat(timespec="seconds"),
        "company": submission.company,
        "contact_name": submission.contact_name,
        "contact_email": submission.contact_email,
        "contact_role": submission.contact_role,
        "country": submission.country,
        "workflow_status": submission.status,
        "pipeline_status": submission.pipeline_status,
        "assignee": assignee.get_username() if assignee else "",
        "recommendation_version": str(latest.version) if latest else "",
        "recommended_cluster": recommended_cluster(latest),
    }


def export_csv(submissions: Iterable[Submission]) -> str:
    """The CSV text for ``submissions`` (header row first)."""
    rows = []
    answer_names: dict[str, None] = {}  # ordered set over all rows
    for submission in submissions:
        answers = answer_columns(submission.answers)
        answer_names.update(dict.fromkeys(answers))
        rows.append({**_fixed(submission), **answers})
    header = FIXED_COLUMNS + list(answer_names)
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(row.get(name, "")) for name in header])
    return out.getvalue()
