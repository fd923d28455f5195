"""Saving answers filled from a file or the discovery sentence, once the customer has
confirmed them."""

from __future__ import annotations

from django.db import transaction

from questionnaire.models import Draft
from questionnaire.prefill.changes import PrefillChanges
from questionnaire.questions import get_question
from questionnaire.services import save_step


def fill_confirmed_answers(*, draft: Draft, changes: PrefillChanges, source: str) -> Draft:
    """Save every question ``changes`` fills, all or none, through the wizard's own
    :func:`~questionnaire.services.save_step` (which keeps only the form's own fields), and
    remember which answers were filled and from what (``source``: ``marks.WORDS`` or
    ``marks.FILE``), so the pages mark them while they hold those values."""
    with transaction.atomic():
        for slug, raw in changes.step_data.items():
            draft = save_step(
                draft=draft,
                step=slug,
                data=raw,
                current_step=draft.current_step or slug,
                form_class=get_question(slug).form_class,
            )
        locked = Draft.objects.select_for_update().get(pk=draft.pk)
        prefilled = dict(locked.prefilled or {})
        for question in changes.questions:
            raw = locked.step_data.get(question.slug) or {}
            marks = dict(prefilled.get(question.slug) or {})
            for change in question.changes:
                values = raw.get(f"{question.slug}-{change.field}")
                if change.field and values:
                    marks[change.field] = {"values": values, "from": source}
            prefilled[question.slug] = marks
        locked.prefilled = prefilled
        locked.save(update_fields=["prefilled", "updated_at"])
    return locked
