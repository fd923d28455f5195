"""Liveness and readiness probes, answered before any other middleware.

- ``/livez`` (liveness): the process answers. It touches nothing (no database, cache, session
  or host check), so a database blip never gets every web container restarted. The container
  health checks (Dockerfile, docker-compose.yml) ask this.
- ``/readyz`` (readiness), also ``/healthz`` for load balancers set up before: this process can
  serve a customer now. Checks the database (``SELECT 1``), the cache (a write and a read),
  the broker (a connection) and the proposal storage (a lookup); 503 naming what is down. A
  load balancer takes a web process out of rotation on it, and puts it back when it recovers.
  A development fallback (no broker: tasks run in-process) is reported as ``embedded``.

Our own few lines rather than django-health-check: the storage to check is the proposals'
(``STORAGES["proposals"]``, not the default), the broker check needs no running worker, and
four functions need no app of their own.
"""

import json
import logging
import secrets
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import storages
from django.db import connection
from django.http import HttpRequest, HttpResponse

from config.celery import app

logger = logging.getLogger(__name__)

LIVENESS_PATH = "/livez"
READINESS_PATHS = ("/readyz", "/healthz")
UP, DOWN, EMBEDDED = "up", "down", "embedded"


def database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return UP


def shared_cache() -> str:
    probe = secrets.token_hex(8)
    cache.set("readiness-probe", probe, timeout=30)
    return UP if cache.get("readiness-probe") == probe else DOWN


def broker() -> str:
    if not settings.CELERY_BROKER_URL:
        return EMBEDDED
    with app.connection_for_read() as broker_connection:
        broker_connection.ensure_connection(max_retries=1)
    return UP


def proposal_storage() -> str:
    storages["proposals"].exists("readiness-probe")
    return UP


CHECKS: dict[str, Callable[[], str]] = {
    "database": database,
    "cache": shared_cache,
    "broker": broker,
    "storage": proposal_storage,
}


def readiness() -> tuple[bool, dict[str, str]]:
    """Whether every service answers, and each one's state."""
    states: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            states[name] = check()
        except Exception:
            logger.exception("readiness: %s unreachable", name)
            states[name] = DOWN
    return all(state != DOWN for state in states.values()), states


def _answer(body: dict[str, object], status: int) -> HttpResponse:
    response = HttpResponse(json.dumps(body), content_type="application/json", status=status)
    response["Cache-Control"] = "no-store"
    return response


class ProbeMiddleware:
    """First in ``MIDDLEWARE``: answers the probes before host validation, HTTPS redirects,
    sessions or authentication; a container's probe asks by its own address."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            if request.path == LIVENESS_PATH:
                return _answer({"status": "ok"}, 200)
            if request.path in READINESS_PATHS:
                ready, states = readiness()
                body = {"status": "ok" if ready else "unavailable", **states}
                return _answer(body, 200 if ready else 503)
        return self.get_response(request)
