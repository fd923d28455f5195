"""Errors reach a person: Sentry when a DSN is set, otherwise an email to ``ADMINS``.

A web 500 or a task that fails for good used to reach stdout only (issue 31). With
``SENTRY_DSN`` set, sentry-sdk's Django, Celery and Redis integrations report them, with no
request bodies (they hold customers' answers) and no personal data. Without it, Django's
``mail_admins`` does, for the web (the ``django.request`` logger) and for tasks (Celery's
``task_failure`` signal, logged to ``config.task_failures``). Either way no share-link or resume
token and no answer leaves in a report.
"""

from __future__ import annotations

import logging
from email.utils import getaddresses
from typing import Any

from django.utils.log import AdminEmailHandler
from django.views.debug import SafeExceptionReporterFilter

from config.redacted_logs import without_tokens

TASK_FAILURES_LOGGER = "config.task_failures"


def parse_admins(text: str) -> list[tuple[str, str]]:
    """``DJANGO_ADMINS``: ``"Ada Ops <ada@example.com>, ops@example.com"`` as (name, address)."""
    people = [(name, address) for name, address in getaddresses([text]) if "@" in address]
    return [(name or address, address) for name, address in people]


def start_sentry(dsn: str, *, environment: str, release: str | None) -> None:
    """sentry-sdk for the web process and the workers (settings are read by both)."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.redis import RedisIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release,
        integrations=[DjangoIntegration(), CeleryIntegration(), RedisIntegration()],
        # Customers' answers travel in request bodies; staff names and addresses are personal.
        send_default_pii=False,
        max_request_body_size="never",
        # A frame's variables hold answers and the tokens of links; the stack alone is enough.
        include_local_variables=False,
        traces_sample_rate=0.0,
        before_send=_without_tokens_in_urls,
    )


def _without_tokens_in_urls(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    request = event.get("request") or {}
    if isinstance(request.get("url"), str):
        request["url"] = without_tokens(request["url"])
    for header in ("Referer", "referer"):
        if isinstance((request.get("headers") or {}).get(header), str):
            request["headers"][header] = without_tokens(request["headers"][header])
    return event


class RedactedAdminEmailHandler(AdminEmailHandler):
    """Django's email to ADMINS, with every share-link or resume token replaced."""

    def send_mail(self, subject: str, message: str, *args: Any, **kwargs: Any) -> None:
        html = kwargs.get("html_message")
        if html:
            kwargs["html_message"] = without_tokens(html)
        super().send_mail(without_tokens(subject), without_tokens(message), *args, **kwargs)


class AnswersHiddenFilter(SafeExceptionReporterFilter):
    """Error reports (the email to ADMINS, the debug page) show POST field names, not values."""

    def get_post_parameters(self, request: Any) -> dict[str, str]:
        if request is None:
            return {}
        return dict.fromkeys(request.POST, self.cleansed_substitute)


def report_task_failure(
    sender: Any = None,
    task_id: str | None = None,
    exception: BaseException | None = None,
    args: Any = None,
    einfo: Any = None,
    **kwargs: Any,
) -> None:
    """Celery's ``task_failure`` signal: a task that raised (a retry is not a failure)."""
    name = getattr(sender, "name", "?")
    logging.getLogger(TASK_FAILURES_LOGGER).error(
        "Task %s failed (id %s, arguments %r): %r",
        name,
        task_id,
        args,
        exception,
        exc_info=(type(exception), exception, exception.__traceback__) if exception else None,
    )
