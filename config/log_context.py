"""Every log line names the request or the task it came from, as JSON.

- ``RequestIdMiddleware`` gives each web request an id: the ``X-Request-ID`` the proxy sent
  (nginx's ``$request_id``, deploy/nginx/web.conf.template) when it looks like one, else a new
  one. It is echoed in the response's ``X-Request-ID`` header, so a customer's or a tester's
  report can be matched to the logs.
- A task published during the request carries the id in its message headers
  (``carry_request_id``, Celery's ``before_task_publish``); the worker takes it up with the
  task's own id for as long as the task runs (``enter_task`` / ``leave_task``).
- ``ContextFilter`` adds both to every record; ``JsonFormatter`` writes one JSON object a line
  (``LOG_FORMAT=json``, the default outside debug), which log collectors read without parsing
  rules.

Stdlib logging with a filter and a formatter, not django-structlog: the project logs through
``logging`` everywhere (Django, Celery, gunicorn, our code), and two context variables and one
formatter give those lines the ids without a second logging API.
"""

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse

REQUEST_ID_HEADER = "X-Request-ID"
# What a request id from outside may look like (nginx's is 32 hex digits); anything else is
# replaced, so a client cannot write arbitrary text into every log line of its request.
_ACCEPTED_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")

current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
current_task_id: ContextVar[str | None] = ContextVar("task_id", default=None)


def new_request_id() -> str:
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Sets the request id for the request's log lines and tasks; echoes it in the response."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        offered = request.headers.get(REQUEST_ID_HEADER, "")
        current = offered if _ACCEPTED_REQUEST_ID.match(offered) else new_request_id()
        # Kept until the response is closed (``forget_request_id``): Django logs a 4xx or 5xx
        # ("Not Found: …", a 500's traceback) after the middleware has returned.
        current_request_id.set(current)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = current
        return response


def forget_request_id(**kwargs: Any) -> None:
    """``request_finished``: lines logged between requests name none."""
    current_request_id.set(None)


# --- Celery: the request id travels in the message headers -------------------------------------

_task_tokens: dict[str, tuple[Token, Token]] = {}


def carry_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """``before_task_publish``: the publishing request's (or task's) id goes with the message."""
    current = current_request_id.get()
    if current and headers is not None:
        headers.setdefault("request_id", current)


def enter_task(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    """``task_prerun``: the task's id, and the request id it was published with, if any (an
    eager task, run inside the request, keeps the request's)."""
    context = getattr(task, "request", None)
    headers = getattr(context, "headers", None) or {}
    carried = getattr(context, "request_id", None) or headers.get("request_id")
    _task_tokens[task_id or ""] = (
        current_task_id.set(task_id),
        current_request_id.set(carried or current_request_id.get()),
    )


def leave_task(task_id: str | None = None, **kwargs: Any) -> None:
    """``task_postrun``: back to the ids from before the task."""
    tokens = _task_tokens.pop(task_id or "", None)
    if tokens is not None:
        current_task_id.reset(tokens[0])
        current_request_id.reset(tokens[1])


# --- logging -------------------------------------------------------------------------------------


class ContextFilter(logging.Filter):
    """Adds ``request_id`` and ``task_id`` (None outside a request or task) to each record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        record.task_id = current_task_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, the ids, and the
    traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "task_id": getattr(record, "task_id", None),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)
