from django.db import IntegrityError, OperationalError
from django.test import RequestFactory

from config.database_outage import DatabaseOutageMiddleware


def middleware():
    return DatabaseOutageMiddleware(lambda request: None)


def test_a_dropped_database_connection_gets_a_friendly_resubmit_page():
    request = RequestFactory().post("/q/abc/model/")
    response = middleware().process_exception(
        request, OperationalError("server closed the connection unexpectedly")
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    assert response["Cache-Control"] == "no-store"
    assert b"Your earlier answers are saved" in response.content
    assert b'href="/q/abc/model/"' in response.content


def test_other_errors_are_left_to_django():
    request = RequestFactory().post("/q/abc/model/")
    assert middleware().process_exception(request, IntegrityError("duplicate")) is None
    assert middleware().process_exception(request, ValueError("bug")) is None
