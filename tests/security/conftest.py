"""Hostile-input helpers: post raw bodies the way a browser (or an attacker) would, and count.

Bodies are url-encoded here rather than by the test client, so a value may hold a lone
surrogate: it goes over the wire as the invalid UTF-8 bytes ``%ED%A0%80`` and Django decodes
it to U+FFFD, exactly as it would a real request.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from questionnaire.models import Draft
from questionnaire.questions import QUESTIONS
from questionnaire.services import step_data_from_answer_data

FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"

# How many hostile inputs each test tried, by kind; printed at the end of the run (docs).
TRIED: Counter[str] = Counter()


def count(kind: str, n: int = 1) -> None:
    TRIED[kind] += n


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not TRIED:
        return
    terminalreporter.section("hostile inputs tried")
    for kind, n in sorted(TRIED.items()):
        terminalreporter.write_line(f"{kind:<58}{n:>7}")
    terminalreporter.write_line(f"{'total':<58}{sum(TRIED.values()):>7}")


def step_url(draft_id: uuid.UUID | str, step: str) -> str:
    return reverse("questionnaire:step", kwargs={"draft_id": draft_id, "step": step})


def management_key(draft_id: uuid.UUID | str) -> str:
    return f"questionnaire_{uuid.UUID(str(draft_id)).hex}-current_step"


def encode(pairs: Iterable[tuple[str, str]]) -> bytes:
    """``application/x-www-form-urlencoded``, keeping lone surrogates as their UTF-8 bytes."""
    return "&".join(
        f"{quote(key.encode('utf-8', 'surrogatepass'), safe='')}="
        f"{quote(value.encode('utf-8', 'surrogatepass'), safe='')}"
        for key, value in pairs
    ).encode("ascii")


def as_received(value: str) -> str:
    """What Django hands the view for ``value`` sent as above (invalid UTF-8 -> U+FFFD)."""
    return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def post_raw(client: Client, url: str, pairs: Iterable[tuple[str, str]], **extra: Any):
    return client.post(url, data=encode(pairs), content_type=FORM_CONTENT_TYPE, **extra)


def step_pairs(
    draft_id: uuid.UUID | str, step: str, data: dict[str, Any], *, current_step: str | None = None
) -> list[tuple[str, str]]:
    pairs = [(management_key(draft_id), step if current_step is None else current_step)]
    for key, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            pairs.append((f"{step}-{key}", item))
    return pairs


def post_step(client: Client, draft_id, step: str, data: dict[str, Any], **kwargs: Any):
    return post_raw(client, step_url(draft_id, step), step_pairs(draft_id, step, data, **kwargs))


def start(client: Client) -> uuid.UUID:
    response = client.post(reverse("questionnaire:start"))
    assert response.status_code == 302
    return uuid.UUID(response["Location"].split("/")[2])


def prefill(draft_id: uuid.UUID, *, except_step: str = "") -> dict[str, Any]:
    """Give every question its example answer in the draft (as if answered earlier)."""
    step_data = {
        question.slug: step_data_from_answer_data(question.slug, question.example.data)
        for question in QUESTIONS
        if question.slug != except_step
    }
    Draft.objects.filter(pk=draft_id).update(step_data=step_data)
    return step_data


def as_saved(value: str) -> str:
    """The draft's raw copy of a received value: PostgreSQL's jsonb cannot hold U+0000, so a NUL
    is marked with U+FFFD there (the form refuses the NUL with a message next to the field)."""
    return as_received(value).replace("\x00", "\ufffd")


def html(response) -> str:
    return response.content.decode()


@pytest.fixture
def client() -> Client:
    return Client()
