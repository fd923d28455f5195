"""The check of a kept PostgreSQL connection before a request's first query (config/postgresql):
no round trip while the connection is healthy, a new connection once the server has ended it."""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection, connections

from tests.faults.http import BrowserLikeClient
from tests.pipeline.conftest import worker_database_url
from tests.server_process import ServerProcess

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("postgres_required"),
]


def kept_until_the_next_request() -> int:
    """Open the connection as a request would, end the request as Django does (which asks for a
    check before the next request's first query), and return the server process behind it."""
    connection.close()  # a new connection: one opened earlier in the run may be past its age
    connection.ensure_connection()
    connection.close_if_unusable_or_obsolete()
    assert connection.health_check_enabled and not connection.health_check_done
    return connection.connection.info.backend_pid


def end_from_the_server(pid: int) -> None:
    """``pg_terminate_backend`` from another connection: the server sends its error and closes
    the socket, as in a restart; returns once the client side can see it."""
    params = connection.get_connection_params()
    with psycopg.connect(**params, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
    deadline = time.monotonic() + 5
    while connection.nothing_to_read() and time.monotonic() < deadline:
        time.sleep(0.01)


def no_query_allowed(*args, **kwargs):
    raise AssertionError("the check sent a query")


def test_a_healthy_kept_connection_is_kept_and_checked_without_a_query(monkeypatch):
    pid = kept_until_the_next_request()
    monkeypatch.setattr(connection.connection, "cursor", no_query_allowed)
    monkeypatch.setattr(connection.connection, "execute", no_query_allowed)

    connection.close_if_health_check_failed()

    monkeypatch.undo()
    assert connection.health_check_done
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone() == (pid,)


def test_a_connection_the_server_ended_is_replaced_before_the_first_query():
    pid = kept_until_the_next_request()
    end_from_the_server(pid)

    connection.close_if_health_check_failed()

    assert connection.connection is None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != pid


def test_a_connection_left_inside_a_transaction_is_asked_select_1(monkeypatch):
    kept_until_the_next_request()
    connection.connection.execute("BEGIN")  # behind Django's back, as a bug elsewhere might
    asked = []
    monkeypatch.setattr(
        type(connections["default"]), "is_usable", lambda self: asked.append(1) or True
    )
    try:
        connection.close_if_health_check_failed()
    finally:
        connection.connection.execute("ROLLBACK")
    assert asked == [1]
    assert connection.connection is not None


def test_a_page_after_the_server_ended_every_connection_loads_without_an_error(tmp_path):
    """A real gunicorn worker keeps its connection between requests (``CONN_MAX_AGE``); the
    server ends it (as a restart would) and the next page still loads, on a new connection."""
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
        "DJANGO_SECRET_KEY": "postgresql-backend-test-" + "Zq8vL3pX" * 6,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_EMBEDDED_SERVICES": "all",
        "DJANGO_VAR_DIR": str(tmp_path / "var"),
        "DATABASE_URL": worker_database_url(),
        "DATABASE_CONN_MAX_AGE": "600",
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
    }
    command = [
        str(Path(sys.executable).parent / "gunicorn"), "config.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", "1", "--log-level", "warning",
    ]  # fmt: skip
    web = ServerProcess("gunicorn", command, env, tmp_path / "gunicorn.log")
    try:
        client = BrowserLikeClient(f"http://127.0.0.1:{port}")
        web.wait_for(lambda: answers(client), 60, "gunicorn to answer")
        assert client.get("/").status == 200
        started = client.post("/q/start/", {})
        assert started.status == 302
        assert client.get(started.url).status == 200  # the worker's connection is now kept
        with psycopg.connect(**connection.get_connection_params(), autocommit=True) as admin:
            ended = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"
            ).fetchall()
        assert ended  # the worker's connection (and this test's own)
        connection.close()
        time.sleep(0.2)  # the server's message reaches the worker's socket

        page = client.get(started.url)

        assert page.status == 200, page.body[:500]
        assert "send this step again" not in page.body.lower()
    finally:
        web.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(client: BrowserLikeClient) -> bool:
    try:
        return client.get("/livez").status == 200
    except OSError:
        return False
