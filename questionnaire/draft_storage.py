"""The wizard's formtools storage: each step's data is read from the draft, never copied into the
session.

The draft (``questionnaire.models.Draft``) is the source of truth: every step's raw data is
saved to it in the request that posts it, valid or not (``QuestionnaireWizard.post``), and
the wizard reads the row once per request anyway.
formtools' ``SessionStorage`` kept a second copy of every step in the session, which the wizard
refreshed from the draft on each request, so every page read and wrote back all the answers
given so far: a cost that grew with the page's position (issue 29, docs/load-results.md). Here
the session keeps only which step the customer is on.
"""

from __future__ import annotations

from typing import Any

from django.utils.datastructures import MultiValueDict
from formtools.wizard.storage.session import SessionStorage

StepData = dict[str, dict[str, list[str]]]


class DraftSessionStorage(SessionStorage):
    """formtools' session storage, its step data served from the draft the wizard loaded.

    formtools marks the session changed whenever its data is read, so every page wrote the
    session back (a Redis GET and SET on top of the read, issue 29); here only a change marks
    it: a new value for the data, the current step, the extra data or a step's files (none is
    kept for a page posted without files)."""

    def _get_data(self) -> Any:
        return self.request.session[self.prefix]

    # the setter is formtools' own (it marks the session changed)
    data = property(_get_data, SessionStorage._set_data)

    def _set_current_step(self, step: str | None) -> None:
        if self.data.get(self.step_key) != step:
            super()._set_current_step(step)
            self.request.session.modified = True

    def _set_extra_data(self, extra_data: Any) -> None:
        super()._set_extra_data(extra_data)
        self.request.session.modified = True

    def set_step_files(self, step: str, files: Any) -> None:
        if not files:
            # No step has a file field: formtools would keep an empty entry for every page
            # posted, and write the session for it.
            return
        super().set_step_files(step, files)
        self.request.session.modified = True

    draft_step_data: StepData = {}

    def use_draft(self, step_data: StepData) -> None:
        """Serve ``step_data`` (the draft's, as saved) as every step's data; drop a copy an
        older version of the wizard left in the session."""
        self.draft_step_data = step_data
        data = self.data
        if data.get(self.step_data_key):
            data[self.step_data_key] = {}
            self.data = data

    def get_step_data(self, step: str) -> MultiValueDict | None:
        values = self.draft_step_data.get(step)
        return None if values is None else MultiValueDict(values)

    def set_step_data(self, step: str, cleaned_data: Any) -> None:
        """Nothing to keep: the wizard saved this step's raw data to the draft (and read the
        draft back) before formtools validated it."""
