"""The Celery application; configuration comes from Django settings (CELERY_* names).

The beat schedule lives here, next to the app: the sweeper that makes the rows an outbox, and
the housekeeping jobs. ``publish`` is how every app queues work: by task name, so the app that
queues never imports the app that works (the imports point down, the messages may point up).
"""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

DAY_SECONDS = 24 * 60 * 60.0

app.conf.beat_schedule = {
    # Re-queue sizing and render work that is pending (broker was down at submit time, a message
    # was lost with a Redis restart) or stuck past the hard time limit (a dead worker).
    "sweep-pipeline": {"task": "pipeline.sweep_pipeline", "schedule": 60.0},
    # Expired sessions and abandoned drafts hold customer answers: remove them daily.
    "purge-expired-drafts-and-sessions": {
        "task": "questionnaire.purge_expired_drafts_and_sessions",
        "schedule": DAY_SECONDS,
    },
    # Won, lost and closed submissions past CLOSED_SUBMISSION_RETENTION_DAYS, with their PDFs.
    "purge-closed-submissions": {
        "task": "staff.purge_closed_submissions",
        "schedule": DAY_SECONDS,
    },
}

# Publishing must fail fast when the broker is down: a customer may be waiting for a page.
PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}


def registered_task(task_name: str):
    """The registered task called ``task_name`` (so eager mode applies to it).

    Outside a worker Celery only imports the apps' ``tasks`` modules when asked: ask once.
    """
    if task_name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[task_name]


def publish(task_name: str, *args: object) -> bool:
    """Publish one task by name; never raises. Returns whether the message went out.

    A failure is only logged: the row it is about stays pending and the sweeper publishes it
    again, so a broker outage never undoes a customer's or an engineer's commit.
    """
    try:
        registered_task(task_name).apply_async(
            args=list(args), retry=True, retry_policy=PUBLISH_RETRY_POLICY
        )
    except Exception:
        logger.warning(
            "could not publish %s%r; the sweeper will re-queue it", task_name, args, exc_info=True
        )
        return False
    return True
