"""/metrics: queue depth per Celery queue and the outbox, for Prometheus, behind a token."""

from datetime import timedelta

import pytest
import redis
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from config.celery import MAIL_QUEUE, QUEUES, RENDER_QUEUE
from pipeline.models import OutgoingEmail
from tests.staff.factories import make_email, make_recommendation, make_submission

pytestmark = pytest.mark.django_db

TOKEN = "m" * 40


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def scrape(client, token=TOKEN) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")  # Prometheus text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def test_without_a_token_configured_there_is_no_metrics_page(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@pytest.mark.parametrize("offered", [None, "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x"])
def test_a_scrape_without_the_right_token_sees_nothing(client, token, offered):
    headers = {"HTTP_AUTHORIZATION": offered} if offered else {}
    response = client.get("/metrics", **headers)
    assert response.status_code == 401
    assert b"sizing_" not in response.content


def test_the_outbox_and_the_pipeline_are_counted_by_status(client, token):
    submission = make_submission()
    make_recommendation(submission)
    waited = timezone.now() - timedelta(minutes=10)
    make_email(submission, key="a", created_at=waited)
    make_email(submission, key="b")
    make_email(submission, key="c", status=OutgoingEmail.Status.BOUNCED)

    samples = scrape(client)

    def emails(status):
        return samples[("sizing_outbox_emails", (("status", status),))]

    assert (emails("pending"), emails("bounced"), emails("sent")) == (2, 1, 0)
    assert 600 <= samples[("sizing_outbox_oldest_pending_seconds", ())] < 700
    assert samples[("sizing_pipeline_rows", (("status", "done"), ("step", "sizing")))] == 1
    assert samples[("sizing_broker_up", ())] == 0  # no broker here: tasks run in-process


@pytest.mark.worker
def test_queue_depth_is_read_from_the_broker_per_queue(client, token, broker, settings):
    settings.CELERY_BROKER_URL = broker
    queues = redis.Redis.from_url(broker)
    queues.lpush(RENDER_QUEUE, *[b"{}"] * 12)
    queues.lpush(MAIL_QUEUE, b"{}")

    samples = scrape(client)

    depth = {q: samples[("sizing_queue_messages", (("queue", q),))] for q in QUEUES}
    assert depth == {"sizing": 0, "render": 12, "mail": 1, "housekeeping": 0}
    assert samples[("sizing_broker_up", ())] == 1
