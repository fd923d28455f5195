"""The sweeper tells a row waiting behind a backlog from one whose message was lost.

Against Redis (TEST_REDIS_URL): the render queue is filled with messages (a burst of renders),
and the sweeper asks the broker how many wait there. A pending render older than the grace
period is left alone while its queue holds a backlog, until it has waited longer than the
broker's visibility timeout; with an empty queue it is re-published after the grace period. A
re-published row waits again before the next re-publish.
"""

from datetime import timedelta

import pytest
import redis
from django.utils import timezone

from config.celery import RENDER_QUEUE, SIZING_QUEUE
from config.queue_depth import waiting_messages
from pipeline import services
from pipeline.models import Proposal
from pipeline.steps import RENDERING
from tests.staff.factories import make_proposal, make_recommendation, make_submission

pytestmark = pytest.mark.worker


@pytest.fixture
def on_redis(broker, settings):
    settings.CELERY_BROKER_URL = broker
    return redis.Redis.from_url(broker)


def pending_render(waited: timedelta) -> Proposal:
    proposal = make_proposal(
        make_recommendation(make_submission()), with_file=False, status=Proposal.Status.PENDING
    )
    Proposal.objects.filter(pk=proposal.pk).update(updated_at=timezone.now() - waited)
    return proposal


def renders(published) -> list[int]:
    return [row_id for task, row_id in published if task == RENDERING.task_name]


def test_the_broker_reports_each_queues_depth(on_redis):
    on_redis.lpush(RENDER_QUEUE, *[b"{}"] * 7)
    depths = waiting_messages()
    assert depths is not None
    assert depths[RENDER_QUEUE] == 7 and depths[SIZING_QUEUE] == 0


def test_a_render_waiting_behind_a_backlog_is_not_published_again(on_redis, published, settings):
    visibility = timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"])
    waiting = pending_render(timedelta(seconds=services.PENDING_GRACE_SECONDS * 2))
    forgotten = pending_render(visibility + timedelta(minutes=1))
    on_redis.lpush(RENDER_QUEUE, *[b"{}"] * 300)  # a burst of renders ahead of them

    services.sweep_pipeline()

    assert renders(published) == [forgotten.pk]
    assert waiting.pk not in renders(published)
    published.clear()
    services.sweep_pipeline()  # a minute later: the re-published row waits again
    assert renders(published) == []


def test_with_an_empty_queue_a_pending_render_is_published_after_the_grace_period(
    on_redis, published
):
    lost = pending_render(timedelta(seconds=services.PENDING_GRACE_SECONDS * 2))
    just_queued = pending_render(timedelta(seconds=5))

    services.sweep_pipeline()

    assert renders(published) == [lost.pk]
    assert just_queued.pk not in renders(published)
