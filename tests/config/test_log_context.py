"""Log lines as JSON with the request id and the task id; the id echoed in X-Request-ID."""

import io
import json
import logging

import pytest

from config import log_context
from config.celery import app

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines():
    """What the console handler writes (the settings' JSON formatter and filters), as dicts."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(log_context.JsonFormatter())
    handler.addFilter(log_context.ContextFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)


def test_each_response_carries_a_new_request_id(client):
    first = client.get("/")["X-Request-ID"]
    second = client.get("/")["X-Request-ID"]
    assert len(first) == 32 and int(first, 16) >= 0
    assert first != second


def test_the_proxys_request_id_is_kept_and_a_strange_one_replaced(client):
    nginx_id = "0f3c9a1e5b7d4c2a9e8f7a6b5c4d3e2f"
    assert client.get("/", HTTP_X_REQUEST_ID=nginx_id)["X-Request-ID"] == nginx_id
    for strange in ("x", "two words here", "a" * 65, "id\nINFO forged line"):
        echoed = client.get("/", HTTP_X_REQUEST_ID=strange)["X-Request-ID"]
        assert echoed != strange and len(echoed) == 32


def test_a_requests_log_lines_are_json_with_its_id(client, json_lines):
    response = client.get("/no-such-page/", HTTP_X_REQUEST_ID="req-from-nginx-0001")
    assert response.status_code == 404
    [line] = [line for line in json_lines() if line["logger"] == "django.request"]
    assert line["message"] == "Not Found: /no-such-page/"
    assert line["request_id"] == "req-from-nginx-0001" and line["task_id"] is None
    assert line["level"] == "WARNING" and line["time"].endswith("+00:00")


def test_a_task_published_in_a_request_carries_its_id_and_logs_its_own(json_lines):
    """The publish side puts the id in the message headers; the worker side takes it up with
    the task's id, and drops both when the task ends."""
    token = log_context.current_request_id.set("req-0123456789")
    headers: dict = {}
    log_context.carry_request_id(headers=headers)
    log_context.current_request_id.reset(token)
    assert headers == {"request_id": "req-0123456789"}

    class Task:  # what Celery hands task_prerun: the task, its request context with the headers
        request = type("Context", (), {"request_id": None, "headers": headers})()

    log_context.enter_task(task_id="task-42", task=Task())
    logging.getLogger("pipeline.tasks").warning("sizing")
    log_context.leave_task(task_id="task-42")
    logging.getLogger("pipeline.tasks").warning("after")
    during, after = json_lines()
    assert (during["request_id"], during["task_id"]) == ("req-0123456789", "task-42")
    assert (after["request_id"], after["task_id"]) == (None, None)


def test_an_in_process_task_keeps_the_request_id_and_names_itself(json_lines):
    @app.task(name="tests.log_something")
    def log_something():
        logging.getLogger("tests").warning("inside")

    token = log_context.current_request_id.set("req-eager-000001")
    try:
        log_something.apply()
    finally:
        log_context.current_request_id.reset(token)
    [inside] = [line for line in json_lines() if line["message"] == "inside"]
    assert inside["request_id"] == "req-eager-000001" and inside["task_id"]


def test_the_settings_write_json_lines_outside_debug():
    from django.conf import settings

    console = settings.LOGGING["handlers"]["console"]
    assert "ids" in console["filters"] and "without_tokens" in console["filters"]
    assert settings.LOGGING["formatters"]["json"]["()"] == "config.log_context.JsonFormatter"
    assert settings.CELERY_WORKER_HIJACK_ROOT_LOGGER is False
