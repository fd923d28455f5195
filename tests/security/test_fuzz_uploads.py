"""Fill from a file, fuzzed: hostile files of every format are read or refused with a message.

Two layers, as the upload runs them. The reader (no database, many files): every file of every
format either gives answers, each then checked by its question's own form (a value the form
refuses is listed with the form's message), or is refused with a message for the customer;
never another exception. The pages (the real views, fewer files): never a server error; a
refused file changes nothing; a file that is read changes nothing until "Use these answers",
and then only the answers it lists, keeping everything else the customer had typed.

The number of files tried and their outcomes per format are printed at the end of the run
(``hostile inputs tried``) and written down in docs/reliability.md.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questionnaire.models import Draft
from questionnaire.prefill.changes import prefill_changes
from questionnaire.prefill.formats import read_answers
from questionnaire.prefill.reading import UnreadableFile
from tests.security.conftest import count, prefill, start
from tests.security.hostile_documents import FORMATS, Format, any_bytes, documents

# Fixed so the run takes the same few seconds in CI every time (the CI profile also fixes the
# examples themselves): about 0.5 ms a file for the reader, 60 ms a round trip for the pages.
FILES_PER_FORMAT = 150
FILES_OF_NO_FORMAT = 150
UPLOADS = 40


def _outcome_of_reading(content: bytes) -> str:
    """Read one file as the upload does; the outcome in a few words (asserting on the way)."""
    try:
        found = read_answers(content)
    except UnreadableFile as refused:
        message = str(refused)
        assert message.strip() and message[0].isupper() and message.endswith("."), message
        return "refused with a message"
    shown = [found.format_name, *found.ignored, *found.remarks]
    for value in found.values:
        shown += [value.source, *([value.value] if isinstance(value.value, str) else value.value)]
    for text in shown:  # a page must be able to show it: UTF-8 cannot hold a lone surrogate
        text.encode("utf-8")
    changes = prefill_changes(found.values, Draft(step_data={}))
    for refused_value in changes.refused:
        assert refused_value.message.strip(), refused_value
    if not found.values:
        return "read, nothing to fill (the page says so)"
    if changes.refused:
        return "read, some values refused by their question"
    return "read, every value accepted"


@pytest.mark.parametrize("file_format", FORMATS, ids=[f.name for f in FORMATS])
def test_a_hostile_file_of_every_format_is_read_or_refused_with_a_message(file_format: Format):
    @settings(max_examples=FILES_PER_FORMAT, deadline=None)
    @given(content=documents(file_format))
    def read(content: bytes) -> None:
        outcome = _outcome_of_reading(content)
        count(f"fill from a file: {file_format.name}, {outcome}")

    read()


@settings(max_examples=FILES_OF_NO_FORMAT, deadline=None)
@given(content=any_bytes())
def test_a_file_of_no_format_is_refused_with_a_message_or_read(content: bytes):
    outcome = _outcome_of_reading(content)
    count(f"fill from a file: random bytes or text, {outcome}")


# --- the pages ---------------------------------------------------------------------------------


def _upload_url(draft_id) -> str:
    return reverse("questionnaire:fill_from_file", kwargs={"draft_id": draft_id})


def _check_url(draft_id) -> str:
    return reverse("questionnaire:fill_from_file_check", kwargs={"draft_id": draft_id})


def _kept_apart_from(before: dict, after: dict, filled: dict) -> list[str]:
    """Answers the customer had that the file did not fill, changed or lost (none expected):
    a step the file did not fill is unchanged; in a step it filled, every other field is."""
    lost = []
    for step, fields in before.items():
        for key, values in fields.items():
            name = key.removeprefix(f"{step}-")
            fills_it = step in filled and (
                key in filled[step] and filled[step][key] != values or name == "not_sure"
            )
            if not fills_it and after.get(step, {}).get(key) != values:
                lost.append(key)
    return lost


@pytest.mark.django_db
@settings(
    max_examples=UPLOADS,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    file_format=st.sampled_from(FORMATS),
    data=st.data(),
)
def test_a_hostile_upload_is_never_a_server_error_and_loses_nothing(client, file_format, data):
    content = data.draw(documents(file_format))
    cache.clear()  # the limits on new questionnaires and files read count per hour
    draft_id = start(client)
    answers_before = prefill(draft_id)
    revision = Draft.objects.get(pk=draft_id).revision
    file = SimpleUploadedFile("settings.txt", content)

    response = client.post(_upload_url(draft_id), {"file": file, "from": "model"})

    assert response.status_code in (200, 302), response.status_code
    draft = Draft.objects.get(pk=draft_id)
    assert (draft.step_data, draft.revision) == (answers_before, revision)
    if response.status_code == 200:
        assert "There is a problem" in response.content.decode()
        count(f"fill from a file, the pages: {file_format.name}, refused on the page")
        return
    page = client.get(_check_url(draft_id))
    assert page.status_code == 200
    used = client.post(_check_url(draft_id), {"action": "use", "revision": revision})
    assert used.status_code == 302, used.status_code
    after = Draft.objects.get(pk=draft_id).step_data
    filled = page.context["changes"].step_data
    assert _kept_apart_from(answers_before, after, filled) == []
    for step, fields in filled.items():
        assert after[step] == fields
    count(f"fill from a file, the pages: {file_format.name}, read, checked and used")
