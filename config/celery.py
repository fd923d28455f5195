"""The Celery application; configuration comes from Django settings (CELERY_* names).

The beat schedule lives here, next to the app: the sweeper that makes the rows an outbox, and
the housekeeping jobs. ``publish`` is how every app queues work: by task name, so the app that
queues never imports the app that works (the imports point down, the messages may point up).
"""

import logging
import os

from celery import Celery
from celery.signals import (
    before_task_publish,
    task_failure,
    task_postrun,
    task_prerun,
    worker_process_init,
)
from kombu import Queue

from config import log_context
from config.collector import hold_start_up_objects

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Log lines name the task, and the web request that queued it (config/log_context.py).
before_task_publish.connect(log_context.carry_request_id, weak=False)
task_prerun.connect(log_context.enter_task, weak=False)
task_postrun.connect(log_context.leave_task, weak=False)


@worker_process_init.connect
def freeze_start_up_objects(**_: object) -> None:
    """Hide what a pool process holds when it starts from the garbage collector
    (``config.collector``): by then Django, the apps' task modules and WeasyPrint (imported by
    ``pipeline.services``) are loaded. ``benchmarks/pipeline.py`` calls this too, so its render is
    measured as a worker runs it."""
    hold_start_up_objects()


@task_failure.connect
def _report_task_failure(**kwargs: object) -> None:
    """A task that failed for good reaches ADMINS (Sentry's own integration reports it there)."""
    from django.conf import settings

    from config.error_reports import report_task_failure

    if not settings.SENTRY_DSN:
        report_task_failure(**kwargs)


DAY_SECONDS = 24 * 60 * 60.0

# Four queues, so that a render (seconds of WeasyPrint each, and a burst of them after a busy
# hour) never delays a customer's email or the sweeper. A worker started without -Q consumes all
# four (bin/run, the tests); docker-compose.yml gives rendering its own workers.
SIZING_QUEUE = "sizing"
RENDER_QUEUE = "render"
MAIL_QUEUE = "mail"
HOUSEKEEPING_QUEUE = "housekeeping"
QUEUES = (SIZING_QUEUE, RENDER_QUEUE, MAIL_QUEUE, HOUSEKEEPING_QUEUE)
app.conf.task_default_queue = SIZING_QUEUE
app.conf.task_queues = [Queue(name, routing_key=name) for name in QUEUES]
app.conf.task_routes = {
    "pipeline.render_proposal": {"queue": RENDER_QUEUE},
    "pipeline.deliver_email": {"queue": MAIL_QUEUE},
    "pipeline.queue_resume_link": {"queue": MAIL_QUEUE},
    "pipeline.sweep_pipeline": {"queue": HOUSEKEEPING_QUEUE},
    "questionnaire.purge_expired_drafts_and_sessions": {"queue": HOUSEKEEPING_QUEUE},
    "staff.purge_closed_submissions": {"queue": HOUSEKEEPING_QUEUE},
}  # pipeline.start_pipeline and pipeline.run_sizing: the default queue, sizing


def _expires_before_the_next(schedule: float) -> dict[str, float]:
    """A scheduled message not run before the next one is due is dropped, not piled up [s].

    A worker that was down for a day must not find 1,440 sweeps waiting for it.
    """
    return {"expires": 0.9 * schedule}


app.conf.beat_schedule = {
    # Re-queue sizing and render work that is pending (broker was down at submit time, a message
    # was lost with a Redis restart) or stuck past the hard time limit (a dead worker).
    "sweep-pipeline": {
        "task": "pipeline.sweep_pipeline",
        "schedule": 60.0,
        "options": _expires_before_the_next(60.0),
    },
    # Expired sessions and abandoned drafts hold customer answers: remove them daily.
    "purge-expired-drafts-and-sessions": {
        "task": "questionnaire.purge_expired_drafts_and_sessions",
        "schedule": DAY_SECONDS,
        "options": _expires_before_the_next(DAY_SECONDS),
    },
    # Won, lost and closed submissions past CLOSED_SUBMISSION_RETENTION_DAYS, with their PDFs.
    "purge-closed-submissions": {
        "task": "staff.purge_closed_submissions",
        "schedule": DAY_SECONDS,
        "options": _expires_before_the_next(DAY_SECONDS),
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
        # A resume link travels as an argument: no link reaches a log.
        shown = tuple("[link]" if isinstance(arg, str) and "://" in arg else arg for arg in args)
        logger.warning(
            "could not publish %s%r; the sweeper will re-queue it", task_name, shown, exc_info=True
        )
        return False
    return True
