"""How many messages wait in each Celery queue, asked of the broker.

The sweeper reads it to tell a row whose message waits behind others from one whose message was
lost (``pipeline.services.sweep_pipeline``), and ``/metrics`` reports it per queue
(``config/metrics.py``). Through kombu's queue declaration, which on Redis counts the list of
that name with its priority lists.
"""

import logging

from django.conf import settings

from config.celery import QUEUES, app

logger = logging.getLogger(__name__)


def queue_of(task_name: str) -> str:
    """The queue ``config.celery`` routes a task to."""
    route = app.conf.task_routes.get(task_name, {})
    return route.get("queue", app.conf.task_default_queue)


def waiting_messages() -> dict[str, int] | None:
    """Messages waiting (not yet handed to a worker) per queue; None with no broker (tasks run
    in-process) or when it does not answer within the broker's connect timeout."""
    if not settings.CELERY_BROKER_URL:
        return None
    try:
        with app.connection_for_read() as connection:
            connection.ensure_connection(max_retries=1)
            channel = connection.default_channel
            return {name: channel.queue_declare(queue=name).message_count for name in QUEUES}
    except Exception:
        logger.warning("could not read the queue depths from the broker", exc_info=True)
        return None
