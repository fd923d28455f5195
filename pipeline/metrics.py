"""``/metrics``: what an operator's Prometheus scrapes, read fresh at each scrape.

Queue depth per Celery queue (from the broker, ``config.queue_depth``), the outbox's emails by
status with the age of the oldest one waiting, and the pipeline's sizing and render rows by
status. Every figure is read from the database and Redis when asked, never counted inside one
process, so any web process answers for all of them (gunicorn runs several, ``--scale`` more)
and no multiprocess bookkeeping is needed. What to alert on: docs/operations.md, "Watch".

Not public: it answers only a request carrying ``Authorization: Bearer <METRICS_TOKEN>``, and
does not exist (404) while ``METRICS_TOKEN`` is unset.
"""

import hmac
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Count, Min
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

from config.queue_depth import waiting_messages
from pipeline.models import OutgoingEmail, Proposal, Recommendation


class ServiceCollector:
    """The gauges, collected at scrape time."""

    def collect(self) -> Iterator[Metric]:
        depths = waiting_messages()
        broker_up = GaugeMetricFamily(
            "sizing_broker_up", "1 when the broker answered this scrape, 0 when it did not."
        )
        broker_up.add_metric([], 0 if depths is None else 1)
        yield broker_up
        queue = GaugeMetricFamily(
            "sizing_queue_messages",
            "Messages waiting in each Celery queue, not yet taken by a worker.",
            labels=["queue"],
        )
        for name, count in sorted((depths or {}).items()):
            queue.add_metric([name], count)
        yield queue

        yield _by_status(
            "sizing_outbox_emails",
            "Emails in the outbox by status (bounced and complained: reported by the service).",
            OutgoingEmail,
        )
        oldest = OutgoingEmail.objects.filter(status=OutgoingEmail.Status.PENDING).aggregate(
            oldest=Min("created_at")
        )["oldest"]
        waiting = GaugeMetricFamily(
            "sizing_outbox_oldest_pending_seconds",
            "How long the oldest email still waiting to be sent has waited (0: none waits).",
        )
        waiting.add_metric([], (timezone.now() - oldest).total_seconds() if oldest else 0.0)
        yield waiting

        rows = GaugeMetricFamily(
            "sizing_pipeline_rows",
            "Sizing runs and proposal renders by status.",
            labels=["step", "status"],
        )
        for step, model in (("sizing", Recommendation), ("render", Proposal)):
            for status, count in _counts(model).items():
                rows.add_metric([step, status], count)
        yield rows


def _counts(model) -> dict[str, int]:
    """Rows per status, every status present (0 for none), in the model's order."""
    found = dict(model.objects.values_list("status").annotate(n=Count("pk")).order_by())
    return {status: found.get(status, 0) for status in model.Status.values}


def _by_status(name: str, documentation: str, model) -> GaugeMetricFamily:
    metric = GaugeMetricFamily(name, documentation, labels=["status"])
    for status, count in _counts(model).items():
        metric.add_metric([status], count)
    return metric


def _authorised(request: HttpRequest) -> bool:
    expected = f"Bearer {settings.METRICS_TOKEN}"
    offered = request.headers.get("Authorization", "")
    return hmac.compare_digest(offered.encode(), expected.encode())


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not settings.METRICS_TOKEN:
        raise Http404("metrics are off: METRICS_TOKEN is not set")
    if not _authorised(request):
        response = HttpResponse("A bearer token is needed.\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServiceCollector())  # type: ignore[arg-type]
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
