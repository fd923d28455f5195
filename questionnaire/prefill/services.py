"""Saving answers filled from a file, once the customer has confirmed them."""

from __future__ import annotations

from django.db import transaction

from questionnaire.models import Draft
from questionnaire.prefill.changes import PrefillChanges
from questionnaire.questions import get_question
from questionnaire.services import save_step


def fill_answers_from_file(*, draft: Draft, changes: PrefillChanges) -> Draft:
    """Save every question ``changes`` fills, all or none, through the wizard's own
    :func:`~questionnaire.services.save_step` (which keeps only the form's own fields)."""
    with transaction.atomic():
        for slug, raw in changes.step_data.items():
            draft = save_step(
                draft=draft,
                step=slug,
                data=raw,
                current_step=draft.current_step or slug,
                form_class=get_question(slug).form_class,
            )
    return draft
