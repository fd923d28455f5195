"""Rows for the pipeline tests: a submission with the demo answers (optionally edited)."""

import uuid
from typing import Any

from django.utils import timezone

from questionnaire.models import Submission
from reports.demo import demo_answers


def make_submission(*, answers: dict[str, Any] | None = None, **fields: Any) -> Submission:
    values = {
        "reference": f"TQ-T-{uuid.uuid4().hex[:12].upper()}",
        "contact_name": "Ada Tester",
        "contact_email": "ada@example.com",
        "company": "Example Research Ltd",
        "privacy_consent_at": timezone.now(),
        "answers": demo_answers() if answers is None else answers,
    }
    values.update(fields)
    return Submission.objects.create(**values)


def edited_answers(**edits: dict[str, Any]) -> dict[str, Any]:
    """The demo answers with some fields of some questions replaced: ``model={"notes": "…"}``."""
    answers = demo_answers()
    for slug, changes in edits.items():
        answers[slug] = {**answers[slug], **changes}
    return answers
