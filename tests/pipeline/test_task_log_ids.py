"""A real worker's log lines are JSON naming the task and the web request that queued it."""

import json

import pytest
from django.urls import reverse

from tests.questionnaire.conftest import start

pytestmark = pytest.mark.worker


def json_lines(path) -> list[dict]:
    lines = []
    for text in path.read_text(errors="replace").splitlines():
        if text.startswith("{"):
            lines.append(json.loads(text))
    return lines


def test_a_task_queued_by_a_request_logs_the_request_id_and_its_own_id(start_worker, client):
    worker = start_worker(LOG_FORMAT="json")
    draft_id = start(client)
    response = client.post(
        reverse("questionnaire:save", args=[draft_id]),
        {"email": "sam@example.com"},
        HTTP_X_REQUEST_ID="req-from-nginx-7777",
    )
    assert response["X-Request-ID"] == "req-from-nginx-7777"

    def finished() -> list[dict]:
        return [
            line
            for line in json_lines(worker.log_path)
            if line["request_id"] == "req-from-nginx-7777" and "succeeded" in line["message"]
        ]

    worker.wait_for(lambda: len(finished()) >= 2, 60, "the resume link's two tasks")
    by_task = {line["message"].split("[")[0].split()[-1]: line for line in finished()}
    # The link's task, and the email it queued in turn: both carry the request's id.
    assert {"pipeline.queue_resume_link", "pipeline.deliver_email"} <= set(by_task)
    task_ids = {line["task_id"] for line in by_task.values()}
    assert None not in task_ids and len(task_ids) == len(by_task)
