"""PostgreSQL stops and restarts while a customer is in the middle of the questionnaire.

A real restart of the local PostgreSQL cluster (root only, as in CI), against a live server.
The step sent while the database is down gets the friendly "send this step again" page;
once the database is back the same step goes through, and no earlier answer is lost.
"""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection

from questionnaire.models import Draft
from questionnaire.questions import QUESTIONS
from tests.conftest import require
from tests.faults.http import BrowserLikeClient

pytestmark = pytest.mark.django_db(transaction=True)


def pg_cluster(action: str) -> None:
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action, "-m", "fast"]
        if action == "stop"
        else ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action],
        check=True,
        capture_output=True,
        timeout=60,
    )


@pytest.fixture
def restartable_postgres(settings):
    database = settings.DATABASES["default"]
    require(
        "a local PostgreSQL cluster this test may restart (root, DATABASE_URL on 127.0.0.1)",
        connection.vendor == "postgresql"
        and database.get("HOST") in {"127.0.0.1", "localhost"}
        and os.geteuid() == 0
        and Path("/etc/postgresql").is_dir(),
    )
    yield
    # Whatever happened, leave the cluster running for the rest of the suite.
    if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"]).returncode != 0:
        pg_cluster("start")
    connection.close()


def as_posted(value) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list | tuple) else [str(value)]


def post_question(client: BrowserLikeClient, draft_id: str, index: int):
    question = QUESTIONS[index]
    client.get(f"/q/{draft_id}/{question.slug}/")
    payload = {f"questionnaire_{uuid.UUID(draft_id).hex}-current_step": question.slug}
    for key, value in question.example.data.items():
        payload[f"{question.slug}-{key}"] = as_posted(value)
    return client.post(f"/q/{draft_id}/{question.slug}/", payload)


def test_a_step_sent_during_a_database_restart_is_asked_again_and_nothing_is_lost(
    live_server, restartable_postgres
):
    client = BrowserLikeClient(live_server.url)
    client.get("/")
    started = client.post("/q/start/", {})
    assert started.status == 302
    draft_id = started.url.split("/")[2]
    client.get(started.url)
    welcome = client.post(
        started.url, {f"questionnaire_{uuid.UUID(draft_id).hex}-current_step": "welcome"}
    )
    assert welcome.status == 302
    for index in range(3):
        assert post_question(client, draft_id, index).status == 302

    pg_cluster("stop")
    during = post_question(client, draft_id, 3)
    assert during.status == 503
    assert "Your earlier answers are saved" in during.body

    restart_began = time.monotonic()
    pg_cluster("start")
    deadline = restart_began + 60
    while True:
        after = post_question(client, draft_id, 3)
        if after.status != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    recovery_seconds = time.monotonic() - restart_began
    print(f"\nfirst successful step {recovery_seconds:.2f} s after PostgreSQL was started again")
    assert after.status == 302, after.body[:500]
    assert after.url.endswith(f"/{QUESTIONS[4].slug}/")

    connection.close()  # the test's own connection died with the server
    draft = Draft.objects.get(pk=draft_id)
    for question in QUESTIONS[:4]:
        stored = draft.step_data[question.slug]
        for key, value in question.example.data.items():
            assert stored[f"{question.slug}-{key}"] == as_posted(value), (question.slug, key)
