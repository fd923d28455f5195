"""A friendly page when the database drops a request (restart, failover, network blip).

Every questionnaire step is saved before the next one is shown, so when a request fails
here, only the step being sent is affected: the page says so and asks for it again.
Connections are re-checked on the next request (``CONN_HEALTH_CHECKS``).
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


class DatabaseOutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error(
            "database unavailable during %s %s: %s", request.method, request.path, exception
        )
        # Rendered without the request context: the session and user may be unreadable now.
        body = render_to_string("503_database.html", {"path": request.path})
        response = HttpResponse(body, status=503)
        response["Retry-After"] = "10"
        response["Cache-Control"] = "no-store"
        return response
